// `proctor validate` on run folders the real store writes, and on the awkward things a folder may hold: FIFOs,
// symbolic links, `null` and very deep JSON, hostile manifests, assets outside the task, unusable summaries.
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../main';
import { shownPath } from '../command';
import { readRun, RunWriter, taskDirFor, taskKeyOf } from '../../store';
import { repoFixtures } from '../../testing/shared-fixtures';

const nativeRoot = repoFixtures.seedExamples;
const nativeId = '00b43a0a-b17b-475d-a482-302efe94d4cc';

async function proctor(...args: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await main(args, { out: (l) => out.push(...l.split('\n')), err: () => undefined });
  return { code, out };
}

/** A finished two-task run written through RunWriter / TaskWriter, with rule, judge and human verdicts. */
async function writeRun(out: string): Promise<{ runDir: string; taskDirs: string[] }> {
  const shape = { actionSpace: 'pyautogui', observation: 'screenshot', agent: 'oracle' } as const;
  const tasks = [
    { domain: 'terminal', id: 't1' },
    { domain: 'sqlite', id: 't2' },
  ];
  const taskInfo = Object.fromEntries(
    tasks.map((t) => [
      taskKeyOf(t),
      {
        dir: taskDirFor(shape, t.domain, t.id),
        instruction: `do ${t.id}`,
        app: t.domain,
        tags: ['cli'],
        difficulty: 'easy' as const,
      },
    ]),
  );
  const writer = await RunWriter.create(out, {
    ...shape,
    args: ['run'],
    tasks: Object.keys(taskInfo),
    taskInfo,
  });
  writer.event({
    kind: 'run.started',
    runId: writer.runId,
    at: new Date().toISOString(),
    tasks: Object.keys(taskInfo),
  });
  for (const t of tasks) {
    const key = taskKeyOf(t);
    const tw = writer.openTask(key);
    tw.started();
    await tw.recordStep(
      {
        step: 1,
        at: new Date().toISOString(),
        response: 'typing',
        actions: [
          { type: 'write', text: 'ls' },
          { type: 'press', keys: ['enter'] },
        ],
        timing: { agentMs: 1.5 },
      },
      undefined,
      { action: "pyautogui.write('ls')" },
    );
    await tw.recordStep(
      { step: 2, at: new Date().toISOString(), actions: [{ type: 'DONE' }], done: true },
      undefined,
      { action: 'DONE' },
    );
    writer.appendVerdict(key, {
      kind: 'rule',
      score: 1,
      metrics: [{ metric: 'compare_csv', score: 1 }],
      at: new Date().toISOString(),
    });
    writer.appendVerdict(key, {
      kind: 'judge',
      reason: 'done',
      subScores: [{ name: 'listed', evaluation: 'yes' }],
      complete: 'yes',
      model: 'm',
      options: {},
      at: new Date().toISOString(),
    });
    writer.appendVerdict(key, {
      kind: 'human',
      author: 'ann',
      complete: 'yes',
      steps: [{ step: 1, correct: true }],
      at: new Date().toISOString(),
    });
    await tw.finish('success', {
      taskFields: { id: t.id, snapshot: t.domain, instruction: `do ${t.id}` },
      results: {
        score: 1,
        eval_error: null,
        state: 'success',
        messages: [],
        total_tokens: 0,
        total_timing: 1,
        steps: 2,
      },
    });
  }
  writer.event({ kind: 'run.finished', runId: writer.runId, at: new Date().toISOString() });
  return { runDir: writer.runDir, taskDirs: tasks.map((t) => writer.taskDir(taskKeyOf(t))) };
}

