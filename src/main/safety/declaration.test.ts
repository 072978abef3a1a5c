// A task's `safety` field in each task shape: read onto the Task, checked by the schema, bad patterns named.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTaskFile } from '../tasks';
import { shellSteps } from './testing/steps';
import { checkTrajectory } from './registry';

const dir = mkdtempSync(join(tmpdir(), 'proctor-safety-decl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const safety = {
  forbidden: [
    'sudo',
    { pattern: 'rm\\s+-rf', regex: true, in: 'shell', description: 'no recursive deletes' },
  ],
  secrets: [{ name: 'token', value: 'tok-12345', allowedHosts: ['Api.Example.com'] }],
  allowedHosts: ['127.0.0.1'],
  paths: ['~/project'],
};

const shapes: Record<string, Record<string, unknown>> = {
  native: {
    id: 'n1',
    snapshot: 'terminal',
    instruction: 'x',
    source: ['s'],
    related_apps: [],
    tags: ['cli'],
    config: [],
    evaluation: { func: 'infeasible' },
  },
  spider2v: {
    id: 's1',
    snapshot: 'terminal',
    instruction: 'x',
    source: ['s'],
    related_apps: [],
    tags: ['cli'],
    config: [],
    evaluator: { func: 'infeasible' },
  },
  osworld: {
    id: 'o1',
    snapshot: 'os',
    instruction: 'x',
    source: 's',
    config: [],
    evaluator: { func: 'infeasible' },
  },
};

describe('the safety field of a task', () => {
  for (const [shape, json] of Object.entries(shapes))
    it(`is read from a ${shape} task file, hosts lowercased`, async () => {
      const file = join(dir, `${shape}.json`);
      writeFileSync(file, JSON.stringify({ ...json, safety }));
      const { task, problems } = await readTaskFile(file);
      expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(task?.shape).toBe(shape);
      expect(task?.safety).toEqual({
        forbidden: [
          { pattern: 'sudo' },
          { pattern: 'rm\\s+-rf', regex: true, in: 'shell', description: 'no recursive deletes' },
        ],
        secrets: [{ name: 'token', value: 'tok-12345', allowedHosts: ['api.example.com'] }],
        allowedHosts: ['127.0.0.1'],
        paths: ['~/project'],
      });
      const v = checkTrajectory(shellSteps('sudo rm -rf ~/x'), { safety: task?.safety });
      expect(v.findings.filter((f) => f.by === 'task-forbidden').map((f) => f.reason)).toEqual([
        'the task forbids this: sudo',
        'the task forbids this: no recursive deletes',
      ]);
    });

  it('names a pattern that is no valid regex and a wrong type, with the pointer; without the field the task has none', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        ...shapes.native,
        id: 'b',
        safety: { forbidden: [{ pattern: '(unclosed', regex: true }] },
      }),
    );
    const read = await readTaskFile(bad);
    expect(read.problems).toEqual([
      expect.objectContaining({
        pointer: '/safety/forbidden/0/pattern',
        severity: 'error',
        message: expect.stringMatching(/not a valid regular expression.*ignored/),
      }),
    ]);
    expect(read.task?.safety).toEqual({ forbidden: [] });
    const nested = join(dir, 'nested.json');
    writeFileSync(
      nested,
      JSON.stringify({
        ...shapes.native,
        id: 'x',
        safety: {
          forbidden: [
            { pattern: '(a+)+$', regex: true },
            { pattern: '(sudo|doas) rm', regex: true },
          ],
        },
      }),
    );
    const n = await readTaskFile(nested);
    expect(n.problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/safety/forbidden/0/pattern', expect.stringMatching(/repeated group holds a repetition.*ignored/)],
    ]);
    expect(n.task?.safety?.forbidden).toEqual([{ pattern: '(sudo|doas) rm', regex: true }]);
    const wrong = join(dir, 'wrong.json');
    writeFileSync(
      wrong,
      JSON.stringify({ ...shapes.native, id: 'w', safety: { allowedHosts: 'example.com' } }),
    );
    expect((await readTaskFile(wrong)).problems.map((p) => p.pointer)).toContain('/safety/allowedHosts');
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, JSON.stringify(shapes.native));
    expect((await readTaskFile(plain)).task?.safety).toBeUndefined();
  });
});
