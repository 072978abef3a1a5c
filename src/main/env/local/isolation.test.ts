// The sandbox as an attacker meets it. A probe task's oracle types a script into the sandbox's terminal that
// looks for the model key in every process's environment, writes outside its home and /tmp, and reaches for a
// neighbouring sandbox's display and files — run by a real `proctor run` holding a fake key, on a real sandbox
// display. Isolated, the probe finds nothing and writes nothing outside; the same probe on the host fallback
// finds the key (so the probe can fail), and the llm agent is refused a key there without --allow-unisolated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingDemoPrograms, runProctor } from '../../demo/testing-env';
import { projectRoot } from '../../demo/paths';
import { isolationSupport } from './confinement';
import { createLocalEnvironment, type LocalEnvironment } from './local-environment';

const missing = missingDemoPrograms();
const isolation = isolationSupport();
const why = missing.length
  ? `needs ${missing.join(', ')}`
  : !isolation.available
    ? `namespaces unavailable: ${isolation.reason}`
    : '';

const ID = `${process.pid}-${Date.now().toString(36)}`;
const KEY = `LEAKCHECK-${ID}`;
const TASK_ID = '5e1f0b0e-0000-4000-8000-00000000beef';
const outside = ['/root', projectRoot, '/var/lib', '/etc'].map((d) => join(d, `proctor-escape-${ID}`));
const hostTmpEscape = join('/tmp', `proctor-escape-${ID}`);

function probeScript(neighbour: LocalEnvironment): string {
  return `#!/bin/sh
out="$HOME/probe.txt"
{
  for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do
    grep -aq "${KEY}" "$f" 2>/dev/null && echo "LEAK: $f"
  done
  for p in ${outside.map((p) => `"${p}"`).join(' ')}; do
    (echo x > "$p") 2>/dev/null && echo "WROTE: $p"
  done
  echo x > "${hostTmpEscape}"
  xdpyinfo -display ${neighbour.display} >/dev/null 2>&1 && echo "REACHED: the neighbour's display ${neighbour.display}"
  [ -e "${neighbour.home.root}" ] && echo "SEES: the neighbour's home ${neighbour.home.root}"
  [ -e "${neighbour.home.tmp}/.proctor-bus" ] && echo "SEES: the neighbour's session bus"
  echo "PROBE-DONE"
} > "$out" 2>&1
`;
}

const EVAL = `#!/bin/sh
f="$HOME/probe.txt"
[ -f "$f" ] || { echo "FAILURE: the probe did not run"; exit 0; }
cat "$f"
if grep -q PROBE-DONE "$f" && ! grep -qE '^(LEAK|WROTE|REACHED|SEES):' "$f"; then echo SUCCESS; else echo FAILURE; fi
`;

function writeProbeTask(root: string, neighbour: LocalEnvironment): string {
  const dir = join(root, 'probe', TASK_ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'probe.sh'), probeScript(neighbour));
  writeFileSync(join(dir, 'eval.sh'), EVAL);
  const task = {
    id: TASK_ID,
    snapshot: 'terminal',
    instruction: 'Probe the sandbox (a security test task).',
    source: ['proctor isolation test'],
    related_apps: ['terminal'],
    tags: ['cli', 'traditional_data_processing', 'verbose'],
    action_number: 2,
    config: [
      {
        func: 'upload_file_to_vm',
        arguments: { local_path: 'probe.sh', remote_path: '/home/user/probe.sh' },
      },
      { func: 'launch', arguments: { command: ['xterm', '-geometry', '100x24+0+0', '-title', 'Terminal'] } },
      {
        func: 'execute',
        arguments: {
          command: ['timeout', '20', 'xdotool', 'search', '--onlyvisible', '--sync', '--name', '^Terminal$'],
        },
      },
      { func: 'activate_window', arguments: { window_name: 'Terminal' } },
    ],
    evaluation: {
      func: 'compare_script_logs',
      arguments: {
        eval_script: 'eval.sh',
        vm_eval_logs: '/home/user/eval.log',
        rules: { include: ['SUCCESS'], exclude: ['FAILURE'] },
      },
    },
  };
  writeFileSync(join(dir, `${TASK_ID}.json`), JSON.stringify(task, null, 2));
  writeFileSync(
    join(dir, 'oracle.json'),
    JSON.stringify({
      action_space: 'pyautogui',
      steps: [
        'pyautogui.click(200, 150)\ntime.sleep(0.3)',
        "pyautogui.write('sh ~/probe.sh')",
        "pyautogui.press('enter')\ntime.sleep(3)",
        'DONE',
      ],
    }),
  );
  return dir;
}

