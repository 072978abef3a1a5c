// One screen size for every way of starting a run: DEFAULT_SCREEN unless the command, the environment spec or the
// task set (task-set.json, read by the task loader) says otherwise; the size reaches the environment and the manifest.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCREEN, parseScreen } from '../../shared/screen';
import type { Task } from '../../shared/task';
import type { Agent } from '../agents/agent';
import { createShellEnvironment } from '../env/local/shell-environment';
import type { RunManifest } from '../store/layout';
import { manifestProblems } from '../store/manifest-check';
import { readRun } from '../store/reader';
import { loadTasks } from '../tasks/reader';
import { TASK_SET_FILE } from '../tasks/task-set';
import type { RunnerParts } from './parts';
import { resumeRun, runTasks } from './scheduler';
import { runScreens, screenFor } from './screen';

function writeTask(root: string, domain: string, id: string): void {
  const dir = join(root, domain, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${id}.json`),
    JSON.stringify({
      id,
      snapshot: 'os',
      instruction: `Task ${id}`,
      source: ['https://example.org'],
      related_apps: ['os'],
      tags: ['cli', 'abstract'],
      config: [],
      evaluation: { func: 'infeasible' },
    }),
  );
}

const done: () => Agent = () => ({
  name: 'done',
  async start() {},
  async next() {
    return { response: 'DONE', actions: [{ type: 'DONE' }] };
  },
});

/** Shell environments that remember the screen size each was asked for. */
function sizes() {
  const asked: string[] = [];
  const parts: Partial<RunnerParts> = {
    async createEnvironment(r) {
      asked.push(`${r.width}x${r.height}`);
      return createShellEnvironment({ home: r.home });
    },
  };
  return { asked, parts };
}

const manifestOf = (runDir: string) =>
  JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as RunManifest;

describe('screen sizes', () => {
  it('the bundled demo declares 1280×800 for its task set, and the loader gives it to every demo task', async () => {
    const { tasks, problems } = await loadTasks([resolve('resources/demo')]);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(tasks.length).toBeGreaterThanOrEqual(7);
    expect(tasks.every((t) => t.screen?.width === 1280 && t.screen.height === 800)).toBe(true);
  });

  it('a run of tasks without a declaration uses DEFAULT_SCREEN (1920×1080), asks the environment for it and records it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-screen-'));
    writeTask(root, 'cli', 'plain');
    const { tasks } = await loadTasks([root]);
    expect(tasks[0].screen).toBeUndefined();
    const s = sizes();
    const out = await runTasks(tasks, {
      agent: () => done(),
      agentName: 'done',
      outDir: join(root, 'results'),
      parts: s.parts,
      waitMs: 1,
    });
    expect(s.asked).toEqual(['1920x1080']);
    expect(DEFAULT_SCREEN).toEqual({ width: 1920, height: 1080 });
    const m = manifestOf(out.runDir);
    expect(m.screen).toEqual({ width: 1920, height: 1080 });
    expect(manifestProblems(m, join(out.runDir, 'manifest.json'), { runDir: out.runDir })).toEqual([]);
    expect(readRun(out.runDir).run.screen).toEqual({ width: 1920, height: 1080 }); // shown in the run's facts
  });

  it("a declared task set runs at its size however started, --screen overrides it, and a mixed run records each task's own", async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-screen-'));
    writeTask(join(root, 'small'), 'cli', 'd1');
    writeFileSync(join(root, 'small', TASK_SET_FILE), '{"screen": "1280x800"}');
    writeTask(join(root, 'big'), 'cli', 'p1');
    writeTask(join(root, 'big'), 'cli', 'p2');
    const { tasks, problems } = await loadTasks([root]);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    const byId = (id: string) => tasks.find((t) => t.id === id)!;
    expect(byId('d1').screen).toEqual({ width: 1280, height: 800 });

    let s = sizes();
    let out = await runTasks([byId('d1')], {
      agent: () => done(),
      agentName: 'done',
      outDir: join(root, 'r'),
      parts: s.parts,
      waitMs: 1,
    });
    expect(s.asked).toEqual(['1280x800']);
    expect(manifestOf(out.runDir).screen).toEqual({ width: 1280, height: 800 });

    s = sizes();
    out = await runTasks([byId('d1')], {
      agent: () => done(),
      agentName: 'done',
      outDir: join(root, 'r'),
      parts: s.parts,
      waitMs: 1,
      screen: { width: 1024, height: 768 },
    });
    expect(s.asked).toEqual(['1024x768']);
    expect(manifestOf(out.runDir).screen).toEqual({ width: 1024, height: 768 });

    s = sizes();
    const sorted = [byId('d1'), byId('p1'), byId('p2')];
    out = await runTasks(sorted, {
      agent: () => done(),
      agentName: 'done',
      outDir: join(root, 'r'),
      parts: s.parts,
      waitMs: 1,
    });
    expect(s.asked).toEqual(['1280x800', '1920x1080', '1920x1080']);
    const m = manifestOf(out.runDir);
    expect(m.screen).toEqual({ width: 1920, height: 1080 });
    expect(m.taskInfo!['cli/d1'].screen).toEqual({ width: 1280, height: 800 });
    expect(m.taskInfo!['cli/p1'].screen).toBeUndefined();
    expect(manifestProblems(m, join(out.runDir, 'manifest.json'), { runDir: out.runDir })).toEqual([]);
  });

  it('a resumed run keeps the screen it was started with', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-screen-'));
    writeTask(root, 'cli', 'r1');
    writeTask(root, 'cli', 'r2');
    const { tasks } = await loadTasks([root]);
    const stop = new AbortController();
    const first = sizes();
    const out = await runTasks(tasks, {
      agent: () => done(),
      agentName: 'done',
      outDir: join(root, 'r'),
      parts: first.parts,
      waitMs: 1,
      screen: { width: 1024, height: 768 },
      signal: stop.signal,
      onEvent: (e) => {
        if (e.kind === 'task.finished') stop.abort();
      },
    });
    const again = sizes();
    await resumeRun(out.runDir, { agent: () => done(), parts: again.parts, waitMs: 1 });
    expect(first.asked).toEqual(['1024x768']);
    expect(again.asked).toEqual(['1024x768']);
  });

  it('a size in a local environment spec wins; a bad declaration is a problem naming its file', async () => {
    const t = { screen: { width: 1280, height: 800 } } as Pick<Task, 'screen'>;
    expect(screenFor(t, { env: 'local:1600x900', screen: { width: 1024, height: 768 } })).toEqual({
      width: 1600,
      height: 900,
    });
    expect(screenFor(t, { env: 'local' })).toEqual({ width: 1280, height: 800 });
    expect(screenFor({}, { env: 'osworld://h:5000' })).toEqual(DEFAULT_SCREEN);
    expect(runScreens([], {}).screen).toEqual(DEFAULT_SCREEN);
    expect(parseScreen('1280×800')).toEqual({ width: 1280, height: 800 });
    expect(parseScreen('10x10')).toBeUndefined();

    const root = mkdtempSync(join(tmpdir(), 'proctor-screen-'));
    writeTask(root, 'cli', 'bad');
    writeFileSync(join(root, TASK_SET_FILE), '{"screen": "big"}');
    const { problems } = await loadTasks([root]);
    const p = problems.find((x) => x.severity === 'error');
    expect(p?.message).toContain(join(root, TASK_SET_FILE));
    expect(p?.message).toContain('WIDTHxHEIGHT');
  });
});
