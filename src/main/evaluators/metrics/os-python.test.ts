// OSWorld's pattern and value rules on files real programs wrote: check_list on text LibreOffice Writer exported
// (a byte-order mark first, lines end in '\n', so Python's `^` and `$` decide), check_json on the JSON ffprobe prints (ints, floats as text, lists).
// Each case names what Python decides.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMetric, tempDir } from '../testing/fixtures';
import { convertWithLibreOffice, hasLibreOffice } from '../testing/libreoffice';

const tmp = tempDir();
afterAll(tmp.cleanup);
const hasFfmpeg = spawnSync('sh', ['-c', 'command -v ffmpeg && command -v ffprobe']).status === 0;

describe.skipIf(!hasLibreOffice)('check_list on text LibreOffice Writer exported', () => {
  let list = '';
  beforeAll(() => {
    const html = join(tmp.dir, 'settings.html');
    writeFileSync(html, '<html><body><p>apple=1</p><p>Banana=2</p><p>cherry = 3</p></body></html>');
    const out = join(tmp.dir, 'writer');
    convertWithLibreOffice(tmp.dir, [html], 'txt:Text (encoded):UTF8,LF,,,', out);
    list = join(
      out,
      readdirSync(out).find((f) => f.endsWith('.txt'))!,
    );
  }, 200_000);

  it.each([
    [
      'Python: apple=1$ matches the line "apple=1\\n" ($ before the final newline)',
      { expect: ['apple=1$'] },
      1,
    ],
    [
      'Python: Writer starts the file with a byte-order mark that open() keeps, so ^apple misses line 1',
      { expect: ['^apple=1$'] },
      0,
    ],
    ['Python: ^Banana=2$ matches the second line "Banana=2\\n"', { expect: ['^Banana=2$'] }, 1],
    [
      'Python: an unexpected =2$ matches "Banana=2\\n", so the task fails',
      { expect: ['apple'], unexpect: ['=2$'] },
      0,
    ],
    ['Python: (?i)^banana is case-insensitive', { expect: ['(?i)^banana=\\d$'] }, 1],
    [
      'Python: \\Z ends the string, not the line: ^apple=1\\Z misses "apple=1\\n"',
      { expect: ['^apple=1\\Z'] },
      0,
    ],
    [
      'Python: a named group and its backreference',
      { expect: ['^(?P<fruit>[a-z]+) = (?P<n>\\d)$'], unexpect: ['(?P<c>[a-z])(?P=c)(?P=c)'] },
      1,
    ],
    ['Python: ^ is the start of each line read, not of the file', { expect: ['^cherry'] }, 1],
  ])('%s', async (_name, rules, score) => {
    expect(readdirSync(join(tmp.dir, 'writer'))).toContain('settings.txt');
    expect((await runMetric('check_list', list, rules)).score).toBe(score);
  });

  it('Python: re.compile raises on (?<name>x) — a grading error naming the pattern, never a score', async () => {
    await expect(runMetric('check_list', list, { expect: ['(?<fruit>apple)'] })).rejects.toThrow(
      "Python pattern '(?<fruit>apple)' is not valid in Python's re",
    );
  });
});

