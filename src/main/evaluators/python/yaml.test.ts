// YAML as PyYAML's yaml.safe_load reads it (OSWorld's check_json with is_yaml): YAML 1.1 scalars, floats kept as
// Python floats. Each row names what Python prints for the loaded value.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMetric, tempDir } from '../testing/fixtures';
import { pyRepr } from './value';
import { pyYamlLoad } from './yaml';
import '../catalog';

// prettier-ignore
const rows: [yaml: string, python: string][] = [
  ['v: 5.0', "{'v': 5.0}"],
  ['v: yes', "{'v': True}"],
  ['v: [on, Off, NO]', "{'v': [True, False, False]}"],
  ['v: [y, n, Y, N]', "{'v': ['y', 'n', 'Y', 'N']}"],
  ['v: 1e3', "{'v': '1e3'}"],
  ['v: 1.0e+3', "{'v': 1000.0}"],
  ['v: 010', "{'v': 8}"],
  ['v: 0o17', "{'v': '0o17'}"],
  ['v: 1_000', "{'v': 1000}"],
  ['v: 1:30', "{'v': 90}"],
  ['v: [.inf, -.inf]', "{'v': [inf, -inf]}"],
  ['v: ~', "{'v': None}"],
  ['v: [1.5, 2, "3.0"]', "{'v': [1.5, 2, '3.0']}"],
];

const tmp = tempDir();
afterAll(tmp.cleanup);

describe("YAML as PyYAML's safe_load reads it", () => {
  it.each(
    rows.map(([yaml, python]) => ({
      name: `Python: yaml.safe_load(${JSON.stringify(yaml)}) is ${python}`,
      yaml,
      python,
    })),
  )('$name', ({ yaml, python }) => {
    expect(pyRepr(pyYamlLoad(yaml))).toBe(python);
  });

  const pyyaml =
    existsSync('/usr/bin/python3') &&
    (() => {
      try {
        execFileSync('/usr/bin/python3', ['-c', 'import yaml']);
        return true;
      } catch {
        return false;
      }
    })();
  it.skipIf(!pyyaml)(
    "the table is what this machine's python3 and PyYAML answer (skipped without /usr/bin/python3 and PyYAML)",
    () => {
      const script =
        'import json, sys, yaml\nprint(json.dumps([repr(yaml.safe_load(y)) for y, _ in json.load(sys.stdin)]))';
      const out = JSON.parse(
        execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(rows), encoding: 'utf8' }),
      ) as string[];
      expect(out).toEqual(rows.map((r) => r[1]));
    },
  );

  it("check_json is_yaml: Python's yes is True (eq true → 1), 1e3 stays the str '1e3' (eq 1000 → 0)", async () => {
    const file = join(tmp.dir, 'conf.yaml');
    writeFileSync(file, 'enabled: yes\nlimit: 1e3\nratio: 5.0\n');
    const check = async (key: string, method: string, ref: unknown) =>
      (await runMetric('check_json', file, { expect: [{ key: [key], method, ref }] }, { is_yaml: true }))
        .score;
    expect([
      await check('enabled', 'eq', true),
      await check('limit', 'eq', 1000),
      await check('limit', 'eq', '1e3'),
      await check('ratio', 'eq', 5),
    ]).toEqual([1, 0, 1, 1]);
    const out = await runMetric(
      'check_json',
      file,
      { expect: [{ key: ['ratio'], method: 'eq', ref: 6 }] },
      { is_yaml: true },
    );
    expect(out.reason).toMatch(/5\.0 != 6/);
  });
});
