import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { schemaProblems } from '../schemas';
import { ufoExecutionSchema } from '../testing/shared-fixtures';
import { recordTypeOf } from './record';
import { routeRecord, routeValue } from './route';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// UFO's own execution schema (the spec's copy, kept in fixtures/ufo), stricter than the published one about execution_result.error
const ufoExecution = new Ajv({ strict: false }).compile(
  JSON.parse(readFileSync(ufoExecutionSchema, 'utf8')) as object,
);

function instantiation(id: string | number, judge: boolean | null): Record<string, unknown> {
  return {
    unique_id: id,
    app: 'word',
    original: { original_task: 'Make the title bold', original_steps: ['Select the title', 'Click Bold'] },
    execution_result: { result: null, error: null },
    instantiation_result: {
      choose_template: { result: 'C:/templates/report.docx', error: null },
      prefill: {
        result: {
          instantiated_request: 'Make "Quarterly report" bold',
          instantiated_plan: [
            {
              Step: 1,
              Subtask: 'Select',
              ControlLabel: '3',
              ControlText: 'Quarterly report',
              Function: 'select_text',
              Args: { text: 'Quarterly report' },
            },
          ],
        },
        error: null,
      },
      instantiation_evaluation:
        judge === null
          ? {
              result: null,
              error: { type: 'TimeoutError', error_message: 'judge timed out', traceback: 'Traceback…' },
            }
          : { result: { judge, thought: 'ok', request_type: 'edit' }, error: null },
    },
    time_cost: { choose_template: 1.5, prefill: 3.2, instantiation_evaluation: 2.1, total: 6.8 },
  };
}

function execution(id: string | number, complete: unknown): Record<string, unknown> {
  const r = instantiation(id, true);
  // after execution each plan step records whether it ran and which control it matched (required by the schema)
  const prefill = (
    r.instantiation_result as { prefill: { result: { instantiated_plan: Array<Record<string, unknown>> } } }
  ).prefill;
  for (const step of prefill.result.instantiated_plan)
    Object.assign(step, { Success: true, MatchedControlText: 'Quarterly report' });
  r.execution_result = {
    result: { reason: 'title is bold', sub_scores: [{ name: 'bold applied', evaluation: 'yes' }], complete },
    error: null,
  };
  r.time_cost = { ...(r.time_cost as object), execute: 20.3, execute_eval: 4.4, total: 31.5 };
  return r;
}

