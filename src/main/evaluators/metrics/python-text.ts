// Python's notion of whitespace for OSWorld's text metrics: str.split(), str.strip() and re's \s on str match
// JavaScript's \s less U+FEFF, plus U+001C–U+001F and U+0085.
const SPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** The contents of a character class of Python's whitespace (for patterns built elsewhere). */
export const PY_SPACE_CLASS = SPACE;
/** One whitespace character, as Python's `\s`. */
export const pySpace = new RegExp(`[${SPACE}]`);
/** Runs of whitespace (global). */
export const pySpaceRun = new RegExp(`[${SPACE}]+`, 'g');
const edges = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, 'g');

/** Python's `s.split()`. */
export const pySplit = (s: string): string[] => s.split(pySpaceRun).filter(Boolean);
/** Python's `s.strip()`. */
export const pyStrip = (s: string): string => s.replace(edges, '');
