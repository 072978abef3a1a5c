// Setup funcs on a real sandbox home (the headless shell environment), a real HTTP server and a real Chromium.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSetupSteps, setupFuncs, accountSetupFuncNames, SetupError } from './index';
import { createShellEnvironment, type ShellEnvironment } from '../env/local/shell-environment';
import { NeedsAccountError } from '../errors';
import type { SetupStep, Task } from '../../shared/task';
import type { SetupStepTiming } from '../../shared/run';

let env: ShellEnvironment;
let taskDir: string;
const task = { id: 't1' } as Task;
const step = (func: string, args: Record<string, unknown>, i = 0): SetupStep => ({
  func,
  args,
  pointer: `/config/${i}`,
});

beforeEach(async () => {
  env = await createShellEnvironment();
  taskDir = mkdtempSync(join(tmpdir(), 'proctor-task-'));
});
afterEach(async () => {
  await env.close();
  rmSync(taskDir, { recursive: true, force: true });
});

describe('setup steps on a sandbox home', () => {
  it('copies Spider2-V assets from beside the task and runs scripts with guest paths', async () => {
    writeFileSync(join(taskDir, 'data.csv'), 'a,b\n1,2\n');
    writeFileSync(
      join(taskDir, 'init.sh'),
      'mkdir -p /home/user/projects && cp /home/user/Desktop/data.csv /home/user/projects/copy.csv && echo done > ~/flag.txt\n',
    );
    await runSetupSteps(
      [
        step(
          'copyfile_from_host_to_guest',
          { src: 'evaluation_examples/examples/jupyter/abc/data.csv', dest: '/home/user/Desktop/data.csv' },
          0,
        ),
        step(
          'script_and_execute',
          { src: 'evaluation_examples/examples/jupyter/abc/init.sh', dest: '/home/user/init.sh' },
          1,
        ),
        step('execute', { command: ['bash', '-c', 'echo hi > /tmp/hi.txt'], stdout: 'out.log' }, 2),
        step('command', { command: 'echo cmd >> /home/user/flag.txt', shell: true }, 3),
        step('sleep', { seconds: 0.05 }, 4),
      ],
      env,
      { taskDir, task },
    );
    expect(readFileSync(join(env.home.root, 'projects/copy.csv'), 'utf8')).toBe('a,b\n1,2\n');
    expect(readFileSync(join(env.home.root, 'flag.txt'), 'utf8')).toBe('done\ncmd\n');
    expect((await env.getFile('/tmp/hi.txt'))?.toString()).toBe('hi\n');
  });

  it('runs the native upload funcs with paths relative to the task folder', async () => {
    writeFileSync(join(taskDir, 'nb.ipynb'), '{"cells":[]}');
    writeFileSync(join(taskDir, 'setup.sh'), 'echo ran > /home/user/ran.txt\n');
    await runSetupSteps(
      [
        step('upload_file_to_vm', { local_path: 'nb.ipynb', remote_path: '/home/user/work/nb.ipynb' }),
        step(
          'upload_script_and_execute',
          { local_path: './setup.sh', remote_path: '/home/user/setup.sh' },
          1,
        ),
      ],
      env,
      { taskDir, task },
    );
    expect(readFileSync(join(env.home.root, 'work/nb.ipynb'), 'utf8')).toBe('{"cells":[]}');
    expect(readFileSync(join(env.home.root, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it('refuses a destination that escapes the sandbox, naming the step', async () => {
    writeFileSync(join(taskDir, 'x.txt'), 'x');
    const err = await runSetupSteps(
      [step('copyfile_from_host_to_guest', { src: 'x.txt', dest: '/etc/cron.d/evil' }, 3)],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect(err).toMatchObject({ pointer: '/config/3', func: 'copyfile_from_host_to_guest' });
    expect(err.message).toMatch(/\/config\/3.*refused/s);
    const up = await runSetupSteps(
      [step('upload_file_to_vm', { local_path: '../../etc/passwd', remote_path: '/home/user/p' })],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(up.message).toMatch(/outside the task folder/);
  });

  it('says clearly when a task asset is missing', async () => {
    const err = await runSetupSteps(
      [
        step('copyfile_from_host_to_guest', {
          src: 'evaluation_examples/examples/dbt/u1/missing.duckdb',
          dest: '/home/user/m.duckdb',
        }),
      ],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect(err.message).toContain(
      `task asset 'evaluation_examples/examples/dbt/u1/missing.duckdb' is missing`,
    );
    expect(err.message).toContain(join(taskDir, 'missing.duckdb'));
  });

  it('fails a script step with its exit code and stderr', async () => {
    writeFileSync(join(taskDir, 'bad.sh'), 'echo broken >&2; exit 4\n');
    const err = await runSetupSteps(
      [step('script_and_execute', { src: 'bad.sh', dest: '/tmp/bad.sh' }, 1)],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(err.message).toMatch(/exited with 4:\nbroken/);
  });

  it('checks every command: a non-zero exit fails the step with its status and stderr; each step is timed and reported', async () => {
    const records: SetupStepTiming[] = [];
    const err = await runSetupSteps(
      [
        step('execute', { command: ['bash', '-c', 'echo ok'] }, 0),
        step('command', { command: 'echo half >&2; exit 2', shell: true }, 1),
        step('sleep', { seconds: 0 }, 2),
      ],
      env,
      { taskDir, task, onStep: (r) => records.push(r) },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect(err.message).toBe('task t1: config step 1 (command, /config/1): the command exited with 2:\nhalf');
    expect(records.map((r) => [r.pointer, r.func, r.ok, r.check ?? r.error])).toEqual([
      ['/config/0', 'execute', true, 'exit 0'],
      ['/config/1', 'command', false, 'the command exited with 2:\nhalf'],
    ]);
    expect(records.every((r) => Number.isInteger(r.ms) && r.ms >= 0)).toBe(true);
  });

  it("runs Spider2-V's until: the command again until its condition holds", async () => {
    const report = await runSetupSteps(
      [
        step('execute', {
          command: ['sh', '-c', 'n=$(cat ~/n 2>/dev/null || echo 0); echo $((n+1)) > ~/n; echo $((n+1))'],
          until: { stdout: '3' },
        }),
      ],
      env,
      { taskDir, task },
    );
    expect(readFileSync(join(env.home.root, 'n'), 'utf8')).toBe('3\n');
    expect(report.steps[0].check).toMatch(/^until \{"stdout":"3"\} met after 3 run\(s\)/);
  });

  it('reads a copied file back: its size must be what was written', async () => {
    writeFileSync(join(taskDir, 'data.csv'), 'a,b\n1,2\n');
    const ok = await runSetupSteps(
      [step('copyfile_from_host_to_guest', { src: 'data.csv', dest: '/home/user/data.csv' })],
      env,
      { taskDir, task },
    );
    expect(ok.steps[0].check).toBe('/home/user/data.csv: 8 bytes');
    // An environment whose transfer loses bytes (a broken upload) is caught, not trusted.
    const lossy = { ...env, putFile: (p: string, d: Buffer) => env.putFile(p, d.subarray(0, 3)) };
    const err = await runSetupSteps(
      [step('copyfile_from_host_to_guest', { src: 'data.csv', dest: '/home/user/lost.csv' }, 4)],
      lossy,
      { taskDir, task },
    ).catch((e) => e);
    expect(err.message).toBe(
      'task t1: config step 4 (copyfile_from_host_to_guest, /config/4): /home/user/lost.csv holds 3 bytes after writing 8',
    );
  });

  it("takes OSWorld's python -c pyautogui form for an action, never a program: an environment without input says so", async () => {
    const err = await runSetupSteps(
      [step('execute', { command: ['python', '-c', 'import pyautogui; pyautogui.hotkey("ctrl", "s");'] }, 2)],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(err.message).toBe(
      "task t1: config step 2 (execute, /config/2): the pyautogui code could not be performed: the shell environment cannot 'input'",
    );
    // Any other python -c is a program like any other (it runs where Python is, and its exit status counts).
    const other = await runSetupSteps(
      [step('execute', { command: ['python3', '-c', 'import sys; sys.exit(5)'] }, 3)],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(other.message).toMatch(
      /^task t1: config step 3 \(execute, \/config\/3\): the command exited with (5|127)/,
    );
  });

  it.each(accountSetupFuncNames)('refuses %s with needs account', async (name) => {
    await expect(runSetupSteps([step(name, {})], env, { taskDir, task })).rejects.toThrow(NeedsAccountError);
  });

  it('names the closest known func for an unknown one', async () => {
    const err = await runSetupSteps([step('copyfile_from_host_to_gest', {}, 7)], env, {
      taskDir,
      task,
    }).catch((e) => e);
    expect(err.message).toBe(
      "task t1: config step 7 (copyfile_from_host_to_gest, /config/7): unknown setup func 'copyfile_from_host_to_gest' (closest known: 'copyfile_from_host_to_guest')",
    );
  });

  it('downloads files from a reachable server and fails clearly when unreachable', async () => {
    const server = createServer((_req, res) => res.end('payload'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      await runSetupSteps(
        [
          step('download', {
            files: [{ url: `http://127.0.0.1:${port}/f.txt`, path: '/home/user/Downloads/f.txt' }],
          }),
        ],
        env,
        { taskDir, task },
      );
      expect(readFileSync(join(env.home.root, 'Downloads/f.txt'), 'utf8')).toBe('payload');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    // A port nobody listens on: a fresh server opened and closed without connections.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const err = await runSetupSteps(
      [step('download', { files: [{ url: `http://127.0.0.1:${closedPort}/gone`, path: '/home/user/g' }] })],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(err.message).toMatch(/cannot download .*ECONNREFUSED.*offline/);
  });

  it('stops a sleep when the run is cancelled', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const t0 = Date.now();
    await expect(
      runSetupSteps([step('sleep', { seconds: 30 })], env, { taskDir, task, signal: ac.signal }),
    ).rejects.toThrow(/cancelled/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('registers every offline func the issue lists', () => {
    for (const f of [
      'upload_file_to_vm',
      'upload_script_and_execute',
      'copyfile_from_host_to_guest',
      'script_and_execute',
      'launch',
      'open',
      'execute',
      'command',
      'sleep',
      'activate_window',
      'close_window',
      'chrome_open_tabs',
      'google_chrome_browser',
      'download',
    ]) {
      expect(setupFuncs.has(f)).toBe(true);
    }
  });
});

describe('browser setup through the Environment only', () => {
  it('says which capability an environment without a browser lacks, and opens no tab without one', async () => {
    const noBrowser = {
      ...env,
      capabilities: new Set([...env.capabilities].filter((c) => c !== 'browser')),
      launchBrowser: undefined,
    };
    const err = await runSetupSteps(
      [step('google_chrome_browser', { urls: ['http://127.0.0.1:9/'] }, 2)],
      noBrowser,
      { taskDir, task },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect(err.message).toMatch(
      /^task t1: config step 2 \(google_chrome_browser, \/config\/2\): .*the shell environment cannot 'browser'/,
    );
    await expect(
      runSetupSteps([step('chrome_open_tabs', { urls_to_open: ['http://127.0.0.1:9/'] })], env, {
        taskDir,
        task,
      }),
    ).rejects.toThrow(/google_chrome_browser step must come first/);
  });
});

const hasChromium = spawnSync('sh', ['-c', 'command -v chromium']).status === 0;
describe.skipIf(!hasChromium)('browser setup (needs /usr/bin/chromium)', () => {
  it('starts Chromium with a DevTools endpoint, records it, and opens more tabs over CDP', async () => {
    const server = createServer((req, res) => res.end(`<title>page ${req.url}</title>`));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await runSetupSteps(
        [
          step('google_chrome_browser', { debugging_port: 1337, urls: [`${base}/a`] }),
          step('chrome_open_tabs', { urls_to_open: [`${base}/b`] }, 1),
        ],
        env,
        { taskDir, task },
      );
      const endpoint = env.browserEndpoint();
      expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      let urls: string[] = [];
      for (let i = 0; i < 50 && !(urls.includes(`${base}/a`) && urls.includes(`${base}/b`)); i++) {
        const list = (await (await fetch(`${endpoint}/json/list`)).json()) as { url: string; type: string }[];
        urls = list.filter((t) => t.type === 'page').map((t) => t.url);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(urls).toEqual(expect.arrayContaining([`${base}/a`, `${base}/b`]));
    } finally {
      // Chromium keeps its connections to the page server open; close them, or close() waits for them.
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
