import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import type { Task } from '../../../shared/task';
import { metricFamilyOf, metrics } from '../catalog';
import type { GradingContext } from '../getter';
import { hasZip, zipWithInfoZip } from '../testing/cli-files';
import { runMetric, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);
const file = (name: string, data: string | Buffer): string => {
  const p = join(tmp.dir, name);
  writeFileSync(p, data);
  return p;
};
async function zip(name: string, entries: Record<string, string>): Promise<string> {
  const z = new JSZip();
  for (const [k, v] of Object.entries(entries)) z.file(k, v);
  return file(name, await z.generateAsync({ type: 'nodebuffer' }));
}

describe('OSWorld vscode-family metrics', () => {
  it('are registered in the vscode family', () =>
    expect(metricFamilyOf('check_json_settings')).toBe('vscode'));

  it("check_json_keybindings reads the list after VS Code's comment line", async () => {
    const kb = file(
      'keybindings.json',
      '// Place your key bindings in this file to override the defaults\n[{"key": "ctrl+j", "command": "editor.action.joinLines"}]',
    );
    expect(
      (
        await runMetric('check_json_keybindings', kb, {
          expected: { key: 'ctrl+j', command: 'editor.action.joinLines' },
        })
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric('check_json_keybindings', kb, {
          expected: { key: 'ctrl+k', command: 'editor.action.joinLines' },
        })
      ).score,
    ).toBe(0);
  });

  it('check_json_settings needs every pair', async () => {
    const s = file(
      'settings.json',
      JSON.stringify({ 'editor.fontSize': 16, 'files.autoSave': 'afterDelay' }),
    );
    expect((await runMetric('check_json_settings', s, { expected: { 'editor.fontSize': 16 } })).score).toBe(
      1,
    );
    expect(
      (
        await runMetric('check_json_settings', s, {
          expected: { 'editor.fontSize': 16, 'editor.tabSize': 2 },
        })
      ).score,
    ).toBe(0);
  });

  describe('compare_config as OSWorld has it now (containment_ok, default true)', () => {
    const settings = file(
      'config-settings.json',
      '{\n  "editor.fontSize": 14,\n  "files.autoSave": "afterDelay",\n  "python.linting": {"enabled": true, "pylint": true},\n  "list": [1, 2]\n}\n',
    );
    const ini = file('config.ini', '[core]\r\nname = proctor\r\n');
    const cases: [string, string, unknown, Record<string, unknown>, number][] = [
      [
        'both JSON, expected keys a subset (nested dicts too): 1',
        settings,
        '{"python.linting": {"enabled": true}}',
        {},
        1,
      ],
      [
        'both JSON, a value differs: 0 (no substring fallback once both parse)',
        settings,
        '{"editor.fontSize": 16}',
        {},
        0,
      ],
      [
        '1.0 == 1 in Python: {"editor.fontSize": 14.0, "list": [1.0, 2]} is contained',
        settings,
        '{"editor.fontSize": 14.0, "list": [1.0, 2]}',
        {},
        1,
      ],
      [
        'True == 1: expected {"python.linting": {"pylint": 1}} is contained',
        settings,
        '{"python.linting": {"pylint": 1}}',
        {},
        1,
      ],
      ['lists compare whole with ==: a shorter list is not contained', settings, '{"list": [1]}', {}, 0],
      [
        'expected not JSON: substring of the stripped expected text: 1',
        settings,
        '  "files.autoSave": "afterDelay"  ',
        {},
        1,
      ],
      [
        'file not JSON: substring fallback, CRLF read as LF by Python: 1',
        ini,
        '[core]\nname = proctor',
        {},
        1,
      ],
      ['file not JSON, text absent: 0', ini, 'name = other', {}, 0],
      [
        'containment_ok false: exact text (CRLF read as LF): 1',
        ini,
        '[core]\nname = proctor\n',
        { containment_ok: false },
        1,
      ],
      [
        'containment_ok false: JSON equal after parsing (formatting ignored): 1',
        settings,
        '{"list":[1,2],"files.autoSave":"afterDelay","editor.fontSize":14,"python.linting":{"pylint":true,"enabled":true}}',
        { containment_ok: false },
        1,
      ],
      [
        'containment_ok false: a JSON subset is not enough: 0',
        settings,
        '{"editor.fontSize": 14}',
        { containment_ok: false },
        0,
      ],
      [
        'containment_ok 0 is false in Python: exact text needed: 0',
        ini,
        'name = proctor',
        { containment_ok: 0 },
        0,
      ],
      [
        'containment_ok null is false (options.get returns None): 0',
        ini,
        'name = proctor',
        { containment_ok: null },
        0,
      ],
      ['an empty expected text scores 0', settings, '', {}, 0],
      [
        "Python: a NaN inside a list is json's one NaN object, so [nan] == [nan]: 1",
        file('nan-list.json', '{"v": [NaN], "w": 1}'),
        '{"v": [NaN]}',
        {},
        1,
      ],
      [
        'Python: a top-level NaN value is compared with ==, and nan != nan: 0',
        file('nan-value.json', '{"v": NaN}'),
        '{"v": NaN}',
        {},
        0,
      ],
      [
        'Python: 9007199254740993 == 9007199254740992.0 is False (ints compare exactly): 0',
        file('big.json', '{"id": 9007199254740993}'),
        '{"id": 9007199254740992.0}',
        {},
        0,
      ],
      [
        'Python: 9007199254740993 == 9007199254740993: 1',
        file('big2.json', '{"id": 9007199254740993}'),
        '{"id": 9007199254740993}',
        {},
        1,
      ],
    ];
    it.each(cases)('%s', async (_name, result, want, options, score) => {
      expect((await runMetric('compare_config', result, { expected: want }, options)).score).toBe(score);
    });

    it("reads NaN and Infinity as Python's json does, and refuses a BOM as json.loads does (then the substring decides)", async () => {
      const nan = file('nan.json', '{"limit": Infinity, "x": 1}');
      expect((await runMetric('compare_config', nan, { expected: '{"limit": Infinity}' })).score).toBe(1);
      const bom = file('bom.json', '\uFEFF{"a": 1, "b": 2}');
      expect((await runMetric('compare_config', bom, { expected: '{"a": 1}' })).score).toBe(0);
      expect((await runMetric('compare_config', bom, { expected: '"a": 1' })).score).toBe(1);
    });

    it('a file that is not UTF-8 is the reason (Python raises UnicodeDecodeError)', async () => {
      const latin = file('latin.ini', Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xe9]));
      const out = await runMetric('compare_config', latin, { expected: 'name' });
      expect(out.score).toBe(0);
      expect(out.reason).toMatch(/not UTF-8/);
    });
  });

  it('compare_result_files: numbers within 1e-4 or contained, text equal', async () => {
    const gold = file('gold.txt', '3.14159\n');
    expect(
      (await runMetric('compare_result_files', file('r1.txt', 'The answer is 3.14159'), gold)).score,
    ).toBe(1);
    expect((await runMetric('compare_result_files', file('r2.txt', '3.141592'), gold)).score).toBe(1);
    expect((await runMetric('compare_result_files', file('r3.txt', '3.15'), gold)).score).toBe(0);
    expect(
      (await runMetric('compare_result_files', file('r4.txt', 'hello'), file('g2.txt', 'hello\n'))).score,
    ).toBe(1);
  });

  it.skipIf(!hasZip)(
    'compare_zip_files on archives `zip -r` made: the same files added in another order 1, one changed 0',
    async () => {
      const a = zipWithInfoZip(tmp.dir, 'cli-a', { 'x.txt': 'one', 'd/y.txt': 'two', 'd/z.txt': 'three' });
      const b = zipWithInfoZip(tmp.dir, 'cli-b', { 'd/z.txt': 'three', 'd/y.txt': 'two', 'x.txt': 'one' });
      const c = zipWithInfoZip(tmp.dir, 'cli-c', { 'x.txt': 'one', 'd/y.txt': 'TWO', 'd/z.txt': 'three' });
      const d = zipWithInfoZip(tmp.dir, 'cli-d', { 'x.txt': 'one', 'd/y.txt': 'two' });
      expect((await runMetric('compare_zip_files', a, b)).score).toBe(1);
      const changed = await runMetric('compare_zip_files', a, c);
      expect(changed.score).toBe(0);
      expect(changed.reason).toMatch(/'d\/y\.txt' differs/);
      expect((await runMetric('compare_zip_files', a, d)).score).toBe(0);
    },
  );

  it('compare_zip_files compares names and bytes (JSZip-written archives)', async () => {
    const a = await zip('a.zip', { 'x.txt': 'one', 'd/y.txt': 'two' });
    const b = await zip('b.zip', { 'd/y.txt': 'two', 'x.txt': 'one' });
    const c = await zip('c.zip', { 'x.txt': 'one', 'd/y.txt': 'TWO' });
    expect((await runMetric('compare_zip_files', a, b)).score).toBe(1);
    expect((await runMetric('compare_zip_files', a, c)).score).toBe(0);
  });

  it('is_extension_installed: contain / not_contain', async () => {
    const out = 'ms-python.python\nesbenp.prettier-vscode\n';
    expect(
      (await runMetric('is_extension_installed', out, { type: 'contain', expected: 'ms-python.python' }))
        .score,
    ).toBe(1);
    expect(
      (await runMetric('is_extension_installed', out, { type: 'not_contain', expected: 'ms-python.python' }))
        .score,
    ).toBe(0);
  });
});

