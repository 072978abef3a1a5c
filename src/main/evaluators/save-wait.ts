// A postconfig that saves through the application (`python -c "…pyautogui.hotkey('ctrl', 's')…"`, then a fixed
// sleep) leaves the application writing the file while grading starts: on a loaded machine LibreOffice lands the
// save after the benchmark's 0.5 s sleep, and the getter would read the file as it was. The sleeps run as written;
// besides them grading waits (bounded) for what it can observe: the result files written again.
import type { SetupStep, Task } from '../../shared/task';
import { actionsOfPyautoguiCode, pyautoguiCodeOfCommand } from '../actions/python-command';
import type { Environment } from '../env/environment';

const SAVE_WAIT_MS = 5_000;
const POLL_MS = 100;

/** True when a postconfig step presses Ctrl+S through the `python -c` pyautogui form. */
export function postconfigSaves(steps: SetupStep[]): boolean {
  return steps.some((s) => {
    const command = s.args.command;
    if (
      typeof command !== 'string' &&
      !(Array.isArray(command) && command.every((c) => typeof c === 'string'))
    )
      return false;
    const code = pyautoguiCodeOfCommand(command as string | string[]);
    const parsed = code === undefined ? undefined : actionsOfPyautoguiCode(code);
    return (
      !!parsed?.ok &&
      parsed.actions.some(
        (a) => a.type === 'hotkey' && a.keys.map((k) => k.toLowerCase()).join('+') === 'ctrl+s',
      )
    );
  });
}

/** Guest paths the task's checks read with vm_file (`path`, or each of a list). */
export function resultFiles(task: Task): string[] {
  const out = new Set<string>();
  const visit = (spec: unknown) => {
    if (!spec || typeof spec !== 'object') return;
    if (Array.isArray(spec)) return spec.forEach(visit);
    const s = spec as { type?: unknown; path?: unknown };
    if (s.type !== 'vm_file') return;
    for (const p of Array.isArray(s.path) ? s.path : [s.path]) if (typeof p === 'string' && p) out.add(p);
  };
  for (const c of task.checks) visit(c.result);
  return [...out];
}

/** Modification time and size of each file as `stat` tells them (a missing file is absent). */
async function stamps(env: Environment, paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of paths) {
    const r = await env.run(['stat', '-c', '%.9Y %s', p], { timeoutMs: 10_000 }).catch(() => undefined);
    const stamp = r?.exitCode === 0 ? r.stdout.trim() : '';
    if (stamp) out.set(p, stamp);
  }
  return out;
}

/**
 * Call before the postconfig; the returned function, called after it, waits until every result file that
 * existed has been written again (or SAVE_WAIT_MS passed) and says which were not. Nothing to wait for when the
 * postconfig does not save or the checks read no guest file.
 */
export async function watchSave(env: Environment, task: Task): Promise<() => Promise<string | undefined>> {
  const paths = postconfigSaves(task.postSetup) ? resultFiles(task) : [];
  const before = await stamps(env, paths);
  if (!before.size) return async () => undefined;
  return async () => {
    const t0 = Date.now();
    for (;;) {
      const now = await stamps(env, [...before.keys()]);
      const unchanged = [...before].filter(([p, s]) => now.get(p) === s).map(([p]) => p);
      if (!unchanged.length) return undefined;
      if (Date.now() - t0 >= SAVE_WAIT_MS)
        return `the postconfig's Ctrl+S did not write ${unchanged.join(', ')} within ${SAVE_WAIT_MS / 1000} s after its steps (graded as it was)`;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  };
}
