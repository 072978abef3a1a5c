// Recognises OSWorld's way of acting — `python -c "import pyautogui; import time; pyautogui.FAILSAFE = False;
// <code>"` (argv list or one string) — and gives back the model's code after the imports, so that Proctor's
// whitelisting parser reads it and the server performs it natively (no Python, no pyautogui in the guest).

const PYTHON = /^(?:.*\/)?python(?:3(?:\.\d+)?)?$/;

/** Statements of the prefix OSWorld puts before the model's code; any of them may be left out. */
const PREFIX_STATEMENT = /^\s*(?:import\s+pyautogui|import\s+time|pyautogui\.FAILSAFE\s*=\s*(?:False|True))[ \t]*(?:;[ \t]*|\n|$)/;

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
