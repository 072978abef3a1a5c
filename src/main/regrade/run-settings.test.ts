// `proctor eval` and `proctor bundle` read a run's own --grading-profile and --downloads from its run-plan.json
// first, and from the command line its manifest keeps for a run written before plans were stored: a run started
// under spider2v is re-graded under spider2v without the flag, and its bundle says so.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentTurn } from '../agents/agent';
import { main } from '../cli/main';
import type { Environment } from '../env/environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { runTasks } from '../runner/scheduler';
import { RUN_PLAN_FILE } from '../store/run-plan';
import { writeBundle } from '../share/bundle';
import { verifyBundle } from '../share/verify';
import { loadTasks } from '../tasks/reader';
import { regradeRun } from './regrade';

const ID = '6f2d1b8c-4e3a-4b7f-9c0d-1e2f3a4b5c6d';
const GOLD_URL = 'https://files.example.invalid/gold/totals.csv';

let root: string;
let runDir: string;
let downloads: string;
let other: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proctor-regrade-settings-'));
  downloads = join(root, 'downloads');
  other = join(root, 'other-downloads');
  mkdirSync(downloads);
  mkdirSync(other);
  writeFileSync(join(downloads, 'totals.csv'), 'region,total\nEast,10\n');
  writeFileSync(join(other, 'totals.csv'), 'region,total\nEast,99\n'); // a gold the answer does not match
  const dir = join(root, 'tasks', 'os', ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${ID}.json`),
    JSON.stringify({
      id: ID,
      snapshot: 'os',
      instruction: 'Write the totals table.',
      source: 'proctor test',
      related_apps: ['os'],
      evaluator: {
        func: 'compare_csv',
        result: { type: 'vm_file', path: '/home/user/totals.csv', dest: 'totals.csv' },
        expected: { type: 'cloud_file', path: GOLD_URL, dest: 'gold.csv' },
      },
    }),
  );
  const { tasks } = await loadTasks([join(root, 'tasks')]);
  expect(tasks[0].shape).toBe('osworld');
  let env: Environment | undefined;
  const agent: Agent = {
    name: 'scripted',
    async start() {},
    async next(_obs, step): Promise<AgentTurn> {
      if (step === 1) {
        await env!.putFile('/home/user/totals.csv', Buffer.from('region,total\nEast,10\n'));
        return { response: 'wrote it', actions: [{ type: 'WAIT' }] };
      }
      return { response: 'DONE', actions: [{ type: 'DONE' }] };
    },
  };
  const outcome = await runTasks(tasks, {
    agent: () => agent,
    agentName: 'scripted',
    outDir: join(root, 'results'),
    waitMs: 1,
    downloads,
    gradingProfile: 'spider2v',
    args: ['run', join(root, 'tasks'), '--downloads', downloads, '--grading-profile', 'spider2v'],
    parts: {
      async createEnvironment(r) {
        env = await createShellEnvironment({ home: r.home });
        return env;
      },
    },
  });
  expect(outcome.tasks.map((t) => [t.state, t.score])).toEqual([['success', 1]]);
  runDir = outcome.runDir;
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

const planFile = () => join(runDir, RUN_PLAN_FILE);
const readPlan = () => JSON.parse(readFileSync(planFile(), 'utf8')) as Record<string, unknown>;
const manifestFile = () => join(runDir, 'manifest.json');

async function evalJson(...args: string[]): Promise<{
  code: number;
  json: {
    profile: string | null;
    profileFrom?: string;
    tasks: { newScore: number; verdict: { profile?: string } }[];
  };
  err: string;
}> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['eval', runDir, '--json', ...args], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, json: code === 0 ? JSON.parse(out.join('\n')) : undefined, err: err.join('\n') };
}

describe("re-grading and bundling under the run's own settings", () => {
  it('re-grades a run whose plan says spider2v under spider2v without the flag; the flag still wins', async () => {
    expect(readPlan().gradingProfile).toBe('spider2v');
    const r = await evalJson();
    expect(r.code, r.err).toBe(0);
    expect(r.json.profile).toBe('spider2v');
    expect(r.json.profileFrom).toBe('plan');
    expect(r.json.tasks[0].verdict.profile).toBe('spider2v');
    expect(r.json.tasks[0].newScore).toBe(1);
    const given = await evalJson('--grading-profile', 'osworld');
    expect(given.json.tasks[0].verdict.profile).toBe('osworld');
    expect(given.json.profileFrom).toBe('option');
    const lines: string[] = [];
    expect(await main(['eval', runDir], { out: (l) => lines.push(l), err: (l) => lines.push(l) })).toBe(0);
    expect(lines.join('\n')).toMatch(
      /re-graded from stored artefacts under spider2v \(the run's run-plan\.json\)/,
    );
  });

  it('reads --downloads and the profile from the plan before the stored command line', async () => {
    const saved = readFileSync(planFile(), 'utf8');
    try {
      // the plan and the command line disagree: the plan is read
      writeFileSync(
        planFile(),
        JSON.stringify({ ...readPlan(), downloads: other, gradingProfile: 'native' }),
      );
      const r = await regradeRun(runDir);
      expect(r.profile).toBe('native');
      expect(r.rows[0].verdict?.profile).toBe('native');
      expect(r.rows[0].newScore).toBe(0); // the other folder's gold
    } finally {
      writeFileSync(planFile(), saved);
    }
  });

  it("an older run (no plan) is read from its stored command line, --name=value too; with neither, each task's own", async () => {
    const savedPlan = readFileSync(planFile(), 'utf8');
    const savedManifest = readFileSync(manifestFile(), 'utf8');
    try {
      rmSync(planFile());
      const old = await regradeRun(runDir);
      expect(old).toMatchObject({ profile: 'spider2v', profileFrom: 'args' });
      expect(old.rows[0]).toMatchObject({ newScore: 1 });
      const manifest = JSON.parse(savedManifest) as Record<string, unknown>;
      writeFileSync(
        manifestFile(),
        JSON.stringify({
          ...manifest,
          args: ['run', 'tasks', `--downloads=${other}`, '--grading-profile=native'],
        }),
      );
      const eq = await regradeRun(runDir);
      expect(eq.profile).toBe('native');
      expect(eq.rows[0].newScore).toBe(0);
      writeFileSync(manifestFile(), JSON.stringify({ ...manifest, args: ['run', 'tasks'] }));
      const none = await regradeRun(runDir);
      expect(none.profile).toBeUndefined();
      expect(none.rows[0].verdict?.profile).toBe('osworld'); // the task's own benchmark
    } finally {
      writeFileSync(planFile(), savedPlan);
      writeFileSync(manifestFile(), savedManifest);
    }
  });

  it('a damaged plan is an error naming the file and the field, not a silent fallback', async () => {
    const saved = readFileSync(planFile(), 'utf8');
    try {
      writeFileSync(planFile(), JSON.stringify({ ...readPlan(), gradingProfile: 'strict' }));
      await expect(regradeRun(runDir)).rejects.toThrow(
        `${planFile()}: /gradingProfile: one of spider2v, osworld, native expected`,
      );
    } finally {
      writeFileSync(planFile(), saved);
    }
  });

  it("the bundle's environment.json names the plan's grading profile (and the stored command line's for an older run)", async () => {
    const report = async () => ({ text: 'report\n', json: '{}\n' });
    const envOf = (bundle: string) =>
      JSON.parse(execFileSync('tar', ['-xzOf', bundle, 'environment.json'], { encoding: 'utf8' })) as {
        run: { gradingProfileFlag?: string };
      };
    const savedManifest = readFileSync(manifestFile(), 'utf8');
    try {
      // the command line says nothing: the plan still tells
      writeFileSync(
        manifestFile(),
        JSON.stringify({ ...(JSON.parse(savedManifest) as object), args: ['run', 'tasks'] }),
      );
      const a = join(root, 'a.proctor.tar.gz');
      await writeBundle(runDir, a, { report });
      expect(envOf(a).run.gradingProfileFlag).toBe('spider2v');
      const savedPlan = readFileSync(planFile(), 'utf8');
      rmSync(planFile());
      writeFileSync(
        manifestFile(),
        JSON.stringify({
          ...(JSON.parse(savedManifest) as object),
          args: ['run', 'tasks', '--grading-profile=osworld'],
        }),
      );
      const b = join(root, 'b.proctor.tar.gz');
      await writeBundle(runDir, b, { report });
      writeFileSync(planFile(), savedPlan);
      expect(envOf(b).run.gradingProfileFlag).toBe('osworld');
    } finally {
      writeFileSync(manifestFile(), savedManifest);
    }
  });
});

describe('a native task graded under spider2v, where the two profiles disagree', () => {
  let nativeRoot: string;
  let nativeRun: string;
  beforeAll(async () => {
    nativeRoot = mkdtempSync(join(tmpdir(), 'proctor-regrade-profile-'));
    const dir = join(nativeRoot, 'tasks', 'cli', 'quoted');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'gold.csv'), 'region,total\nEast,13\n');
    writeFileSync(
      join(dir, 'quoted.json'),
      JSON.stringify({
        id: 'quoted',
        snapshot: 'os',
        instruction: 'Write the totals',
        source: ['https://example.org'],
        related_apps: ['os'],
        tags: ['cli', 'traditional_data_processing', 'abstract'],
        action_number: 2,
        config: [],
        evaluation: {
          func: 'compare_csv',
          arguments: { local_expected: 'gold.csv', vm_result: '/home/user/out.csv' },
        },
      }),
    );
    const { tasks } = await loadTasks([join(nativeRoot, 'tasks')]);
    expect(tasks[0].shape).toBe('native');
    let env: Environment | undefined;
    const agent: Agent = {
      name: 'scripted',
      async start() {},
      async next(_obs, step): Promise<AgentTurn> {
        if (step === 1) {
          // quoted cells: Spider2-V compares text lines (0), the native format reads them with pandas (1)
          await env!.putFile('/home/user/out.csv', Buffer.from('"region","total"\n"East","13"\n'));
          return { response: 'wrote it', actions: [{ type: 'WAIT' }] };
        }
        return { response: 'DONE', actions: [{ type: 'DONE' }] };
      },
    };
    const outcome = await runTasks(tasks, {
      agent: () => agent,
      agentName: 'scripted',
      outDir: join(nativeRoot, 'results'),
      waitMs: 1,
      gradingProfile: 'spider2v',
      args: ['run', join(nativeRoot, 'tasks'), '--grading-profile', 'spider2v'],
      parts: {
        async createEnvironment(r) {
          env = await createShellEnvironment({ home: r.home });
          return env;
        },
      },
    });
    expect(outcome.tasks.map((t) => t.score)).toEqual([0]);
    nativeRun = outcome.runDir;
  }, 120_000);
  afterAll(() => rmSync(nativeRoot, { recursive: true, force: true }));

  it("eval keeps the run's score under its own profile; the task's own profile is one flag away", async () => {
    const own = await regradeRun(nativeRun);
    expect(own.rows[0]).toMatchObject({ newScore: 0, changed: false });
    const native = await regradeRun(nativeRun, { profile: 'native' });
    expect(native.rows[0]).toMatchObject({ newScore: 1, changed: true });
  });

  it('verify re-grades a bundle under the profile the run graded with: no false mismatch', async () => {
    const bundle = join(nativeRoot, 'run.proctor.tar.gz');
    await writeBundle(nativeRun, bundle, { report: async () => ({ text: 'report\n', json: '{}\n' }) });
    const r = await verifyBundle(bundle);
    expect(r.mismatches).toEqual([]);
    expect(r.ok).toBe(true);
  });
});