interface TaskSummary {
  results?: { score?: number; state?: string };
}

function summaryOf(outDir: string): { score?: number; text: string } {
  const [run] = readdirSync(outDir);
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name === 'summary.json' || e.name === 'verdicts.jsonl') files.push(join(d, e.name));
    }
  };
  walk(join(outDir, run));
  const summaryFile = files.find((f) => f.endsWith('summary.json'));
  const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  const summary = summaryFile ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as TaskSummary) : {};
  return { score: summary.results?.score, text };
}

describe.skipIf(!!why)(`the sandbox as a boundary ${why}`, () => {
  let root: string;
  let neighbour: LocalEnvironment;
  let taskDir: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'proctor-isolation-test-'));
    // Another task's sandbox, running alongside the probe's.
    neighbour = await createLocalEnvironment({ width: 800, height: 600 });
    await neighbour.putFile('/home/user/secret.txt', Buffer.from('the neighbour'));
    taskDir = writeProbeTask(root, neighbour);
  });

  afterAll(async () => {
    await neighbour?.close();
    for (const p of [...outside, hostTmpEscape]) rmSync(p, { force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('an agent in a namespace sandbox finds no key, writes nothing outside its home and /tmp, and cannot reach a neighbour', async () => {
    expect(neighbour.isolation).toBe('namespaces');
    const out = join(root, 'isolated');
    const r = await runProctor(
      ['run', taskDir, '--agent', 'oracle', '--screen', '1024x768', '--out', out, '--json'],
      240_000,
      {
        PROCTOR_API_KEY: KEY,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const s = summaryOf(out);
    expect(s.text).toContain('PROBE-DONE');
    expect(s.text).not.toMatch(/LEAK:|WROTE:|REACHED:|SEES:/);
    expect(s.score, s.text).toBe(1);
    for (const p of [...outside, hostTmpEscape]) expect(existsSync(p), p).toBe(false);
  }, 300_000);

  it('run by an unprivileged user (uid 65534, its own namespaces, no root anywhere), the probe finds nothing either', async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip('runs as root, to become an unprivileged user');
    if (
      spawnSync('setpriv', [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        '--',
        'test',
        '-r',
        join(projectRoot, 'package.json'),
      ]).status !== 0
    )
      return ctx.skip(`uid 65534 cannot read ${projectRoot}`);
    const mine = join(root, 'unprivileged');
    mkdirSync(mine);
    chmodSync(root, 0o711); // the user passes through to its own folder only
    cpSync(taskDir, join(mine, 'probe'), { recursive: true });
    execFileSync('chown', ['-R', '65534:65534', mine]);
    const out = join(mine, 'out');
    const r = await runProctor(
      ['run', join(mine, 'probe'), '--agent', 'oracle', '--screen', '1024x768', '--out', out, '--json'],
      240_000,
      { PROCTOR_API_KEY: KEY, HOME: mine },
      65534,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/NOT isolated/);
    const s = summaryOf(out);
    expect(s.text).toContain('PROBE-DONE');
    expect(s.text).not.toMatch(/LEAK:|WROTE:|REACHED:|SEES:/);
    expect(s.score, s.text).toBe(1);
    expect(existsSync(hostTmpEscape)).toBe(false);
  }, 300_000);

  it('the same probe on the host fallback finds the key (the probe can fail), and the llm agent is refused a key there', async () => {
    const out = join(root, 'host');
    const r = await runProctor(
      ['run', taskDir, '--agent', 'oracle', '--screen', '1024x768', '--out', out, '--json'],
      240_000,
      {
        PROCTOR_API_KEY: KEY,
        PROCTOR_SANDBOX: 'host',
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/NOT isolated/);
    const s = summaryOf(out);
    expect(s.text).toMatch(/LEAK: \/proc\/\d+\/environ/);
    expect(s.score).toBe(0);

    const refused = await runProctor(
      [
        'run',
        taskDir,
        '--agent',
        'llm',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--model',
        'm',
        '--out',
        join(root, 'llm'),
      ],
      60_000,
      {
        PROCTOR_API_KEY: KEY,
        PROCTOR_SANDBOX: 'host',
      },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /refusing to give a model key to an agent on a sandbox that is not isolated.*--allow-unisolated/s,
    );
    expect(refused.stderr).not.toContain(KEY);
    expect(existsSync(join(root, 'llm'))).toBe(false);
  }, 300_000);
});
