// Python `re` pattern syntax (3.11) translated to a JavaScript RegExp with the `v` flag: Python's anchors ($ before a
// final newline, \A, \Z), '.' (all but \n), Unicode \d \w \s \b, inline and scoped flags, (?P<name>…) / (?P=name),
// atomic groups and possessive quantifiers. Errors Python's re raises are reported as such; constructs JavaScript
// cannot express are reported as not honoured, never translated approximately.
import { caseVariants, casedCharacters } from './case-fold';
import { PY_SPACE_CLASS } from '../metrics/python-text';

/** Python's flag values (re.I …). */
export const PY_FLAG = { I: 2, L: 4, M: 8, S: 16, U: 32, X: 64, A: 256 } as const;

/** A pattern that Python rejects (`pythonRaises`) or that this layer cannot honour. */
export class PythonPatternError extends Error {
  constructor(
    readonly pattern: string,
    readonly detail: string,
    readonly pythonRaises: boolean,
  ) {
    super(
      pythonRaises
        ? `Python pattern '${pattern}' is not valid in Python's re: ${detail} (OSWorld raises re.error)`
        : `Python pattern '${pattern}' uses ${detail}, which Proctor's Python pattern layer cannot honour; rewrite the task's pattern or grade it by hand`,
    );
    this.name = 'PythonPatternError';
  }
}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
  a: boolean;
}

/** A translated piece: its JavaScript source, its width range in characters, the Python groups inside. */
interface Piece {
  src: string;
  min: number;
  max: number;
  anchor?: boolean;
  repeat?: boolean;
  groups: number[];
}

/** The translation of one pattern. `groupIndex[n]` is the JavaScript group of Python group n (0: the match). */
export interface Translation {
  source: string;
  flags: string;
  groupIndex: number[];
  names: Map<string, number>;
}

const OPEN = '\uE000';
const OPEN_END = '\uE001';
const REF = '\uE002';
const REF_END = '\uE003';
const ANY = '[\\s\\S]';
const START = `(?<!${ANY})`;
const END = `(?!${ANY})`;
const WORD_U = '\\p{L}\\p{N}_';
const WORD_A = 'A-Za-z0-9_';
const SPACE_A = '\\t\\n\\v\\f\\r ';
const WHITESPACE = ' \t\n\r\v\f';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isOct = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';
const isAsciiLetter = (c: string) => /^[A-Za-z]$/.test(c);
const IDENT = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

/** One code point as a JavaScript pattern character (letters and digits plain, anything else escaped). */
function esc(cp: number): string {
  return /^[A-Za-z0-9]$/.test(String.fromCodePoint(cp))
    ? String.fromCodePoint(cp)
    : `\\u{${cp.toString(16)}}`;
}

/** Class contents for a list of code points (sorted, merged into ranges). */
function classBody(cps: Iterable<number>): string {
  const sorted = [...new Set(cps)].sort((a, b) => a - b);
  let out = '';
  for (let k = 0; k < sorted.length;) {
    let j = k;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    out += j === k ? esc(sorted[k]) : `${esc(sorted[k])}-${esc(sorted[j])}`;
    k = j + 1;
  }
  return out;
}

/** The class contents (positive) of a category escape, and whether it is negated. */
function category(c: string, f: Flags): { body: string; negated: boolean } {
  const lower = c.toLowerCase();
  const body =
    lower === 'd'
      ? f.a
        ? '0-9'
        : '\\p{Nd}'
      : lower === 'w'
        ? f.a
          ? WORD_A
          : WORD_U
        : f.a
          ? SPACE_A
          : PY_SPACE_CLASS;
  return { body, negated: c !== lower };
}

class Translator {
  private pos = 0;
  private groups = 0;
  private readonly open = new Set<number>();
  private readonly widths = new Map<number, [number, number]>();
  readonly names = new Map<string, number>();
  private readonly optional = new Set<number>();
  private readonly backrefs: { group: number; inI: boolean; ascii: boolean }[] = [];
  private markers = 0;
  readonly groupMarker: number[] = [0];
  private sawIOff = false;
  private lookbehind = 0;

