// OSWorld's and Spider2-V's way of acting through a command — `python -c "import pyautogui; import time;
// pyautogui.FAILSAFE = False; <code>"` (argv list, one string, or a `shell: true` line) — recognised in one place,
// the code read by Proctor's whitelisting parser and performed with env.perform (no Python, no pyautogui in the
// guest). Used by `proctor env serve` (/execute) and by setup's `execute` / `command` steps in every environment.
import type { Action } from '../../shared/run';
import { shlexSplit } from '../text/shlex';
import { parsePyautogui } from './index';

const PYTHON = /^(?:.*\/)?python(?:3(?:\.\d+)?)?$/;

/** Statements of the prefix OSWorld puts before the model's code; any of them may be left out. */
const PREFIX_STATEMENT =
  /^\s*(?:import\s+pyautogui|import\s+time|pyautogui\.FAILSAFE\s*=\s*(?:False|True))[ \t]*(?:;[ \t]*|\n|$)/;

/** The code after the pyautogui prefix, when `argv` is `python -c "import pyautogui…"`; undefined otherwise. */
export function pyautoguiCode(argv: string[]): string | undefined {
  if (argv.length !== 3 || !PYTHON.test(argv[0]) || argv[1] !== '-c') return undefined;
  let code = argv[2];
  if (!/^\s*import\s+pyautogui\b/.test(code)) return undefined;
  for (;;) {
    const m = PREFIX_STATEMENT.exec(code);
    if (!m) break;
    code = code.slice(m[0].length);
  }
  return code;
}

/** A shell line that is one plain command of three words (no operators), as argv; else [] (never the form). */
export function argvOfShellLine(line: string): string[] {
  try {
    const argv = shlexSplit(line);
    return argv.length === 3 && !/^[;&|<>]|[;&|<>]$/.test(argv[0] + argv[1]) ? argv : [];
  } catch {
    return [];
  }
}

/** The pyautogui code of a command (argv list, or a string split like shlex / read as one shell line); undefined when it is not the form. */
export function pyautoguiCodeOfCommand(command: string | string[]): string | undefined {
  return pyautoguiCode(Array.isArray(command) ? command : argvOfShellLine(command));
}

/** The actions of the form's code, or the parser's refusal (a reply-only hint removed: this is a command, not a reply). */
export function actionsOfPyautoguiCode(
  code: string,
): { ok: true; actions: Action[] } | { ok: false; error: string } {
  if (!code.trim()) return { ok: true, actions: [] };
  const parsed = parsePyautogui(code);
  if (!parsed.ok)
    return {
      ok: false,
      error: parsed.error.message.replace(/ \(the reply has no ```python code block[^)]*\)$/, ''),
    };
  // WAIT / DONE / FAIL are words of a model's reply, not actions of a command.
  return {
    ok: true,
    actions: parsed.actions.filter((a) => a.type !== 'WAIT' && a.type !== 'DONE' && a.type !== 'FAIL'),
  };
}

/** What performing the form gives, in the shape of a finished `python -c`: returncode 0, or 1 with the reason. */
export interface PyautoguiCommandOutcome {
  returncode: 0 | 1;
  error: string;
  actions: Action[];
}

/** Whatever performs actions: an environment (env/ is above actions/, so it is named by its one method here). */
export interface ActionPerformer {
  perform(actions: Action[]): Promise<void>;
}

/** Parses the code and performs it on `env`; a refusal or a failed action is returncode 1 with its message, nothing thrown. */
export async function performPyautoguiCode(
  env: ActionPerformer,
  code: string,
): Promise<PyautoguiCommandOutcome> {
  const parsed = actionsOfPyautoguiCode(code);
  if (!parsed.ok) return { returncode: 1, error: parsed.error, actions: [] };
  try {
    if (parsed.actions.length) await env.perform(parsed.actions);
  } catch (e) {
    return { returncode: 1, error: (e as Error).message, actions: parsed.actions };
  }
  return { returncode: 0, error: '', actions: parsed.actions };
}
