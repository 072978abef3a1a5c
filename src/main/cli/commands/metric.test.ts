// `proctor metric` and the --grading-profile flag, through the CLI's own entry.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../main';
import { parseRunArgs } from './run';

const dir = mkdtempSync(join(tmpdir(), 'proctor-metric-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const put = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

async function proctor(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('proctor metric', () => {
  const gold = put('gold.csv', 'region,total\nEast,10\n');
  const quoted = put('quoted.csv', '"region","total"\n"East","10"\n');
  it('--json prints the faithful verdict, the profile, the second opinion and the brittle flag', async () => {
    const r = await proctor('metric', 'compare_csv', '--result', quoted, '--expected', gold, '--json');
    expect(r.code, r.err).toBe(0);
    const v = JSON.parse(r.out) as Record<string, unknown>;
    expect(v).toMatchObject({
      score: 0,
      profile: 'spider2v',
      second_opinion: { score: 1 },
      brittle: 'quoted cells: faithful 0, robust 1',
    });
    expect(Object.keys(v).slice(0, 4)).toEqual(['score', 'reason', 'profile', 'second_opinion']);
  });
  it('--profile native and --options; json: literals for rule values', async () => {
    const r = await proctor(
      'metric',
      'compare_csv',
      '--result',
      quoted,
      '--expected',
      gold,
      '--profile',
      'native',
      '--options',
      '{"ignore_order": true}',
      '--json',
    );
    expect(JSON.parse(r.out)).toMatchObject({ score: 1, profile: 'native', second_opinion: { score: 1 } });
    const lit = await proctor(
      'metric',
      'check_include_exclude',
      '--result',
      'json:"all done"',
      '--expected',
      'json:{"include":["done"]}',
    );
    expect(lit.out).toMatch(/^check_include_exclude \(spider2v\): 1 — /);
  });
  it("an OSWorld family's metric runs under osworld by default, as its one reading", async () => {
    const r = await proctor(
      'metric',
      'check_json',
      '--result',
      put('s.json', '{"a": 1}'),
      '--expected',
      'json:{"expect": [{"key": ["a"], "method": "eq", "ref": 1}]}',
    );
    expect(r.out).toMatch(/^check_json \(osworld\): 1 — /);
    expect(r.out).toMatch(/no separate robust variant under osworld/);
    expect(r.out).not.toMatch(/second opinion/);
  });
  it('refuses an unknown metric, a bad profile, a missing file and bad --options with usage (exit 2)', async () => {
    for (const argv of [
      ['metric', 'compare_cvs', '--result', gold],
      ['metric', 'compare_csv', '--result', gold, '--profile', 'webarena'],
      ['metric', 'compare_csv', '--result', join(dir, 'nope.csv')],
      ['metric', 'compare_csv', '--result', gold, '--options', '[1]'],
    ]) {
      const r = await proctor(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain('Usage: proctor metric');
    }
    expect((await proctor('metric', 'compare_cvs', '--result', gold)).err).toContain(
      "closest known: 'compare_csv'",
    );
    // a rule typed without json: is shown how to give it; a plain missing path is not
    const rule = await proctor(
      'metric',
      'check_include_exclude',
      '--result',
      gold,
      '--expected',
      '{"include": ["done"]}',
    );
    expect(rule.err).toContain(
      `--expected: no file at ${join(process.cwd(), '{"include": ["done"]}')}; for a literal value write --expected 'json:{"include": ["done"]}'`,
    );
    expect((await proctor('metric', 'compare_csv', '--result', join(dir, 'nope.csv'))).err).not.toContain(
      'for a literal value write',
    );
  });
  it('proctor evaluators --departures lists metric, profile, case and why', async () => {
    const r = await proctor('evaluators', '--departures', '--json');
    const list = (
      JSON.parse(r.out) as { departures: { metric: string; profile: string; case: string; why: string }[] }
    ).departures;
    expect(list.some((d) => d.metric === 'compare_csv' && d.profile === 'native')).toBe(true);
  });
});

describe('--grading-profile', () => {
  it('proctor run takes one of the three profiles and refuses others', () => {
    expect(parseRunArgs(['tasks/', '--grading-profile', 'osworld']).gradingProfile).toBe('osworld');
    expect(parseRunArgs(['tasks/']).gradingProfile).toBeUndefined();
    expect(() => parseRunArgs(['tasks/', '--grading-profile', 'paper'])).toThrow(
      /grading profile must be spider2v, osworld, native/,
    );
  });
});
