// UFO's keyboard_input key strings (its pre-pass, then pywinauto's SendKeys grammar) as Proctor actions:
// `\n`/`~` Enter, `\t` Tab, `{NAME}` / `{NAME n}`, `{x}` a literal, `{VK_CONTROL}`/`{VK_SHIFT}`/`{VK_MENU}` held on
// the next key; `+ ^ % ( )` are typed as themselves (UFO escapes them) and spaces are kept (upstream defect 15).
import type { Action } from '../../../shared/run';

export class KeyGrammarError extends Error {
  constructor(
    message: string,
    readonly keys: string,
    readonly at: number,
  ) {
    super(`${message} at character ${at + 1} of ${JSON.stringify(keys)}`);
    this.name = 'KeyGrammarError';
  }
}

/** SendKeys names (upper case, `VK_` names too) → Proctor's key names. */
const NAMED: Record<string, string> = {
  ENTER: 'enter',
  VK_RETURN: 'enter',
  RETURN: 'enter',
  TAB: 'tab',
  VK_TAB: 'tab',
  SPACE: 'space',
  VK_SPACE: 'space',
  DEL: 'delete',
  DELETE: 'delete',
  VK_DELETE: 'delete',
  BACKSPACE: 'backspace',
  BS: 'backspace',
  BKSP: 'backspace',
  VK_BACK: 'backspace',
  ESC: 'esc',
  ESCAPE: 'esc',
  VK_ESCAPE: 'esc',
  HOME: 'home',
  VK_HOME: 'home',
  END: 'end',
  VK_END: 'end',
  PGUP: 'pageup',
  VK_PRIOR: 'pageup',
  PGDN: 'pagedown',
  VK_NEXT: 'pagedown',
  INSERT: 'insert',
  INS: 'insert',
  VK_INSERT: 'insert',
  UP: 'up',
  VK_UP: 'up',
  DOWN: 'down',
  VK_DOWN: 'down',
  LEFT: 'left',
  VK_LEFT: 'left',
  RIGHT: 'right',
  VK_RIGHT: 'right',
  CAPSLOCK: 'capslock',
  NUMLOCK: 'numlock',
  SCROLLLOCK: 'scrolllock',
  PRTSC: 'printscreen',
  BREAK: 'pause',
  VK_APPS: 'apps',
};
for (let i = 1; i <= 24; i++) {
  NAMED[`F${i}`] = `f${i}`;
  NAMED[`VK_F${i}`] = `f${i}`;
}

const MODIFIERS: Record<string, string> = {
  VK_CONTROL: 'ctrl',
  VK_LCONTROL: 'ctrl',
  VK_RCONTROL: 'ctrl',
  VK_SHIFT: 'shift',
  VK_LSHIFT: 'shift',
  VK_RSHIFT: 'shift',
  VK_MENU: 'alt',
  VK_LMENU: 'alt',
  VK_RMENU: 'alt',
  VK_LWIN: 'win',
  VK_RWIN: 'win',
};

/** Named keys, for the prefill prompt. */
export const KEY_NAMES_HELP =
  '{ENTER} {TAB} {DEL} {BACKSPACE} {ESC} {HOME} {END} {PGUP} {PGDN} {UP} {DOWN} {LEFT} {RIGHT} {F1}…{F24}; {NAME n} repeats; {VK_CONTROL}/{VK_SHIFT}/{VK_MENU} hold Ctrl/Shift/Alt on the next key; \\n or ~ is Enter';

/**
 * The actions that type `keys` as UFO's keyboard_input would: literal runs as `write`, named keys as `press`,
 * held modifiers with the next key as `hotkey`. Throws KeyGrammarError for an unknown `{NAME}`, an unclosed
 * brace or modifiers with no key after them.
 */
export function keysToActions(keys: string): Action[] {
  const out: Action[] = [];
  let literal = '';
  let held: string[] = [];
  const flush = () => {
    if (literal) out.push({ type: 'write', text: literal });
    literal = '';
  };
  const key = (name: string, times = 1, asChar?: string) => {
    if (held.length) {
      flush();
      out.push({ type: 'hotkey', keys: [...held, asChar !== undefined ? asChar.toLowerCase() : name] });
      held = [];
      for (let i = 1; i < times; i++)
        out.push({ type: 'hotkey', keys: [...(out.at(-1) as { keys: string[] }).keys] });
      return;
    }
    if (asChar !== undefined) {
      literal += asChar.repeat(times);
      return;
    }
    flush();
    out.push(times > 1 ? { type: 'press', keys: [name], presses: times } : { type: 'press', keys: [name] });
  };
  for (let i = 0; i < keys.length; i++) {
    const c = keys[i];
    if (c === '\n' || c === '~' || c === '\r') {
      if (c === '\r' && keys[i + 1] === '\n') i++;
      key('enter');
    } else if (c === '\t') key('tab');
    else if (c === '{') {
      // `{x}` with any single character (including `{` and `}`) is that character
      if (keys[i + 2] === '}' && keys[i + 1] !== undefined) {
        key(keys[i + 1], 1, keys[i + 1]);
        i += 2;
        continue;
      }
      const close = keys.indexOf('}', i + 1);
      if (close < 0) throw new KeyGrammarError('a "{" is never closed', keys, i);
      const inner = keys.slice(i + 1, close).trim();
      const m = /^(\S+?)(?:\s+(\d+))?$/.exec(inner);
      if (!m) throw new KeyGrammarError(`"{${inner}}" is not a key name`, keys, i);
      const name = m[1].toUpperCase();
      const times = m[2] ? Math.min(Number(m[2]), 200) : 1;
      if (MODIFIERS[name]) {
        if (!held.includes(MODIFIERS[name])) held.push(MODIFIERS[name]);
      } else if (NAMED[name]) {
        key(NAMED[name] === 'space' ? ' ' : NAMED[name], times, NAMED[name] === 'space' ? ' ' : undefined);
      } else if (m[1].length === 1) key(m[1], times, m[1]);
      else throw new KeyGrammarError(`unknown key {${m[1]}} (known: ${KEY_NAMES_HELP})`, keys, i);
      i = close;
    } else key(c, 1, c);
  }
  if (held.length)
    throw new KeyGrammarError(`{${held.join('+')}} is held but no key follows`, keys, keys.length - 1);
  flush();
  return out;
}