  constructor(
    private readonly p: string,
    private readonly global: Flags,
  ) {}

  raise(detail: string): never {
    throw new PythonPatternError(this.p, `${detail} at position ${this.pos}`, true);
  }
  cannot(detail: string): never {
    throw new PythonPatternError(this.p, detail, false);
  }

  private peek(k = 0): string | undefined {
    const cp = this.p.codePointAt(this.at(k));
    return cp === undefined ? undefined : String.fromCodePoint(cp);
  }
  private at(k: number): number {
    let i = this.pos;
    for (let n = 0; n < k && i < this.p.length; n++) i += this.p.codePointAt(i)! > 0xffff ? 2 : 1;
    return i;
  }
  private next(): string | undefined {
    const c = this.peek();
    if (c !== undefined) this.pos += c.length;
    return c;
  }
  private eat(s: string): boolean {
    if (this.p.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }
  private skipVerbose(f: Flags): void {
    if (!f.x) return;
    for (;;) {
      const c = this.p[this.pos];
      if (c !== undefined && WHITESPACE.includes(c)) this.pos++;
      else if (c === '#') {
        const nl = this.p.indexOf('\n', this.pos);
        this.pos = nl < 0 ? this.p.length : nl + 1;
      } else return;
    }
  }

  /** The whole pattern. */
  translate(): Translation {
    const f = { ...this.global };
    // global inline flags: only at the very start (Python 3.11)
    for (;;) {
      this.skipVerbose(f);
      const m = /^\(\?([aiLmsux]+)\)/.exec(this.p.slice(this.pos));
      if (!m) break;
      this.applyFlags(m[1], '', f);
      this.global.i ||= f.i;
      this.pos += m[0].length;
    }
    const body = this.alternation(f, 0);
    if (this.pos < this.p.length) this.raise('unbalanced parenthesis');
    const useJsI = this.backrefs.some((b) => b.inI);
    if (useJsI && (!this.global.i || this.sawIOff))
      this.cannot('a backreference inside a case-insensitive part of a partly case-insensitive pattern');
    if (this.backrefs.some((b) => b.inI && b.ascii))
      this.cannot(
        'a case-insensitive backreference under ASCII ((?ai): Python folds only ASCII letters, JavaScript also é with É, k with the Kelvin sign, s with ſ)',
      );
    for (const b of this.backrefs)
      if (this.optional.has(b.group))
        this.cannot(
          `a backreference to group ${b.group}, which may not take part in the match (JavaScript then matches it as empty, Python fails)`,
        );
    // number JavaScript groups in source order
    const jsIndex = new Map<number, number>();
    let n = 0;
    let source = body.src.replace(new RegExp(`${OPEN}(\\d+)${OPEN_END}`, 'g'), (_, id: string) => {
      jsIndex.set(Number(id), ++n);
      return '';
    });
    source = source.replace(
      new RegExp(`${REF}(\\d+)${REF_END}`, 'g'),
      (_, id: string) => `(?:\\${jsIndex.get(Number(id))})`,
    );
    const groupIndex = this.groupMarker.map((m, k) => (k === 0 ? 0 : jsIndex.get(m)!));
    return { source, flags: useJsI ? 'vi' : 'v', groupIndex, names: this.names };
  }

  private applyFlags(add: string, del: string, f: Flags): void {
    if (add.includes('L')) this.raise("bad inline flag: cannot use 'L' flag with a str pattern");
    if (add.includes('a') && add.includes('u'))
      this.raise("bad inline flag: flags 'a', 'u' and 'L' are incompatible");
    for (const c of del) if (add.includes(c)) this.raise('bad inline flag: flag turned on and off');
    for (const c of add) {
      if (c === 'a') f.a = true;
      else if (c === 'u') f.a = false;
      else f[c as 'i' | 'm' | 's' | 'x'] = true;
    }
    for (const c of del) {
      f[c as 'i' | 'm' | 's' | 'x'] = false;
      if (c === 'i') this.sawIOff = true;
    }
  }

  private alternation(f: Flags, depth: number): Piece {
    const branches = [this.sequence(f, depth)];
    while (this.eat('|')) branches.push(this.sequence(f, depth));
    if (branches.length === 1) return branches[0];
    const groups = branches.flatMap((b) => b.groups);
    for (const g of groups) this.optional.add(g);
    return {
      src: branches.map((b) => b.src).join('|'),
      min: Math.min(...branches.map((b) => b.min)),
      max: Math.max(...branches.map((b) => b.max)),
      groups,
    };
  }

  private sequence(f: Flags, depth: number): Piece {
    const items: Piece[] = [];
    for (;;) {
      this.skipVerbose(f);
      const c = this.peek();
      if (c === undefined || c === '|' || (c === ')' && depth > 0)) break;
      if (c === ')') this.raise('unbalanced parenthesis');
      const q = this.quantifier();
      if (q) {
        const last = items[items.length - 1];
        if (!last || last.anchor) this.raise('nothing to repeat');
        if (last.repeat) this.raise('multiple repeat');
        items[items.length - 1] = this.repeat(last, q);
        continue;
      }
      const atom = this.atom(f, depth);
      if (atom) items.push(atom);
    }
    return {
      src: items.map((x) => x.src).join(''),
      min: items.reduce((s, x) => s + x.min, 0),
      max: items.reduce((s, x) => s + x.max, 0),
      groups: items.flatMap((x) => x.groups),
    };
  }

  /** A quantifier at the current position, or undefined (a `{` that is no quantifier is a literal). */
  private quantifier(): { min: number; max: number; text: string; mode: '' | '?' | '+' } | undefined {
    const c = this.p[this.pos];
    let min: number, max: number, text: string;
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      [min, max, text] = c === '*' ? [0, Infinity, '*'] : c === '+' ? [1, Infinity, '+'] : [0, 1, '?'];
    } else if (c === '{') {
      const m = /^\{(\d*)(?:(,)(\d*))?\}/.exec(this.p.slice(this.pos));
      if (!m || (m[1] === '' && m[2] === undefined)) return undefined;
      this.pos += m[0].length;
      min = m[1] ? Number(m[1]) : 0;
      max = m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity;
      if (max < min) this.raise('min repeat greater than max repeat');
      text = max === Infinity ? `{${min},}` : min === max ? `{${min}}` : `{${min},${max}}`;
    } else return undefined;
    const mode = this.eat('?') ? '?' : this.eat('+') ? '+' : '';
    return { min, max, text, mode };
  }

