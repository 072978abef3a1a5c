// The stored formats have one source, resources/schemas: the generated types are what the schemas say
// (scripts/gen-schema-types.mjs --check), and a run written by the real runner and store validates against the
// schemas with every field it writes named there (a field added to a writer but not to its schema fails here).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent, AgentTurn } from '../agents/agent';
import type { Environment } from '../env/environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { defaultParts } from '../runner/parts';
import { runTasks } from '../runner/scheduler';
import { writeAnswerTask } from '../runner/testing/answer-task';
import { checkTrajectory } from '../safety/registry';
import { RunWriter, readTaskTrajectory } from '../store';
import { main } from '../cli/main';
import { exportTrajectory } from '../share/trajectory-export';
import { validatorFor, type SchemaKind } from '../schemas';

const root = resolve(__dirname, '../../..');
const gen = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'scripts/gen-schema-types.mjs'), ...args], { encoding: 'utf8' });
const tmp = mkdtempSync(join(tmpdir(), 'proctor-stored-formats-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('types generated from the schemas', () => {
  it('src/shared/generated is what resources/schemas says (else: npm run gen:types)', () => {
    const r = gen('--check');
    expect(r.status, r.stderr).toBe(0);
  });

  it('--check fails on a generated file that drifted, and names the command that fixes it', () => {
    const out = join(tmp, 'generated');
    expect(gen('--out', out).status).toBe(0);
    const file = join(out, 'run-manifest.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('runId: string;', 'runId: number;'));
    const r = gen('--check', '--out', out);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/run-manifest\.ts: not what resources\/schemas says\. Run `npm run gen:types`/);
  });
});

type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };
const schemaFile = (name: string): Schema =>
  JSON.parse(readFileSync(join(root, 'resources/schemas', name), 'utf8')) as Schema;

/** The sub-schema a $ref names (`#/definitions/x`, `other.schema.json`, `other.schema.json#/a/b`). */
function deref(ref: string, doc: Schema): { s: Schema; doc: Schema } {
  const [file, pointer = ''] = ref.split('#');
  const d = file ? schemaFile(file) : doc;
  const s = pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((x, k) => (x as Record<string, unknown>)[k], d) as Schema;
  return { s, doc: d };
}

/**
 * JSON pointers of the fields in `value` that `schema` does not name: a property is named by `properties`, by a
 * merged `allOf` part, by the `then` of an `if` the value meets, or by an `additionalProperties` schema. An
 * object schema naming no field at all (`{"type": "object"}`) is free-form.
 */
function unnamedFields(value: unknown, schema: Schema, doc: Schema, at = ''): string[] {
  if (schema.$ref) {
    const r = deref(schema.$ref as string, doc);
    return unnamedFields(value, r.s, r.doc, at);
  }
  if (Array.isArray(value))
    return schema.items
      ? value.flatMap((v, i) => unnamedFields(v, schema.items as Schema, doc, `${at}/${i}`))
      : [];
  if (typeof value !== 'object' || value === null) return [];
  const obj = value as Record<string, unknown>;
  const parts: { s: Schema; doc: Schema }[] = [];
  const collect = (s: Schema, d: Schema) => {
    if (s.$ref) {
      const r = deref(s.$ref as string, d);
      return collect(r.s, r.doc);
    }
    parts.push({ s, doc: d });
    for (const p of (s.allOf as Schema[] | undefined) ?? []) {
      if (!p.if) collect(p, d);
      else {
        const [[field, cond]] = Object.entries((p.if as Schema).properties!);
        const values = 'const' in cond ? [cond.const] : (cond.enum as unknown[]);
        if (values.includes(obj[field]) && p.then) collect(p.then as Schema, d);
      }
    }
    for (const k of ['anyOf', 'oneOf'] as const) for (const p of (s[k] as Schema[]) ?? []) collect(p, d);
  };
  collect(schema, doc);
  const named = new Map<string, { s: Schema; doc: Schema }>();
  let extra: { s: Schema; doc: Schema } | undefined;
  for (const { s, doc: d } of parts) {
    for (const [k, p] of Object.entries(s.properties ?? {}))
      if (!named.has(k)) named.set(k, { s: p, doc: d });
    if (s.additionalProperties && s.additionalProperties !== true)
      extra = { s: s.additionalProperties as Schema, doc: d };
  }
  if (!named.size && !extra) return [];
  return Object.entries(obj).flatMap(([k, v]) => {
    const n = named.get(k) ?? extra;
    return n ? unnamedFields(v, n.s, n.doc, `${at}/${k}`) : [`${at}/${k}`];
  });
}

describe('unnamedFields', () => {
  it('finds a field the schema does not name, also inside a branch chosen by the discriminator', () => {
    const verdict = schemaFile('run-verdict.schema.json');
    const rule = { kind: 'rule', at: 'x', score: 1, metrics: [{ metric: 'm', score: 1, extra: 1 }], oops: 2 };
    expect(unnamedFields(rule, verdict, verdict)).toEqual(['/metrics/0/extra', '/oops']);
    // `author` is named for a human label, not for a rule verdict
    const human = { kind: 'human', at: 'x', author: 'ann' };
    expect(unnamedFields(human, verdict, verdict)).toEqual([]);
    expect(unnamedFields({ ...rule, metrics: [], oops: undefined, author: 'a' }, verdict, verdict)).toEqual([
      '/oops',
      '/author',
    ]);
  });
});