describe.skipIf(!existsSync('/usr/bin/python3'))(
  "check_python_file_by_test_suite runs the suite with the guest's python3",
  () => {
    let env: ShellEnvironment;
    let ctx: GradingContext;
    beforeAll(async () => {
      env = await createShellEnvironment();
      ctx = { env, task: { dir: tmp.dir, file: join(tmp.dir, 't.json') } as Task, cacheDir: tmp.dir };
    });
    afterAll(async () => env?.close());
    const check = (result: unknown, expected: unknown, options: Record<string, unknown> = {}) =>
      metrics.require('check_python_file_by_test_suite')(result, expected, options, ctx);
    const suite = file(
      'test_suite.py',
      'from bubble import bubble_sort\n\ndef test():\n    return bubble_sort([3, 1, 2]) == [1, 2, 3]\n\ndef half():\n    return 0.5\n\ndef many():\n    return 7\n\ndef boom():\n    raise ValueError("no")\n\nnot_a_function = 3\n',
    );

    it('is in the vscode family', () =>
      expect(metricFamilyOf('check_python_file_by_test_suite')).toBe('vscode'));

    it("scores 1 when the agent's file passes, 0 when it does not", async () => {
      const good = join(mkdtempSync(join(tmp.dir, 'good-')), 'bubble.py');
      writeFileSync(
        good,
        'def bubble_sort(xs):\n    xs = list(xs)\n    for i in range(len(xs)):\n        for j in range(len(xs) - 1 - i):\n            if xs[j] > xs[j + 1]:\n                xs[j], xs[j + 1] = xs[j + 1], xs[j]\n    return xs\n',
      );
      const bad = join(mkdtempSync(join(tmp.dir, 'bad-')), 'bubble.py');
      writeFileSync(bad, 'def bubble_sort(xs):\n    return xs\n');
      expect((await check(good, suite)).score).toBe(1);
      const r = await check(bad, suite);
      expect(r.score).toBe(0);
      expect(r.reason).toMatch(/returned False/);
    });

    it('the rest of the grading cache sits beside the suite, as upstream puts its cache folder on sys.path', async () => {
      const cache = mkdtempSync(join(tmp.dir, 'cache-'));
      writeFileSync(join(cache, 'board.py'), 'WIDTH = 10\n');
      writeFileSync(
        join(cache, 'suite.py'),
        'from board import WIDTH\nfrom block import size\n\ndef test():\n    return size() < WIDTH\n',
      );
      const block = join(mkdtempSync(join(tmp.dir, 'agent-')), 'block.py');
      writeFileSync(block, 'def size():\n    return 4\n');
      const r = await check(block, join(cache, 'suite.py'));
      expect(r.reason).toMatch(/returned True/);
      expect(r.score).toBe(1);
    });

    it('numbers are clamped, exceptions and missing functions score 0, a missing test file scores 0', async () => {
      const good = join(mkdtempSync(join(tmp.dir, 'g2-')), 'bubble.py');
      writeFileSync(good, 'def bubble_sort(xs):\n    return sorted(xs)\n');
      expect((await check(good, suite, { test_function_name: 'half' })).score).toBe(0.5);
      expect((await check(good, suite, { test_function_name: 'many' })).score).toBe(1);
      expect((await check(good, suite, { test_function_name: 'boom' })).reason).toMatch(
        /raised ValueError: no/,
      );
      expect((await check(good, suite, { test_function_name: 'absent' })).reason).toMatch(/no 'absent'/);
      expect((await check(good, suite, { test_function_name: 'not_a_function' })).reason).toMatch(
        /not callable/,
      );
      expect((await check(undefined, suite)).reason).toMatch(/does not load: .*bubble/);
      expect((await check(good, join(tmp.dir, 'missing_suite.py'))).score).toBe(0);
    });

    it("runs outside Proctor's process, in a folder of its own that is removed afterwards", async () => {
      const probe = file(
        'probe_suite.py',
        `import os\n\ndef test():\n    open("seen.txt", "w").write(os.getcwd())\n    return os.getpid() != ${process.pid}\n`,
      );
      const r = await check(undefined, probe);
      expect(r.score).toBe(1);
      const list = async () =>
        (
          await env.run(['sh', '-c', 'ls -d /tmp/proctor-test-suite-* 2>/dev/null || true'], { shell: false })
        ).stdout.trim();
      expect(await list()).toBe('');
      await env.putFile('/tmp/proctor-test-suite-by-hand/x', Buffer.from('x')); // the listing does see such folders
      expect(await list()).toMatch(/proctor-test-suite-by-hand$/);
    });
  },
);