  private repeat(x: Piece, q: { min: number; max: number; text: string; mode: '' | '?' | '+' }): Piece {
    // Python ends a repeat when an iteration matches empty and goes on with the rest; JavaScript rejects the empty
    // iteration and backtracks into it first, so spans (and full matches) can differ
    if (x.min === 0 && q.max > 1)
      this.cannot(
        'a repeated part that can match the empty string (Python and JavaScript end such repeats differently)',
      );
    if (q.min === 0) for (const g of x.groups) this.optional.add(g);
    const min = x.min * q.min;
    const max = x.max === 0 ? 0 : x.max * q.max;
    const body = `(?:${x.src})${q.text}`;
    if (q.mode === '?') return { src: body + '?', min, max, groups: x.groups, repeat: true };
    if (q.mode === '+') return { src: this.atomic(body), min, max, groups: x.groups, repeat: true };
    return { src: body, min, max, groups: x.groups, repeat: true };
  }

  /** An atomic match of `src`: a lookahead captures it, a backreference consumes exactly that. */
  private atomic(src: string): string {
    const id = ++this.markers;
    return `(?=(${OPEN}${id}${OPEN_END}${src}))${REF}${id}${REF_END}`;
  }

  private atom(f: Flags, depth: number): Piece | undefined {
    const c = this.next()!;
    if (c === '(') return this.group(f, depth);
    if (c === '[') return this.charClass(f);
    if (c === '.') return { src: f.s ? ANY : '[^\\n]', min: 1, max: 1, groups: [] };
    if (c === '^') return { src: f.m ? '(?<![^\\n])' : START, min: 0, max: 0, anchor: true, groups: [] };
    if (c === '$')
      return { src: f.m ? `(?=\\n|${END})` : `(?=\\n?${END})`, min: 0, max: 0, anchor: true, groups: [] };
    if (c === '\\') return this.escape(f);
    return this.literal(c.codePointAt(0)!, f);
  }

