// pyautogui key names (OSWorld's KEYBOARD_KEYS, 193 names) → nut.js keys, with an X keysym for the names nut.js
// has no key for (browser / media / IME keys), which the worker sends through xdotool. Also the US-layout
// keystroke of every printable ASCII character, for exact typing with explicit Shift chords.
import { closest } from 'fastest-levenshtein';

/** A key as the worker presses it: a nut.js `Key` member name when nut.js has one, else an X keysym. */
export interface KeySpec {
  nut?: string;
  keysym: string;
}

/** One keystroke of a character on a US layout. */
export interface CharStroke {
  nut: string;
  shift: boolean;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

/** Unshifted and shifted US-layout characters on the same key. */
const SYMBOL_KEYS: [string, string, string, string][] = [
  // [unshifted, shifted, nut Key, unshifted keysym]
  ['`', '~', 'Grave', 'grave'],
  ['-', '_', 'Minus', 'minus'],
  ['=', '+', 'Equal', 'equal'],
  ['[', '{', 'LeftBracket', 'bracketleft'],
  [']', '}', 'RightBracket', 'bracketright'],
  ['\\', '|', 'Backslash', 'backslash'],
  [';', ':', 'Semicolon', 'semicolon'],
  ["'", '"', 'Quote', 'apostrophe'],
  [',', '<', 'Comma', 'comma'],
  ['.', '>', 'Period', 'period'],
  ['/', '?', 'Slash', 'slash'],
];
const SHIFTED_DIGITS = ')!@#$%^&*(';
const SHIFTED_KEYSYMS: Record<string, string> = {
  '~': 'asciitilde',
  _: 'underscore',
  '+': 'plus',
  '{': 'braceleft',
  '}': 'braceright',
  '|': 'bar',
  ':': 'colon',
  '"': 'quotedbl',
  '<': 'less',
  '>': 'greater',
  '?': 'question',
  ')': 'parenright',
  '!': 'exclam',
  '@': 'at',
  '#': 'numbersign',
  $: 'dollar',
  '%': 'percent',
  '^': 'asciicircum',
  '&': 'ampersand',
  '*': 'asterisk',
  '(': 'parenleft',
};

const CHAR_STROKES = new Map<string, CharStroke>();
for (const c of LETTERS) {
  CHAR_STROKES.set(c, { nut: c.toUpperCase(), shift: false });
  CHAR_STROKES.set(c.toUpperCase(), { nut: c.toUpperCase(), shift: true });
}
for (let i = 0; i < 10; i++) {
  CHAR_STROKES.set(DIGITS[i], { nut: `Num${i}`, shift: false });
  CHAR_STROKES.set(SHIFTED_DIGITS[i], { nut: `Num${i}`, shift: true });
}
for (const [plain, shifted, nut] of SYMBOL_KEYS) {
  CHAR_STROKES.set(plain, { nut, shift: false });
  CHAR_STROKES.set(shifted, { nut, shift: true });
}
CHAR_STROKES.set(' ', { nut: 'Space', shift: false });
CHAR_STROKES.set('\n', { nut: 'Enter', shift: false });
CHAR_STROKES.set('\r', { nut: 'Enter', shift: false });
CHAR_STROKES.set('\t', { nut: 'Tab', shift: false });

/** The keystroke that types `ch` on a US layout, or undefined for characters off the keyboard (non-ASCII). */
export function charStroke(ch: string): CharStroke | undefined {
  return CHAR_STROKES.get(ch);
}

const NAMED: Record<string, KeySpec> = {
  accept: { keysym: 'Execute' }, // no X "accept" key; IME accept is rarely used on Linux
  add: { nut: 'Add', keysym: 'KP_Add' },
  alt: { nut: 'LeftAlt', keysym: 'Alt_L' },
  altleft: { nut: 'LeftAlt', keysym: 'Alt_L' },
  altright: { nut: 'RightAlt', keysym: 'Alt_R' },
  apps: { nut: 'Menu', keysym: 'Menu' },
  backspace: { nut: 'Backspace', keysym: 'BackSpace' },
  browserback: { keysym: 'XF86Back' },
  browserfavorites: { keysym: 'XF86Favorites' },
  browserforward: { keysym: 'XF86Forward' },
  browserhome: { keysym: 'XF86HomePage' },
  browserrefresh: { keysym: 'XF86Refresh' },
  browsersearch: { keysym: 'XF86Search' },
  browserstop: { keysym: 'XF86Stop' },
  capslock: { nut: 'CapsLock', keysym: 'Caps_Lock' },
  clear: { nut: 'Clear', keysym: 'Clear' },
  convert: { keysym: 'Henkan' },
  ctrl: { nut: 'LeftControl', keysym: 'Control_L' },
  ctrlleft: { nut: 'LeftControl', keysym: 'Control_L' },
  ctrlright: { nut: 'RightControl', keysym: 'Control_R' },
  decimal: { nut: 'Decimal', keysym: 'KP_Decimal' },
  del: { nut: 'Delete', keysym: 'Delete' },
  delete: { nut: 'Delete', keysym: 'Delete' },
  divide: { nut: 'Divide', keysym: 'KP_Divide' },
  down: { nut: 'Down', keysym: 'Down' },
  end: { nut: 'End', keysym: 'End' },
  enter: { nut: 'Enter', keysym: 'Return' },
  esc: { nut: 'Escape', keysym: 'Escape' },
  escape: { nut: 'Escape', keysym: 'Escape' },
  execute: { keysym: 'Execute' },
  final: { keysym: 'Execute' }, // Windows IME "final" has no X equivalent
  fn: { nut: 'Fn', keysym: 'XF86WakeUp' },
  hanguel: { keysym: 'Hangul' },
  hangul: { keysym: 'Hangul' },
  hanja: { keysym: 'Hangul_Hanja' },
  help: { keysym: 'Help' },
  home: { nut: 'Home', keysym: 'Home' },
  insert: { nut: 'Insert', keysym: 'Insert' },
  junja: { keysym: 'Hangul_Jeonja' },
  kana: { keysym: 'Katakana' },
  kanji: { keysym: 'Kanji' },
  launchapp1: { keysym: 'XF86Launch1' },
  launchapp2: { keysym: 'XF86Launch2' },
  launchmail: { keysym: 'XF86Mail' },
  launchmediaselect: { keysym: 'XF86AudioMedia' },
  left: { nut: 'Left', keysym: 'Left' },
  modechange: { keysym: 'Mode_switch' },
  multiply: { nut: 'Multiply', keysym: 'KP_Multiply' },
  nexttrack: { nut: 'AudioNext', keysym: 'XF86AudioNext' },
  nonconvert: { keysym: 'Muhenkan' },
  numlock: { nut: 'NumLock', keysym: 'Num_Lock' },
  pagedown: { nut: 'PageDown', keysym: 'Next' },
  pageup: { nut: 'PageUp', keysym: 'Prior' },
  pause: { nut: 'Pause', keysym: 'Pause' },
  pgdn: { nut: 'PageDown', keysym: 'Next' },
  pgup: { nut: 'PageUp', keysym: 'Prior' },
  playpause: { nut: 'AudioPlay', keysym: 'XF86AudioPlay' },
  prevtrack: { nut: 'AudioPrev', keysym: 'XF86AudioPrev' },
  print: { nut: 'Print', keysym: 'Print' },
  printscreen: { nut: 'Print', keysym: 'Print' },
  prntscrn: { nut: 'Print', keysym: 'Print' },
  prtsc: { nut: 'Print', keysym: 'Print' },
  prtscr: { nut: 'Print', keysym: 'Print' },
  return: { nut: 'Return', keysym: 'Return' },
  right: { nut: 'Right', keysym: 'Right' },
  scrolllock: { nut: 'ScrollLock', keysym: 'Scroll_Lock' },
  select: { keysym: 'Select' },
  separator: { keysym: 'KP_Separator' },
  shift: { nut: 'LeftShift', keysym: 'Shift_L' },
  shiftleft: { nut: 'LeftShift', keysym: 'Shift_L' },
  shiftright: { nut: 'RightShift', keysym: 'Shift_R' },
  sleep: { keysym: 'XF86Sleep' },
  space: { nut: 'Space', keysym: 'space' },
  stop: { nut: 'AudioStop', keysym: 'XF86AudioStop' },
  subtract: { nut: 'Subtract', keysym: 'KP_Subtract' },
  tab: { nut: 'Tab', keysym: 'Tab' },
  up: { nut: 'Up', keysym: 'Up' },
  volumedown: { nut: 'AudioVolDown', keysym: 'XF86AudioLowerVolume' },
  volumemute: { nut: 'AudioMute', keysym: 'XF86AudioMute' },
  volumeup: { nut: 'AudioVolUp', keysym: 'XF86AudioRaiseVolume' },
  win: { nut: 'LeftSuper', keysym: 'Super_L' },
  winleft: { nut: 'LeftSuper', keysym: 'Super_L' },
  winright: { nut: 'RightSuper', keysym: 'Super_R' },
  yen: { keysym: 'yen' },
  command: { nut: 'LeftSuper', keysym: 'Super_L' },
  option: { nut: 'LeftAlt', keysym: 'Alt_L' },
  optionleft: { nut: 'LeftAlt', keysym: 'Alt_L' },
  optionright: { nut: 'RightAlt', keysym: 'Alt_R' },
};
for (let i = 1; i <= 24; i++) NAMED[`f${i}`] = { nut: `F${i}`, keysym: `F${i}` };
for (let i = 0; i <= 9; i++) NAMED[`num${i}`] = { nut: `NumPad${i}`, keysym: `KP_${i}` };

const CHAR_KEYSYMS: Record<string, string> = { '\t': 'Tab', '\n': 'Return', '\r': 'Return', ' ': 'space' };
for (const [plain, , , keysym] of SYMBOL_KEYS) CHAR_KEYSYMS[plain] = keysym;
for (const [ch, keysym] of Object.entries(SHIFTED_KEYSYMS)) CHAR_KEYSYMS[ch] = keysym;
for (const c of LETTERS + DIGITS) CHAR_KEYSYMS[c] = c;

/** pyautogui's KEYBOARD_KEYS: single characters (no upper-case letters) and key names, 193 in all. */
export const KEY_NAMES: readonly string[] = Object.freeze([
  '\t',
  '\n',
  '\r',
  ' ',
  ...[...Array(94)].map((_, i) => String.fromCharCode(33 + i)).filter((c) => !(c >= 'A' && c <= 'Z')),
  ...Object.keys(NAMED).sort(),
]);

/** pyautogui lower-cases multi-character key names; single characters keep their case. */
export function normaliseKeyName(name: string): string {
  return name.length > 1 ? name.toLowerCase() : name;
}

export class UnknownKeyError extends Error {
  constructor(
    readonly key: string,
    readonly closestKey: string,
  ) {
    super(
      `unknown key '${key}' (closest known: '${closestKey}'); key names follow pyautogui's KEYBOARD_KEYS`,
    );
    this.name = 'UnknownKeyError';
  }
}

/** The key the worker presses for a pyautogui key name; upper-case letters press their letter key. */
export function keySpec(name: string): KeySpec {
  const n = normaliseKeyName(name);
  const named = NAMED[n];
  if (named) return named;
  if (n.length === 1) {
    const stroke = CHAR_STROKES.get(n);
    if (stroke) {
      const keysym = CHAR_KEYSYMS[n] ?? CHAR_KEYSYMS[n.toLowerCase()];
      // A shifted character pressed as a key (pyautogui press('!')) sends its own keysym, like xdotool key.
      return stroke.shift && !(n >= 'A' && n <= 'Z') ? { keysym } : { nut: stroke.nut, keysym };
    }
  }
  throw new UnknownKeyError(name, closest(n, KEY_NAMES as string[]));
}