describe.skipIf(!hasFfmpeg)('check_json on the JSON ffprobe prints (skipped without ffmpeg)', () => {
  let probe = '';
  beforeAll(() => {
    const wav = join(tmp.dir, 'tone.wav');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=1',
      '-ac',
      '1',
      wav,
    ]);
    probe = join(tmp.dir, 'probe.json');
    writeFileSync(
      probe,
      execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', wav]),
    );
  }, 60_000);

  const rule = (key: unknown[], method: string, ref: unknown) => ({ key, method, ref });
  it.each([
    ['Python: channels == True (1 == True)', { expect: [rule(['streams', 0, 'channels'], 'eq', true)] }, 1],
    [
      'Python: channels == 1.0 (int equals float)',
      { expect: [rule(['streams', -1, 'channels'], 'eq', 1.0)] },
      1,
    ],
    [
      'Python: "44100" == 44100 is False (str never equals int)',
      { expect: [rule(['streams', 0, 'sample_rate'], 'eq', 44100)] },
      0,
    ],
    [
      'Python: "44100" == "44100" (the same value as text)',
      { expect: [rule(['streams', 0, 'sample_rate'], 'eq', '44100')] },
      1,
    ],
    [
      'Python: "44100" < "48000" compares str with str',
      { expect: [rule(['streams', 0, 'sample_rate'], 'lt', '48000')] },
      1,
    ],
    [
      'Python: float("1.000000") is within approx:0.01 of 1',
      { expect: [rule(['format', 'duration'], 'approx:0.01', 1)] },
      1,
    ],
    [
      'Python: re.search(r"^pcm_s16le\\Z") on the codec name',
      { expect: [rule(['streams', 0, 'codec_name'], 're', '^pcm_s16le\\Z')] },
      1,
    ],
    [
      'Python: re.I on the format name',
      { expect: [rule(['format', 'format_name'], 're.IGNORECASE', '^WAV$')] },
      1,
    ],
    [
      'Python: "44100" < 48000 raises TypeError, OSWorld scores 0',
      { expect: [rule(['streams', 0, 'sample_rate'], 'lt', 48000)] },
      0,
    ],
    [
      'Python: range.te: 0 < channels <= 2',
      { expect: [rule(['streams', 0, 'channels'], 'range.te', [0, 2])] },
      1,
    ],
    [
      'Python: an unexpect key that is missing reads None, which is not "video"',
      { unexpect: [rule(['streams', 0, 'width'], 'eq', 'video')] },
      1,
    ],
    [
      'Python: an unexpect index past the list raises IndexError, OSWorld scores 0',
      { unexpect: [rule(['streams', 5, 'codec_type'], 'eq', 'video')] },
      0,
    ],
    [
      'Python: re.search on an int raises TypeError, OSWorld scores 0',
      { expect: [rule(['streams', 0, 'channels'], 're', '1')] },
      0,
    ],
  ])('%s', async (_name, rules, score) => {
    expect(existsSync(probe)).toBe(true);
    expect((await runMetric('check_json', probe, rules)).score).toBe(score);
  });
});

describe('check_json follows keys as Python indexes', () => {
  it("Python: json.loads('{\"a\": 5.0}')['a'] == 5, and 5.0['value'] raises TypeError (a float has no keys): 0", async () => {
    const file = join(tmp.dir, 'float-key.json');
    writeFileSync(file, '{"a": 5.0}');
    const score = async (key: unknown[]) =>
      (await runMetric('check_json', file, { expect: [{ key, method: 'eq', ref: 5 }] })).score;
    expect([await score(['a']), await score(['a', 'value'])]).toEqual([1, 0]);
  });
});

describe('check_list reads lines as Python text mode does', () => {
  it.each([
    [
      'Python: a CRLF file reads "a=1\\n" (universal newlines), so ^a=1$ matches',
      'a=1\r\nb=2\r\n',
      ['^a=1$'],
      1,
    ],
    ['Python: the last line without a newline still ends at $', 'a=1\nb=2', ['^b=2$'], 1],
    [
      'Python: a byte-order mark is the first character, so ^a misses the first line',
      '\uFEFFa=1\n',
      ['^a=1'],
      0,
    ],
    ['Python: \\s is Unicode: a no-break space matches', 'a\u00a0b\n', ['a\\sb'], 1],
  ])('%s', async (_name, text, expect_, score) => {
    const p = join(tmp.dir, `lines-${score}-${expect_[0].length}.txt`);
    writeFileSync(p, text);
    expect((await runMetric('check_list', p, { expect: expect_ })).score).toBe(score);
  });
});

describe('check_json reads the file as Python does', () => {
  it('Python: json.load raises on a byte-order mark (0); PyYAML reads past it (1); json keeps 2.0 a float', async () => {
    const rules = { expect: [{ key: ['v'], method: 'eq', ref: 2 }] };
    const json = join(tmp.dir, 'bom.json');
    writeFileSync(json, '\uFEFF{"v": 2.0}');
    expect((await runMetric('check_json', json, rules)).score).toBe(0);
    writeFileSync(json, '{"v": 2.0}');
    expect((await runMetric('check_json', json, rules)).score).toBe(1);
    expect(
      (await runMetric('check_json', json, { expect: [{ key: ['v'], method: 're', ref: '2' }] })).reason,
    ).toMatch(/float/);
    const yml = join(tmp.dir, 'bom.yml');
    writeFileSync(yml, '\uFEFFv: 2\n');
    expect((await runMetric('check_json', yml, rules, { is_yaml: true })).score).toBe(1);
  });
});