  private literal(cp: number, f: Flags): Piece {
    const variants = f.i ? caseVariants(cp, f.a) : [cp];
    return { src: variants.length > 1 ? `[${classBody(variants)}]` : esc(cp), min: 1, max: 1, groups: [] };
  }

  private word(f: Flags): string {
    return `[${f.a ? WORD_A : WORD_U}]`;
  }

  private escape(f: Flags): Piece | undefined {
    const c = this.next();
    if (c === undefined) this.raise('bad escape (end of pattern)');
    const anchor = (src: string): Piece => ({ src, min: 0, max: 0, anchor: true, groups: [] });
    if (c === 'A') return anchor(START);
    if (c === 'Z') return anchor(END);
    if (c === 'b' || c === 'B') {
      const w = this.word(f);
      if (c === 'b') return anchor(`(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`);
      return anchor(`(?:(?<=${w})(?=${w})|(?<!${w})(?!${w})(?:(?<=${ANY})|(?=${ANY})))`);
    }
    if ('dDsSwW'.includes(c)) {
      const { body, negated } = category(c, f);
      return { src: `[${negated ? '^' : ''}${body}]`, min: 1, max: 1, groups: [] };
    }
    if (c >= '1' && c <= '9') {
      let digits = c;
      if (isDigit(this.p[this.pos])) {
        if (isOct(c) && isOct(this.p[this.pos]) && isOct(this.p[this.pos + 1])) {
          const v = parseInt(c + this.p.slice(this.pos, this.pos + 2), 8);
          this.pos += 2;
          if (v > 0o377)
            this.raise(
              `octal escape value \\${c}${this.p.slice(this.pos - 2, this.pos)} outside of range 0-0o377`,
            );
          return this.literal(v, f);
        }
        digits += this.p[this.pos++];
      }
      return this.backref(Number(digits), f);
    }
    const cp = this.charEscape(c, false);
    return this.literal(cp, f);
  }