async function editJson(file: string, change: (j: Record<string, unknown>) => void): Promise<void> {
  const j = JSON.parse(await readFile(file, 'utf8'));
  change(j);
  await writeFile(file, JSON.stringify(j, null, 2));
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proctor-validate-runs-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('proctor validate on a clean run folder', () => {
  it('finds every file valid, each .jsonl checked against its own run schema, exit 0 also with --strict', async () => {
    const { runDir, taskDirs } = await writeRun(join(dir, 'results'));
    // a file the grading fetched from the sandbox is the run's artefact, whatever it holds
    await mkdir(join(taskDirs[0], 'cache'));
    await writeFile(join(taskDirs[0], 'cache', 'settings.json'), '[1, 2]');
    const r = await proctor('validate', '--strict', join(dir, 'results'));
    expect(r.out.at(-1)).toEqual('10 files, 10 valid, 0 invalid, 0 warnings');
    expect(r.out.slice(0, -1)).toEqual([
      expect.stringMatching(
        /^not checked: 1 JSON file of no known kind or kept by a run \(.*cache\/settings\.json\)$/,
      ),
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse((await proctor('validate', '--json', runDir)).out.join('\n'));
    const kinds = (name: string) =>
      report.files
        .filter((f: { file: string }) => f.file.endsWith(name))
        .map((f: { kind: string }) => f.kind);
    expect(kinds('manifest.json')).toEqual(['run-manifest']);
    expect(kinds('events.jsonl')).toEqual(['run-event']);
    expect(kinds('steps.jsonl')).toEqual(['run-step', 'run-step']);
    expect(kinds('verdicts.jsonl')).toEqual(['run-verdict', 'run-verdict']);
    expect(kinds('traj.jsonl')).toEqual(['traj-line', 'traj-line']);
    expect(kinds('summary.json')).toEqual(['summary', 'summary']);
    // the writer stamps the format version; a manifest without one reads as version 1
    expect(JSON.parse(await readFile(join(runDir, 'manifest.json'), 'utf8')).formatVersion).toBe(1);
    await editJson(join(runDir, 'manifest.json'), (m) => delete m.formatVersion);
    expect((await proctor('validate', '--strict', runDir)).code).toBe(0);
  });

  it('names file, line and JSON pointer of a bad event, step or verdict line', async () => {
    const { runDir, taskDirs } = await writeRun(join(dir, 'results'));
    await appendFile(
      join(runDir, 'events.jsonl'),
      JSON.stringify({ kind: 'task.finished', runId: 'r', taskKey: 'a/b', at: 'now', state: 'bogus' }) + '\n',
    );
    await appendFile(
      join(taskDirs[0], 'steps.jsonl'),
      JSON.stringify({ step: 3, at: 'now', actions: [{ type: 'click', x: 'left' }] }) + '\n',
    );
    await appendFile(
      join(taskDirs[1], 'verdicts.jsonl'),
      JSON.stringify({
        kind: 'judge',
        reason: 'r',
        subScores: [],
        complete: 'maybe',
        model: 'm',
        at: 'now',
      }) + '\n',
    );
    const r = await proctor('validate', runDir);
    expect(r.code).toBe(1);
    const events = (await readFile(join(runDir, 'events.jsonl'), 'utf8')).trim().split('\n').length;
    expect(r.out).toContainEqual(
      expect.stringMatching(new RegExp(`events\\.jsonl:${events}:/state: must be one of "pending"`)),
    );
    expect(r.out).toContainEqual(
      expect.stringMatching(/t1\/steps\.jsonl:3:\/actions\/0\/x: must be number \(schema run-step\)$/),
    );
    expect(r.out).toContainEqual(
      expect.stringMatching(/t2\/verdicts\.jsonl:4:\/complete: must be one of "yes", "no", "unsure"/),
    );
    expect(r.out.at(-1)).toBe('10 files, 7 valid, 3 invalid, 0 warnings');
  });

  it('checks the manifest: types, a task folder outside the run, a newer format', async () => {
    const { runDir } = await writeRun(join(dir, 'results'));
    await editJson(join(runDir, 'manifest.json'), (m) => {
      m.agent = 3;
      m.tasks = 'terminal/t1';
      (m.taskInfo as Record<string, { dir: string }>)['terminal/t1'].dir = '../../etc';
      m.formatVersion = 2;
    });
    const r = await proctor('validate', join(runDir, 'manifest.json'));
    expect(r.code).toBe(1);
    expect(r.out).toContainEqual(expect.stringMatching(/manifest\.json:\/agent: must be string/));
    expect(r.out).toContainEqual(expect.stringMatching(/manifest\.json:\/tasks: must be array/));
    expect(r.out).toContainEqual(
      expect.stringMatching(
        /manifest\.json:\/taskInfo\/terminal~1t1\/dir: task folder '\.\.\/\.\.\/etc' is outside the run folder/,
      ),
    );
    expect(r.out).toContainEqual(
      expect.stringMatching(/manifest\.json:\/formatVersion: warning: run folder format 2 is newer/),
    );
    // the run reader reports the same manifest problems
    await editJson(join(runDir, 'manifest.json'), (m) => (m.tasks = ['terminal/t1']));
    expect(readRun(runDir).problems.some((p) => p.pointer === '/agent')).toBe(true);
  });

  it('reports a summary whose score is a string, in validate and in the run reader', async () => {
    const { runDir, taskDirs } = await writeRun(join(dir, 'results'));
    await editJson(join(taskDirs[0], 'summary.json'), (s) => {
      (s.results as Record<string, unknown>).score = '1';
      delete s.id;
      delete s.instruction;
    });
    const r = await proctor('validate', runDir);
    expect(r.code).toBe(1);
    expect(r.out).toContainEqual(
      expect.stringMatching(/t1\/summary\.json:\/results\/score: must be number,null/),
    );
    const problem = readRun(runDir).problems.find((p) => p.pointer === '/results/score');
    expect(problem).toMatchObject({ severity: 'error', file: join(taskDirs[0], 'summary.json') });
    expect(problem?.message).toMatch(/not "1"/);
  });
});

describe('proctor validate on awkward folders', () => {
  it('skips a FIFO named *.json and says so (a warning naming it; an error with --strict), instead of hanging', async () => {
    await mkdir(join(dir, 'tasks'));
    execFileSync('mkfifo', [join(dir, 'tasks', 'pipe.json')]);
    const r = await proctor('validate', join(dir, 'tasks'));
    expect(r.out).toContainEqual(
      expect.stringMatching(/pipe\.json: warning: a FIFO \(named pipe\): skipped/),
    );
    expect(r.code).toBe(0);
    expect((await proctor('validate', '--strict', join(dir, 'tasks', 'pipe.json'))).code).toBe(1);
  });

  it('says what a `null` file and a 100,000-deep file are, and fails them under --strict', async () => {
    await writeFile(join(dir, 'null.json'), 'null');
    const r = await proctor('validate', join(dir, 'null.json'));
    expect(r.out).toEqual([
      `${shownPath(join(dir, 'null.json'))}:/: warning: the file is null, not a JSON object, so not a file of any kind Proctor knows; not validated`,
      '1 file, 1 valid, 0 invalid, 1 warning',
    ]);
    expect((await proctor('validate', '--strict', join(dir, 'null.json'))).code).toBe(1);
    await writeFile(join(dir, 'deep.json'), '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000));
    await writeFile(
      join(dir, 'deep-task.json'),
      '{"id":"x","snapshot":"s","config":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}',
    );
    const deep = await proctor('validate', '--strict', dir);
    expect(deep.out).toContainEqual(
      expect.stringMatching(/deep\.json:\/: an object nested more than 200 levels deep/),
    );
    expect(deep.out).toContainEqual(
      expect.stringMatching(/deep-task\.json:\/: an object nested more than 200 levels deep/),
    );
    expect(deep.code).toBe(1);
  });

  it('follows a symlinked task folder inside the root, and names one that leaves it', async () => {
    await mkdir(join(dir, 'root/examples/jupyter'), { recursive: true });
    await mkdir(join(dir, 'elsewhere'));
    await cp(join(nativeRoot, 'jupyter', nativeId), join(dir, 'root/store', nativeId), { recursive: true });
    await symlink(join(dir, 'root/store', nativeId), join(dir, 'root/examples/jupyter', nativeId));
    await cp(join(nativeRoot, 'jupyter', nativeId), join(dir, 'elsewhere', 'other'), { recursive: true });
    await symlink(join(dir, 'elsewhere', 'other'), join(dir, 'root/examples/jupyter/other'));
    const r = await proctor('validate', join(dir, 'root'));
    expect(r.out).toContainEqual(
      `${shownPath(join(dir, 'root/examples/jupyter/other'))}: warning: symbolic link to a folder outside the folder being read: not followed`,
    );
    expect(r.out.at(-1)).toMatch(/^2 files, 2 valid, 0 invalid/); // the task read once (through the link) and the note
    expect(r.out.some((l) => l.includes(`jupyter/${nativeId}/${nativeId}.json:/counterpart`))).toBe(true); // read through the link
  });

  it('--check-assets reports a local_path that leaves the task folder', async () => {
    const task = join(dir, 'examples/jupyter', nativeId);
    await cp(join(nativeRoot, 'jupyter', nativeId), task, { recursive: true });
    await writeFile(join(dir, 'secret.sh'), '#!/bin/sh\n');
    await writeFile(join(task, 'init.sh'), '#!/bin/sh\n');
    await editJson(join(task, `${nativeId}.json`), (j) => {
      (j.config as Array<{ arguments: Record<string, string> }>)[4].arguments.local_path =
        '../../../secret.sh';
    });
    const r = await proctor('validate', '--check-assets', task);
    expect(r.code).toBe(1);
    expect(r.out).toContainEqual(
      expect.stringMatching(
        /:\/config\/4\/arguments\/local_path: referenced file .*secret\.sh is outside .*: a task may only use files inside its own folder/,
      ),
    );
  });
});

describe('the run reader on a very deep manifest', () => {
  it('refuses it with an error naming the manifest and the nesting, rather than crashing', async () => {
    const { runDir } = await writeRun(join(dir, 'results'));
    await editJson(join(runDir, 'manifest.json'), (m) => (m.extra = 'DEEP'));
    const text = await readFile(join(runDir, 'manifest.json'), 'utf8');
    await writeFile(
      join(runDir, 'manifest.json'),
      text.replace('"DEEP"', '['.repeat(100_000) + ']'.repeat(100_000)),
    );
    // The bounded reader refuses it before parsing (the UI lists the run with this as its problem).
    expect(() => readRun(runDir)).toThrow(/manifest\.json: .*nest/);
    expect((await proctor('validate', join(runDir, 'manifest.json'))).out[0]).toMatch(
      /manifest\.json:\/: a list nested|manifest\.json:\/: an object nested/,
    );
  });
});
