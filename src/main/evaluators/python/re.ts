// Python's `re` for patterns that come from task files: compile (cached), search / match / fullmatch as Python
// calls them, and flags named as OSWorld names them (`re.I`, `re.MULTILINE` …). Translation in re-translate.ts.
import { PY_FLAG, PythonPatternError, translatePython, type Translation } from './re-translate';

export { PY_FLAG, PythonPatternError };

/** A successful match: its span in code points (as Python counts) and its groups (Python numbering and names). */
export interface PyMatch {
  start: number;
  end: number;
  /** Group n (0: the whole match) or a named group; undefined when it did not take part. */
  group(n?: number | string): string | undefined;
}

/** A compiled Python pattern. */
export class PyPattern {
  private readonly searcher: RegExp;
  private readonly matcher: RegExp;
  private readonly fuller: RegExp;

  constructor(
    readonly pattern: string,
    readonly flags: number,
    private readonly t: Translation,
  ) {
    this.searcher = new RegExp(t.source, t.flags + 'g');
    this.matcher = new RegExp(t.source, t.flags + 'y');
    this.fuller = new RegExp(`(?:${t.source})(?![\\s\\S])`, t.flags + 'y');
  }

  /** `re.search`: the first match anywhere. */
  search(text: string): PyMatch | null {
    return this.run(this.searcher, text);
  }
  /** `re.match`: a match at the start. */
  match(text: string): PyMatch | null {
    return this.run(this.matcher, text);
  }
  /** `re.fullmatch`: a match of the whole text. */
  fullmatch(text: string): PyMatch | null {
    return this.run(this.fuller, text);
  }

  private run(re: RegExp, text: string): PyMatch | null {
    re.lastIndex = 0;
    const m = re.exec(text);
    if (!m) return null;
    const { groupIndex, names } = this.t;
    const pattern = this.pattern;
    const points = (i: number) => [...text.slice(0, i)].length;
    return {
      start: points(m.index),
      end: points(m.index + m[0].length),
      group(n: number | string = 0) {
        const k = typeof n === 'string' ? names.get(n) : n;
        if (k === undefined || k < 0 || k >= groupIndex.length)
          throw new PythonPatternError(pattern, `no such group ${String(n)}`, true);
        return m[groupIndex[k]];
      },
    };
  }
}

const cache = new Map<string, PyPattern>();

/** `re.compile(pattern, flags)`; throws PythonPatternError (Python's re.error, or a pattern the layer cannot honour). */
export function compilePython(pattern: string, flags = 0): PyPattern {
  const key = `${flags}:${pattern}`;
  let p = cache.get(key);
  if (!p) {
    p = new PyPattern(pattern, flags, translatePython(pattern, flags));
    if (cache.size > 500) cache.clear();
    cache.set(key, p);
  }
  return p;
}

const FLAG_NAMES: Record<string, number> = {
  I: PY_FLAG.I,
  IGNORECASE: PY_FLAG.I,
  M: PY_FLAG.M,
  MULTILINE: PY_FLAG.M,
  S: PY_FLAG.S,
  DOTALL: PY_FLAG.S,
  X: PY_FLAG.X,
  VERBOSE: PY_FLAG.X,
  A: PY_FLAG.A,
  ASCII: PY_FLAG.A,
  U: PY_FLAG.U,
  UNICODE: PY_FLAG.U,
  L: PY_FLAG.L,
  LOCALE: PY_FLAG.L,
  NOFLAG: 0,
  DEBUG: 0,
};

/** The flag bits of `getattr(re, name)` OR-ed together, or why Python raises (an unknown or non-flag name). */
export function pythonFlags(names: string[]): number | string {
  let bits = 0;
  for (const n of names) {
    if (!(n in FLAG_NAMES))
      return `re.${n} is not a regular expression flag (Python raises ${/^[A-Z]+$/.test(n) ? 'AttributeError' : 'AttributeError or TypeError'})`;
    bits |= FLAG_NAMES[n];
  }
  return bits;
}

/** `re.search(pattern, text, flags) is not None`. */
export function pySearch(pattern: string, text: string, flags = 0): boolean {
  return compilePython(pattern, flags).search(text) !== null;
}
