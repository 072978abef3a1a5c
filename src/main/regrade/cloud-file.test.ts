// `proctor eval` of an OSWorld-shaped task whose gold comes from `cloud_file`: read again from the run's own
// --downloads folder (a changed gold counts), from another folder given with --downloads, or — when no folder is
// left — from the copy the run's grading kept; never "needs the live environment".
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentTurn } from '../agents/agent';
import { main } from '../cli/main';
import type { Environment } from '../env/environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { runTasks } from '../runner/scheduler';
import { loadTasks } from '../tasks/reader';
import { regradeRun } from './regrade';

const ID = '5e1c0a7b-3d2f-4a6e-8b9c-0d1e2f3a4b5c';
const GOLD_URL = 'https://files.example.invalid/gold/sales%20gold.csv';

let root: string;
let runDir: string;
let downloads: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proctor-regrade-cloud-'));
  downloads = join(root, 'downloads');
  mkdirSync(downloads);
  writeFileSync(join(downloads, 'sales gold.csv'), 'region,total\nEast,10\n');
  const dir = join(root, 'tasks', 'os', ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${ID}.json`),
    JSON.stringify({
      id: ID,
      snapshot: 'os',
      instruction: 'Write the sales table.',
      source: 'proctor test',
      related_apps: ['os'],
      evaluator: {
        func: 'compare_csv',
        result: { type: 'vm_file', path: '/home/user/sales.csv', dest: 'sales.csv' },
        expected: { type: 'cloud_file', path: GOLD_URL, dest: 'gold.csv' },
      },
    }),
  );
  const { tasks } = await loadTasks([join(root, 'tasks')]);
  let env: Environment | undefined;
  const agent: Agent = {
    name: 'scripted',
    async start() {},
    async next(_obs, step): Promise<AgentTurn> {
      if (step === 1) {
        await env!.putFile('/home/user/sales.csv', Buffer.from('region,total\nEast,10\n'));
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
    args: ['run', join(root, 'tasks'), '--downloads', downloads],
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

describe('proctor eval with cloud_file golds', () => {
  it("reads the gold again from the run's own downloads folder: a changed gold counts", async () => {
    const same = await regradeRun(runDir, { now: new Date('2026-11-23T01:00:00Z') });
    expect(same.rows[0]).toMatchObject({ newScore: 1, changed: false, liveChecks: [] });
    writeFileSync(join(downloads, 'sales gold.csv'), 'region,total\nEast,11\n');
    const changed = await regradeRun(runDir, { now: new Date('2026-11-23T01:01:00Z') });
    expect(changed.rows[0]).toMatchObject({ newScore: 0, changed: true, liveChecks: [] });
  });

  it('--downloads names another folder; a URL it lacks is named in the verdict', async () => {
    const other = join(root, 'other');
    mkdirSync(other);
    const out: string[] = [];
    const code = await main(['eval', runDir, '--downloads', other, '--json'], {
      out: (l) => out.push(l),
      err: () => undefined,
    });
    expect(code).toBe(0);
    const row = (JSON.parse(out.join('\n')) as { tasks: { newScore: number; verdict: { reason: string } }[] })
      .tasks[0];
    expect(row.newScore).toBe(0);
    expect(row.verdict.reason).toContain(`no file for ${GOLD_URL} in the downloads folder`);
    expect(
      await main(['eval', runDir, '--downloads', join(root, 'nowhere')], {
        out: () => undefined,
        err: () => undefined,
      }),
    ).toBe(2);
  });

  it('without any downloads folder, re-grades from the copy the run kept', async () => {
    rmSync(downloads, { recursive: true, force: true });
    const r = await regradeRun(runDir, { now: new Date('2026-11-23T01:02:00Z') });
    expect(r.rows[0]).toMatchObject({ newScore: 1, liveChecks: [] });
  });
});