  /** The code point of a character escape (`\n`, `\x41`, `\0`, `\.` …); in a class, octal digits 1-7 too. */
  private charEscape(c: string, inClass: boolean): number {
    const simple: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };
    if (inClass) simple.b = 8;
    if (c in simple) return simple[c];
    const hex = (n: number, what: string): number => {
      const h = this.p.slice(this.pos, this.pos + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h)) this.raise(`incomplete escape \\${what}${h}`);
      this.pos += n;
      return parseInt(h, 16);
    };
    if (c === 'x') return hex(2, 'x');
    if (c === 'u') return hex(4, 'u');
    if (c === 'U') {
      const v = hex(8, 'U');
      if (v > 0x10ffff) this.raise(`bad escape \\U${v.toString(16).padStart(8, '0')}`);
      return v;
    }
    if (c === 'N') this.cannot('a named character escape \\N{…}');
    if (c === '0' || (inClass && isOct(c))) {
      let digits = c;
      while (digits.length < 3 && isOct(this.p[this.pos])) digits += this.p[this.pos++];
      const v = parseInt(digits, 8);
      if (v > 0o377) this.raise(`octal escape value \\${digits} outside of range 0-0o377`);
      return v;
    }
    if (isDigit(c) || isAsciiLetter(c)) this.raise(`bad escape \\${c}`);
    return c.codePointAt(0)!;
  }

  private backref(group: number, f: Flags): Piece {
    if (group > this.groups) this.raise(`invalid group reference ${group}`);
    if (this.open.has(group)) this.raise('cannot refer to an open group');
    if (this.lookbehind > 0) this.cannot('a backreference inside a lookbehind');
    this.backrefs.push({ group, inI: f.i, ascii: f.a });
    const [min, max] = this.widths.get(group) ?? [0, Infinity];
    return { src: `${REF}${this.groupMarker[group]}${REF_END}`, min, max, groups: [] };
  }

  private group(f: Flags, depth: number): Piece | undefined {
    const inner = (g: Flags) => {
      const body = this.alternation(g, depth + 1);
      if (!this.eat(')')) this.raise('missing ), unterminated subpattern');
      return body;
    };
    if (!this.eat('?')) return this.capture(f, inner, undefined);
    const c = this.next();
    if (c === 'P') {
      if (this.eat('<')) {
        const end = this.p.indexOf('>', this.pos);
        if (end < 0) this.raise('missing >, unterminated name');
        const name = this.p.slice(this.pos, end);
        if (name === '') this.raise('missing group name');
        if (!IDENT.test(name)) this.raise(`bad character in group name '${name}'`);
        if (this.names.has(name)) this.raise(`redefinition of group name '${name}'`);
        this.pos = end + 1;
        return this.capture(f, inner, name);
      }
      if (this.eat('=')) {
        const end = this.p.indexOf(')', this.pos);
        if (end < 0) this.raise('missing ), unterminated name');
        const name = this.p.slice(this.pos, end);
        if (!IDENT.test(name)) this.raise(`bad character in group name '${name}'`);
        const g = this.names.get(name);
        if (g === undefined) this.raise(`unknown group name '${name}'`);
        this.pos = end + 1;
        return this.backref(g, f);
      }
      this.raise(`unknown extension ?P${this.peek() ?? ''}`);
    }
    if (c === ':') {
      const body = inner(f);
      return { ...body, src: `(?:${body.src})`, anchor: false, repeat: false };
    }
    if (c === '#') {
      const end = this.p.indexOf(')', this.pos);
      if (end < 0) this.raise('missing ), unterminated comment');
      this.pos = end + 1;
      return undefined;
    }
    if (c === '=' || c === '!') {
      const body = inner(f);
      return { src: `(?${c}${body.src})`, min: 0, max: 0, groups: body.groups };
    }
    if (c === '<') {
      const d = this.next();
      if (d !== '=' && d !== '!') this.raise(`unknown extension ?<${d ?? ''}`);
      this.lookbehind++;
      const body = inner(f);
      this.lookbehind--;
      if (body.min !== body.max) this.raise('look-behind requires fixed-width pattern');
      return { src: `(?<${d}${body.src})`, min: 0, max: 0, groups: body.groups };
    }
    if (c === '>') {
      const body = inner(f);
      return { ...body, src: this.atomic(body.src), anchor: false, repeat: false };
    }
    if (c === '(') this.cannot('a conditional group (?(…)…|…)');
    if (c !== undefined && ('aiLmsux'.includes(c) || c === '-')) {
      this.pos -= 1;
      const m = /^([aiLmsux]*)(?:-([A-Za-z]*))?/.exec(this.p.slice(this.pos))!;
      this.pos += m[0].length;
      const [add, del] = [m[1], m[2]];
      if (del !== undefined) {
        if (del === '') this.raise('missing flag');
        if (/[aLu]/.test(del)) this.raise("bad inline flag: cannot turn off flags 'a', 'u' and 'L'");
        if (/[^imsx]/.test(del)) this.raise('unknown flag');
      }
      const next = this.next();
      if (next === ')') {
        if (del !== undefined) this.raise('missing :');
        this.raise('global flags not at the start of the expression');
      }
      if (next !== ':') this.raise(next === undefined ? 'missing -, : or )' : 'unknown flag');
      const g = { ...f };
      this.applyFlags(add, del ?? '', g);
      const body = inner(g);
      return { ...body, src: `(?:${body.src})`, anchor: false, repeat: false };
    }
    this.raise(`unknown extension ?${c ?? ''}`);
  }

  private capture(f: Flags, inner: (g: Flags) => Piece, name: string | undefined): Piece {
    const n = ++this.groups;
    const id = ++this.markers;
    this.groupMarker[n] = id;
    if (name !== undefined) this.names.set(name, n);
    this.open.add(n);
    const body = inner(f);
    this.open.delete(n);
    this.widths.set(n, [body.min, body.max]);
    return {
      src: `(${OPEN}${id}${OPEN_END}${body.src})`,
      min: body.min,
      max: body.max,
      groups: [n, ...body.groups],
    };
  }

  private charClass(f: Flags): Piece {
    const negate = this.eat('^');
    const cps: number[] = [];
    const ranges: [number, number][] = [];
    const cats: string[] = [];
    let items = 0;
    const item = (): { cp: number } | { cat: string } => {
      const c = this.next();
      if (c === undefined) this.raise('unterminated character set');
      if (c !== '\\') return { cp: c.codePointAt(0)! };
      const e = this.next();
      if (e === undefined) this.raise('unterminated character set');
      if ('dDsSwW'.includes(e)) {
        const { body, negated } = category(e, f);
        return { cat: negated ? `[^${body}]` : body };
      }
      return { cp: this.charEscape(e, true) };
    };
    for (;;) {
      if (this.p[this.pos] === ']' && items > 0) {
        this.pos++;
        break;
      }
      if (this.pos >= this.p.length) this.raise('unterminated character set');
      const a = item();
      items++;
      if (this.p[this.pos] === '-') {
        this.pos++;
        if (this.pos >= this.p.length) this.raise('unterminated character set');
        if (this.p[this.pos] === ']') {
          this.pos++;
          if ('cp' in a) cps.push(a.cp);
          else cats.push(a.cat);
          cps.push(0x2d);
          break;
        }
        const b = item();
        if (!('cp' in a) || !('cp' in b) || b.cp < a.cp) this.raise('bad character range');
        ranges.push([a.cp, b.cp]);
        continue;
      }
      if ('cp' in a) cps.push(a.cp);
      else cats.push(a.cat);
    }
    if (f.i) {
      for (const cp of [...cps]) cps.push(...caseVariants(cp, f.a));
      for (const [lo, hi] of ranges) {
        if (hi - lo <= 4096) {
          for (let cp = lo; cp <= hi; cp++) {
            const v = caseVariants(cp, f.a);
            if (v.length > 1) cps.push(...v);
          }
        } else {
          const cased = f.a ? [...Array(26).keys()].flatMap((k) => [0x41 + k, 0x61 + k]) : casedCharacters();
          for (const cp of cased) if (cp >= lo && cp <= hi) cps.push(...caseVariants(cp, f.a));
        }
      }
    }
    const body = ranges.map(([lo, hi]) => `${esc(lo)}-${esc(hi)}`).join('') + classBody(cps) + cats.join('');
    return { src: `[${negate ? '^' : ''}${body}]`, min: 1, max: 1, groups: [] };
  }
}

/** Translates a Python pattern with Python flag bits (re.I | re.M …); throws PythonPatternError. */
export function translatePython(pattern: string, flags = 0): Translation {
  if (flags & PY_FLAG.L)
    throw new PythonPatternError(pattern, 'cannot use LOCALE flag with a str pattern', true);
  if (flags & PY_FLAG.A && flags & PY_FLAG.U)
    throw new PythonPatternError(pattern, 'ASCII and UNICODE flags are incompatible', true);
  const global: Flags = {
    i: !!(flags & PY_FLAG.I),
    m: !!(flags & PY_FLAG.M),
    s: !!(flags & PY_FLAG.S),
    x: !!(flags & PY_FLAG.X),
    a: !!(flags & PY_FLAG.A),
  };
  const t = new Translator(pattern, global).translate();
  try {
    new RegExp(t.source, t.flags);
  } catch (e) {
    throw new PythonPatternError(
      pattern,
      `a construct JavaScript rejects after translation (${(e as Error).message})`,
      false,
    );
  }
  return t;
}