let dir: string;
let out: string;
const put = async (name: string, record: unknown): Promise<string> => {
  const f = join(dir, name);
  await writeFile(f, JSON.stringify(record));
  return f;
};
const readJson = async (f: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(f, 'utf8'));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proctor-dataflow-'));
  out = join(dir, 'results');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('routeRecord', () => {
  it('files instantiation records by the judge: pass, fail, and fail when the judge gave no result', async () => {
    const pass = await routeRecord(await put('a.json', instantiation('a', true)), { out });
    const fail = await routeRecord(await put('b.json', instantiation('b', false)), { out });
    const none = await routeRecord(await put('c.json', instantiation('c', null)), { out });
    expect([pass.status, fail.status, none.status]).toEqual(['filed', 'filed', 'filed']);
    expect(pass.target).toBe(join(out, 'instantiation/instantiation_pass/a.json'));
    expect(fail.target).toBe(join(out, 'instantiation/instantiation_fail/b.json'));
    expect(none.target).toBe(join(out, 'instantiation/instantiation_fail/c.json'));
    // the code's error object is written in the schema's form (a string)
    const c = await readJson(none.target!);
    expect(
      (c.instantiation_result as { instantiation_evaluation: { error: unknown } }).instantiation_evaluation
        .error,
    ).toBe('TimeoutError: judge timed out\nTraceback…');
    expect(schemaProblems('ufo-instantiation', c, 'c')).toEqual([]);
  });

  it('reads a record whose execute time is null (all six time_cost keys written) as an instantiation record', async () => {
    const r = instantiation('n', true);
    r.time_cost = {
      choose_template: 1.5,
      prefill: 3.2,
      instantiation_evaluation: 2.1,
      execute: null,
      execute_eval: null,
      total: 6.8,
    };
    expect(recordTypeOf(r)).toBe('instantiation');
    const filed = await routeRecord(await put('n.json', r), { out });
    expect(filed.target).toBe(join(out, 'instantiation/instantiation_pass/n.json'));
    expect(recordTypeOf({ ...r, time_cost: { ...(r.time_cost as object), execute: 4.2 } })).toBe('execution');
  });

  it('files execution records by complete, and a complete outside yes/no/unsure as unsure with a warning', async () => {
    const targets: Record<string, string | undefined> = {};
    for (const [id, complete] of [
      ['y', 'yes'],
      ['n', 'no'],
      ['u', 'unsure'],
      ['cap', 'Yes'],
      ['odd', 'partially'],
    ] as const) {
      const o = await routeRecord(await put(`${id}.json`, execution(id, complete)), { out });
      expect(o.status).toBe('filed');
      targets[id] = o.target;
      const warned = o.problems.some((p) => p.severity === 'warning' && /filed as unsure/.test(p.message));
      expect(warned).toBe(id === 'cap' || id === 'odd');
    }
    expect(targets).toEqual({
      y: join(out, 'execution/execution_pass/y.json'),
      n: join(out, 'execution/execution_fail/n.json'),
      u: join(out, 'execution/execution_unsure/u.json'),
      cap: join(out, 'execution/execution_unsure/cap.json'),
      odd: join(out, 'execution/execution_unsure/odd.json'),
    });
  });

  it('files dataflow records under dataflow/ when asked, writing the schema form (string id, sub_scores object)', async () => {
    const o = await routeRecord(await put('d.json', execution(42, 'yes')), { out, type: 'dataflow' });
    expect(o.target).toBe(join(out, 'dataflow/execution_pass/42.json'));
    const written = await readJson(o.target!);
    expect(written.unique_id).toBe('42');
    expect((written.execution_result as { result: { sub_scores: unknown } }).result.sub_scores).toEqual({
      'bold applied': 'yes',
    });
    expect(schemaProblems('ufo-execution', written, 'd')).toEqual([]);
    expect((await readdir(join(out, 'dataflow/execution_pass'))).filter((f) => f.endsWith('.tmp'))).toEqual(
      [],
    );
  });

  it('refuses an invalid record and writes nothing', async () => {
    const bad = execution('bad', 'yes');
    delete bad.original;
    const o = await routeRecord(await put('bad.json', bad), { out });
    expect(o.status).toBe('invalid');
    expect(o.problems.map((p) => p.pointer)).toContain('/original');
    await expect(readdir(out)).rejects.toThrow();
  });

  it('never silently replaces a record already filed; --overwrite replaces it and removes the stale copy', async () => {
    const first = await routeRecord(await put('x1.json', execution('x', 'no')), { out });
    expect(first.target).toBe(join(out, 'execution/execution_fail/x.json'));
    const again = await routeRecord(await put('x2.json', execution('x', 'yes')), { out });
    expect(again.status).toBe('exists');
    expect(again.problems[0].message).toMatch(/already filed at .*execution_fail\/x\.json.*--overwrite/);
    expect(await readdir(join(out, 'execution'))).toEqual(['execution_fail']);
    const forced = await routeRecord(await put('x3.json', execution('x', 'yes')), { out, overwrite: true });
    expect(forced.status).toBe('filed');
    expect(await readdir(join(out, 'execution/execution_pass'))).toEqual(['x.json']);
    expect(await readdir(join(out, 'execution/execution_fail'))).toEqual([]);
  });
});

/** Every <type>/<bucket>/<name> file under `out` (claims and temp files excluded). */
async function filed(out: string): Promise<string[]> {
  const found: string[] = [];
  for (const type of await readdir(out).catch(() => [])) {
    for (const bucket of await readdir(join(out, type))) {
      if (bucket.startsWith('.')) continue;
      for (const f of await readdir(join(out, type, bucket)))
        if (!f.startsWith('.')) found.push(`${type}/${bucket}/${f}`);
    }
  }
  return found.sort();
}

