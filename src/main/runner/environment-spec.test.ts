// The run's environment spec: checked before the run folder is made, given to the environments registry for
// every task, kept in the manifest without its secrets, and used again by --resume (unless one is given).
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent, AgentTurn } from '../agents/agent';
import type { Environment } from '../env/environment';
import { environmentKinds, EnvSpecError } from '../env/kinds';
import { createShellEnvironment } from '../env/local/shell-environment';
import { readManifest } from '../store/run-writer';
import { defaultParts } from './parts';
import { resumeRun, runTasks } from './scheduler';

/** Specs the `spec-probe` kind was asked for, and the environment it last made. */
const asked: string[] = [];
let last: Environment | undefined;
if (!environmentKinds.has('spec-probe'))
  environmentKinds.register('spec-probe', {
    summary: 'spec-probe://…   a shell environment (environment-spec.test.ts)',
    // stands for a machine reached by URL with a screen, as osworld's are (the run's default observation is a
    // screenshot); the test's environments are shell environments, which the runner observes as feedback only
    capabilities: { provides: ['screenshot', 'input', 'shell', 'files'], runsOn: 'other-machine' },
    check(spec) {
      if (!spec.url) throw new EnvSpecError(`'${spec.text}': spec-probe takes a URL`);
    },
    async create(spec, request) {
      asked.push(spec.text);
      last = await createShellEnvironment({ home: request.home });
      return last;
    },
  });

function writeTask(root: string, id: string): void {
  const dir = join(root, 'cli', id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gold.txt'), 'done\n');
  writeFileSync(
    join(dir, `${id}.json`),
    JSON.stringify({
      id,
      snapshot: 'os',
      instruction: 'Write done to ~/answer.txt',
      source: ['https://example.org'],
      related_apps: ['os'],
      config: [],
      evaluation: {
        func: 'compare_text_file',
        arguments: { local_expected: 'gold.txt', vm_result: '/home/user/answer.txt' },
      },
    }),
  );
}

/** Writes the answer through the environment the kind last made, then says DONE. */
const writer = (): Agent => ({
  name: 'writer',
  async start() {},
  async next(_obs, step): Promise<AgentTurn> {
    if (step === 1) {
      await last!.putFile('/home/user/answer.txt', Buffer.from('done\n'));
      return { response: 'wrote it', actions: [{ type: 'WAIT' }] };
    }
    return { response: 'DONE', actions: [{ type: 'DONE' }] };
  },
});

describe('the environment spec of a run', () => {
  it('reaches the registry, is stored without its token, and --resume uses it again', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-envspec-'));
    writeTask(root, 't1');
    const { tasks } = await (await defaultParts()).loadTasks([root]);

    await expect(
      runTasks(tasks, { agent: writer, agentName: 'writer', outDir: join(root, 'bad'), env: 'lokal' }),
    ).rejects.toThrow(/unknown environment kind 'lokal'/);
    expect(existsSync(join(root, 'bad'))).toBe(false);

    // Stopped before any task ran: the run folder and its manifest exist, the task is pending.
    const stop = new AbortController();
    stop.abort();
    const stopped = await runTasks(tasks, {
      agent: writer,
      agentName: 'writer',
      outDir: join(root, 'results'),
      env: 'spec-probe://guest:5000?token=s3cret',
      signal: stop.signal,
    });
    expect(stopped.tasks.map((t) => t.state)).toEqual(['pending']);
    expect(asked).toEqual([]);
    const manifest = readManifest(stopped.runDir);
    expect(manifest.env).toBe('spec-probe://guest:5000');
    expect(JSON.stringify(manifest)).not.toMatch(/s3cret/);

    const resumed = await resumeRun(stopped.runDir, { agent: writer, waitMs: 1 });
    expect(asked).toEqual(['spec-probe://guest:5000']);
    expect(resumed.tasks.map((t) => [t.state, t.score])).toEqual([['success', 1]]);
  });

  it('given again on --resume, replaces the stored one (a token comes back that way)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-envspec-'));
    writeTask(root, 't2');
    const { tasks } = await (await defaultParts()).loadTasks([root]);
    const stop = new AbortController();
    stop.abort();
    const stopped = await runTasks(tasks, {
      agent: writer,
      agentName: 'writer',
      outDir: join(root, 'results'),
      env: 'spec-probe://guest:5000?token=s3cret',
      signal: stop.signal,
    });
    asked.length = 0;
    await resumeRun(stopped.runDir, {
      agent: writer,
      waitMs: 1,
      env: 'spec-probe://guest:5000?token=s3cret',
    });
    expect(asked).toEqual(['spec-probe://guest:5000?token=s3cret']);
  });
});
