// A task file's `5.0` reaches OSWorld's metrics as Python's json reads it (a float that prints '5.0'), while the
// task model stays plain JSON for the schemas and the task browser.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { readTaskFile } from '../../tasks/reader';
import type { Task } from '../../../shared/task';
import { gradeTask } from '../grade';
import { tempDir } from '../testing/fixtures';
import { withPyFloats } from './task-floats';
import { PyFloat } from './value';

const tmp = tempDir();
afterAll(tmp.cleanup);
let env: ShellEnvironment;
let cacheDir: string;
let n = 0;
beforeEach(async () => {
  env = await createShellEnvironment();
  cacheDir = join(tmp.dir, `cache-${n++}`);
});
afterEach(async () => env.close());

/** An OSWorld task file (flat layout, `source` a str) whose evaluator is written as this exact text. */
async function osworldTask(id: string, evaluator: string): Promise<Task> {
  const dir = join(tmp.dir, 'evaluation_examples', 'examples', 'os');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${id}.json`);
  writeFileSync(
    file,
    `{"id": "${id}", "snapshot": "os", "instruction": "answer", "source": "test", "config": [], "related_apps": ["os"], "evaluator": ${evaluator}}`,
  );
  const { task, problems } = await readTaskFile(file);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  return task!;
}

const literal = (command: string, expected: string) =>
  `{"func": "literal_match", "result": {"type": "vm_command_line", "command": "${command}"}, "expected": {"type": "rule", "rules": ${expected}}}`;

describe("a task's 5.0 is a Python float for literal_match (str(5.0) == '5.0')", () => {
  const cases: [python: string, command: string, expected: string, score: number][] = [
    ["str('5.0') == str(5.0)", 'printf 5.0', '5.0', 1],
    ["str('5') == str(5.0) is False", 'printf 5', '5.0', 0],
    ["str('5') == str(5)", 'printf 5', '5', 1],
    ["str('5.0') == str(5) is False", 'printf 5.0', '5', 0],
    ["str('1000.0') == str(1e3)", 'printf 1000.0', '1e3', 1],
  ];
  it.each(
    cases.map(([python, command, expected, score]) => ({
      name: `Python: ${python} → ${score}`,
      command,
      expected,
      score,
    })),
  )('$name', async ({ command, expected, score }) => {
    const task = await osworldTask(`lit-${n}`, literal(command, expected));
    const verdict = await gradeTask(task, { env, task, cacheDir });
    expect([verdict.score, verdict.profile], verdict.reason).toEqual([score, 'osworld']);
  });

  it('the task model keeps plain JSON numbers (schemas, task browser) and lists where the floats are', async () => {
    const task = await osworldTask(
      'model',
      `{"func": ["literal_match", "compare_table"], "result": [{"type": "rule", "rules": 2.0}, {"type": "vm_file", "path": "/a.xlsx", "dest": "a.xlsx"}], "expected": [{"type": "rule", "rules": {"l": [1, 5.0, 2.5], "a/b": 1E2}}, {"type": "rule", "rules": {}}], "options": [{}, {"precision": 4.0}]}`,
    );
    expect(task.checks[0].expected?.rules).toEqual({ l: [1, 5, 2.5], 'a/b': 100 });
    expect(task.checks[0].pyFloats).toEqual(['/result/rules', '/expected/rules/l/1', '/expected/rules/a~1b']);
    expect(task.checks[1].pyFloats).toEqual(['/options/precision']);
    expect(JSON.parse(JSON.stringify(task.checks))).toEqual(task.checks);
    // a Python-valued metric gets PyFloat, without the task being changed; others get the numbers as they are
    const seen = withPyFloats(task.checks[0]);
    expect(seen.result?.rules).toEqual(new PyFloat(2));
    expect((seen.expected?.rules as { l: unknown[] }).l).toEqual([1, new PyFloat(5), 2.5]);
    expect(task.checks[0].expected?.rules).toEqual({ l: [1, 5, 2.5], 'a/b': 100 });
    expect(withPyFloats(task.checks[1])).toBe(task.checks[1]);
  });

  it('a native task keeps the float-ness of its arguments (exact_match, expected 1.0)', async () => {
    const dir = join(tmp.dir, 'native', 'exact');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'exact.json');
    writeFileSync(
      file,
      '{"id": "exact", "snapshot": "os", "instruction": "x", "source": ["test"], "config": [], "related_apps": ["os"], "tags": ["cli"], "evaluation": {"func": "exact_match", "arguments": {"expected": 1.0}}}',
    );
    const { task } = await readTaskFile(file);
    expect(task?.checks[0].pyFloats).toEqual(['/args/expected']);
    expect(withPyFloats(task!.checks[0]).args?.expected).toEqual(new PyFloat(1));
  });
});