describe('filing one unique_id exactly once', () => {
  it('files an id once when filers race in one process; the others are told where it is', async () => {
    for (let trial = 0; trial < 6; trial++) {
      const results = join(dir, `race-${trial}`);
      const outcomes = await Promise.all(
        ['yes', 'no', 'unsure', 'no'].map((c, i) =>
          routeValue(execution('dup', c), `r${i}.json`, { out: results }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'filed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.status === 'exists')).toHaveLength(3);
      const winner = outcomes.find((o) => o.status === 'filed')!;
      expect(await filed(results)).toEqual([winner.target!.slice(results.length + 1)]);
      for (const o of outcomes.filter((x) => x.status === 'exists')) expect(o.target).toBe(winner.target);
      expect(existsSync(join(results, 'execution', '.claims'))).toBe(false); // every claim released
    }
  });

  it('files an id once when two processes route the same ids at the same moment', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `id${i}`);
    for (const [side, complete] of [
      ['a', 'yes'],
      ['b', 'no'],
    ] as const) {
      await mkdir(join(dir, side));
      for (const id of ids)
        await writeFile(join(dir, side, `${id}.json`), JSON.stringify(execution(id, complete)));
    }
    const go = join(dir, 'go');
    // each process loads the router, then waits for the go file, so both file at once
    const script = `
      import { existsSync, readdirSync } from 'node:fs';
      import { join } from 'node:path';
      const { routeRecords } = await import(${JSON.stringify(join(projectRoot, 'src/main/dataflow/route.ts'))});
      const [side, out, go] = process.argv.slice(-3);
      const files = readdirSync(side).sort().map((f) => join(side, f));
      process.stdout.write('ready\\n');
      while (!existsSync(go)) await new Promise((r) => setTimeout(r, 1));
      const outcomes = await routeRecords(files, { out });
      process.stdout.write(JSON.stringify(outcomes.map((o) => o.status)) + '\\n');
    `;
    const racer = (side: string) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, join(dir, side), out, go],
        { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const ready = new Promise<void>((ok) => {
        child.stdout.on('data', () => stdout.includes('ready') && ok());
        child.on('close', () => ok());
      });
      const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((ok) =>
        child.on('close', (code) => ok({ code, stdout, stderr })),
      );
      return { ready, done };
    };
    const a = racer('a');
    const b = racer('b');
    await Promise.all([a.ready, b.ready]);
    await writeFile(go, '');
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    const statuses = [
      ...(JSON.parse(ra.stdout.split('\n')[1]) as string[]),
      ...(JSON.parse(rb.stdout.split('\n')[1]) as string[]),
    ];
    expect(statuses.filter((s) => s === 'filed')).toHaveLength(ids.length);
    expect(statuses.filter((s) => s === 'exists')).toHaveLength(ids.length);
    const all = await filed(out);
    expect(all).toHaveLength(ids.length); // each id in exactly one bucket
    expect(new Set(all.map((f) => f.split('/')[2])).size).toBe(ids.length);
  }, 120_000);
});

describe('a claim left by a killed filer', () => {
  it('is taken over when its process is gone, so the id can still be filed', async () => {
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    await mkdir(join(out, 'execution', '.claims'), { recursive: true });
    await writeFile(
      join(out, 'execution', '.claims', 'k.lock'),
      JSON.stringify({ pid: Number(dead), host: hostname(), nonce: 'x' }),
    );
    const o = await routeRecord(await put('k.json', execution('k', 'yes')), { out });
    expect(o.status).toBe('filed');
    expect(await filed(out)).toEqual(['execution/execution_pass/k.json']);
    expect(existsSync(join(out, 'execution', '.claims'))).toBe(false);
  });
});

describe('the filed form', () => {
  it('writes a string execution_result.error as {type, message, traceback}, valid for the published and UFO schemas', async () => {
    const r = execution('err', 'unsure');
    (r.execution_result as Record<string, unknown>).error = 'Traceback: control not found';
    const o = await routeRecord(await put('err.json', r), { out });
    expect(o.status).toBe('filed');
    const written = await readJson(o.target!);
    expect((written.execution_result as { error: unknown }).error).toEqual({
      type: 'Error',
      message: 'Traceback: control not found',
      traceback: '',
    });
    expect(schemaProblems('ufo-execution', written, 'err')).toEqual([]);
    expect(ufoExecution(written), JSON.stringify(ufoExecution.errors)).toBe(true);
    // the code's {type, error_message, traceback} form too
    const r2 = execution('err2', 'no');
    (r2.execution_result as Record<string, unknown>).error = {
      type: 'TimeoutError',
      error_message: 'timed out',
      traceback: 'tb',
    };
    const written2 = await readJson((await routeRecord(await put('err2.json', r2), { out })).target!);
    expect((written2.execution_result as { error: unknown }).error).toEqual({
      type: 'TimeoutError',
      message: 'timed out',
      traceback: 'tb',
    });
    expect(ufoExecution(written2), JSON.stringify(ufoExecution.errors)).toBe(true);
  });
});

describe('proctor dataflow route', () => {
  it('routes a folder of records, prints where each went, and exits 1 when one is refused', async () => {
    await put('r1.json', execution('r1', 'yes'));
    await put('r2.json', instantiation('r2', false));
    await put('r3.json', execution('r1', 'no')); // same unique_id as r1
    const lines: string[] = [];
    const code = await main(['dataflow', 'route', dir, '--out', out], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    expect(code).toBe(1);
    expect(lines.some((l) => /r1\.json -> .*execution\/execution_pass\/r1\.json$/.test(l))).toBe(true);
    expect(lines.some((l) => /r2\.json -> .*instantiation\/instantiation_fail\/r2\.json$/.test(l))).toBe(
      true,
    );
    expect(
      lines.some((l) => /r3\.json:\/unique_id: a record with unique_id 'r1' is already filed/.test(l)),
    ).toBe(true);
    expect(lines.at(-1)).toBe('3 records, 2 filed, 1 refused');
  });

  it('requires --out', async () => {
    const lines: string[] = [];
    const code = await main(['dataflow', 'route', dir], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    expect(code).toBe(2);
    expect(lines.join('\n')).toMatch(/--out <results folder> is required/);
  });
});