const schemaOfFile: Record<string, [SchemaKind, string]> = {
  'manifest.json': ['run-manifest', 'run-manifest.schema.json'],
  'run-plan.json': ['run-plan', 'run-plan.schema.json'],
  'events.jsonl': ['run-event', 'run-event.schema.json'],
  'steps.jsonl': ['run-step', 'run-step.schema.json'],
  'verdicts.jsonl': ['run-verdict', 'run-verdict.schema.json'],
  'summary.json': ['summary', 'summary.schema.json'],
};

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

describe('a run the real runner writes', () => {
  it('validates against the run schemas and names every field it writes (manifest, plan, events, steps, verdicts, summary)', async () => {
    const tasksRoot = join(tmp, 'tasks');
    writeAnswerTask(tasksRoot, 't', { tags: ['cli'] });
    const { tasks } = await (await defaultParts()).loadTasks([tasksRoot]);
    const envRef: { env?: Environment } = {};
    const turn = (type: 'DONE' | 'WAIT'): AgentTurn => ({
      response: type,
      actions: [{ type }],
      tokens: { prompt: 10, completion: 2 },
    });
    const agent = (): Agent => ({
      name: 'writer',
      async start() {},
      async next(_o, step) {
        if (step === 1) {
          await envRef.env!.putFile('/home/user/answer.txt', Buffer.from('answer of t\n'));
          return turn('WAIT');
        }
        return turn('DONE');
      },
    });
    const outcome = await runTasks(tasks, {
      agentName: 'test',
      waitMs: 1,
      outDir: join(tmp, 'results'),
      agent,
      parts: {
        async createEnvironment(r) {
          envRef.env = await createShellEnvironment({ home: r.home });
          return envRef.env;
        },
      },
    });
    // the safety check appends its verdict through the store, as `proctor safety` does
    const writer = RunWriter.attach(outcome.runDir);
    const key = writer.manifest.tasks[0];
    const traj = readTaskTrajectory(outcome.runDir, key);
    writer.appendVerdict(key, checkTrajectory(traj.steps, { instruction: 'x', file: '/t.json' }));

    const seen = new Set<string>();
    const problems: string[] = [];
    for (const file of walk(outcome.runDir)) {
      const name = file.split('/').at(-1)!;
      const known = schemaOfFile[name];
      if (!known) continue;
      seen.add(name);
      const [kind, schemaName] = known;
      const schema = schemaFile(schemaName);
      const text = readFileSync(file, 'utf8');
      const values = name.endsWith('.jsonl')
        ? text
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as unknown)
        : [JSON.parse(text) as unknown];
      values.forEach((v, i) => {
        const where = `${file.slice(outcome.runDir.length + 1)}${name.endsWith('.jsonl') ? `:${i + 1}` : ''}`;
        const validate = validatorFor(kind);
        if (!validate(v)) problems.push(`${where}: ${JSON.stringify(validate.errors)}`);
        // summary.json carries every field of the input task beside `results`: only results is Proctor's
        const checked = name === 'summary.json' ? { results: (v as { results: unknown }).results } : v;
        for (const p of unnamedFields(checked, schema, schema))
          problems.push(`${where}: ${p} is written but ${schemaName} does not name it`);
      });
    }
    // the task exported as `proctor export trajectory` writes it: every field named by its schema too
    const exported = exportTrajectory(outcome.runDir, readTaskTrajectory(outcome.runDir, key), {
      id: writer.runId,
      format: 'proctor',
      agent: 'test',
    });
    const exportSchema = schemaFile('trajectory-export.schema.json');
    for (const p of unnamedFields(exported, exportSchema, exportSchema))
      problems.push(`export of ${key}: ${p} is written but trajectory-export.schema.json does not name it`);
    expect(problems).toEqual([]);
    expect([...seen].sort()).toEqual(Object.keys(schemaOfFile).sort());
    const kinds = readFileSync(join(outcome.runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { kind: string }).kind);
    expect(kinds).toEqual(expect.arrayContaining(['run.started', 'task.step', 'verdict', 'task.finished']));

    // and `proctor validate --strict` has nothing to say about it (an event kind the schema lacks would warn)
    const out: string[] = [];
    const code = await main(['validate', '--strict', outcome.runDir], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    expect(out.join('\n')).toMatch(/ 0 invalid, 0 warnings$/);
    expect(code).toBe(0);
  });

  it('the events a resume writes (verdict.superseded) and incidents are kinds the schema knows: validate does not warn', async () => {
    const out: string[] = [];
    const dir = join(tmp, 'events-only');
    const events = [
      { kind: 'run.started', runId: 'r', at: 'now', tasks: ['a/b'] },
      {
        kind: 'verdict.superseded',
        runId: 'r',
        taskKey: 'a/b',
        at: 'now',
        attempt: 'x/a/b.partial-1',
        verdicts: [{ kind: 'rule', at: 'then' }],
      },
      {
        kind: 'task.incident',
        runId: 'r',
        taskKey: 'a/b',
        at: 'now',
        incident: 'xvfb-restart',
        message: 'm',
      },
    ];
    rmSync(dir, { recursive: true, force: true });
    spawnSync('mkdir', ['-p', dir]);
    writeFileSync(join(dir, 'events.jsonl'), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const code = await main(['validate', '--strict', join(dir, 'events.jsonl')], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    expect(out.join('\n')).toMatch(/1 valid, 0 invalid, 0 warnings$/);
    expect(code).toBe(0);
  });
});
