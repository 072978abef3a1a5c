// A tokenizer for the Python the models write: names, numbers, strings of every quote form (with escapes, raw
// strings, triple quotes), operators, comments, line continuations, NEWLINE / INDENT / DEDENT. It reads a range
// of a larger text (one code block of a reply) so every token keeps its offset in the whole reply.
// Anything outside plain ASCII Python (except inside strings and comments) is refused, which also closes the
// door on look-alike letters, invisible characters and NFKC-normalised identifiers.
import { Refusal } from '../refusal';

export type TokenKind = 'NAME' | 'NUMBER' | 'STRING' | 'OP' | 'NEWLINE' | 'INDENT' | 'DEDENT' | 'END';

export interface Token {
  kind: TokenKind;
  /** Source text of NAME / OP tokens; the decoded value of STRING tokens. */
  text: string;
  /** NUMBER value. */
  value?: number;
  /** NUMBER written without a fraction or exponent. */
  isInt?: boolean;
  /** Offset in the whole text. */
  at: number;
  end: number;
}

export const MAX_TOKENS = 20_000;

const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '==',
  '!=',
  '<=',
  '>=',
  '**',
  '//',
  '<<',
  '>>',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '.',
  ';',
  '@',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '~',
  '<',
  '>',
  '!',
];

const OPEN = new Set(['(', '[', '{']);
const CLOSE: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isHex(ch: string): boolean {
  return /^[0-9a-fA-F]$/.test(ch);
}

/** A readable name for a character the tokenizer refuses. */
export function describeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const hex = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
  const special: Record<number, string> = {
    0x00a0: 'no-break space',
    0x200b: 'zero width space',
    0x200c: 'zero width non-joiner',
    0x200d: 'zero width joiner',
    0x2060: 'word joiner',
    0xfeff: 'byte order mark / zero width no-break space',
    0x202e: 'right-to-left override',
    0x202d: 'left-to-right override',
    0x2066: 'left-to-right isolate',
    0x2067: 'right-to-left isolate',
    0x2018: 'left single quotation mark',
    0x2019: 'right single quotation mark',
    0x201c: 'left double quotation mark',
    0x201d: 'right double quotation mark',
    0x3000: 'ideographic space',
  };
  if (special[cp]) return `${hex} (${special[cp]})`;
  if (cp < 0x20 || cp === 0x7f) return `${hex} (control character)`;
  return `'${ch}' ${hex}`;
}

/** Tokens of text[start, end). Throws Refusal with the offset of the first thing it cannot read. */
export function tokenize(text: string, start = 0, end = text.length): Token[] {
  return [...tokenStream(text, start, end)];
}

/**
 * The tokens one at a time, so that a parser reading them refuses at the first problem in reading order
 * (a syntax error on line 1 is reported before an unterminated string on line 3).
 */
export function* tokenStream(text: string, start = 0, end = text.length): Generator<Token, void, void> {
  let count = 0;
  const indents: number[] = [];
  const brackets: { ch: string; at: number }[] = [];
  let i = start;
  let atLineStart = true;
  let lineHasTokens = false;

  const check = (t: Token): Token => {
    if (++count > MAX_TOKENS)
      throw new Refusal(t.at, `the code is too long (more than ${MAX_TOKENS} tokens)`);
    return t;
  };

  while (i < end) {
    if (atLineStart && brackets.length === 0) {
      // Measure the indentation of a new logical line; blank and comment-only lines do not count.
      let col = 0;
      let j = i;
      for (; j < end; j++) {
        const ch = text[j];
        if (ch === ' ') col++;
        else if (ch === '\t') col = (Math.floor(col / 8) + 1) * 8;
        else if (ch === '\f') col = 0;
        else break;
      }
      if (j >= end) {
        i = j;
        break;
      }
      if (text[j] === '\n') {
        i = j + 1;
        continue;
      }
      if (text[j] === '#') {
        while (j < end && text[j] !== '\n') j++;
        i = j;
        continue;
      }
      atLineStart = false;
      if (indents.length === 0) indents.push(col);
      else if (col > indents[indents.length - 1]) {
        indents.push(col);
        yield check({ kind: 'INDENT', text: '', at: j, end: j });
      } else {
        while (col < indents[indents.length - 1]) {
          indents.pop();
          if (indents.length === 0 || col > indents[indents.length - 1]) {
            throw new Refusal(j, 'unindent does not match any outer indentation level');
          }
          yield check({ kind: 'DEDENT', text: '', at: j, end: j });
        }
      }
      i = j;
      continue;
    }

    const ch = text[i];
    const c = text.charCodeAt(i);
    if (ch === ' ' || ch === '\t' || ch === '\f') {
      i++;
      continue;
    }
    if (ch === '#') {
      while (i < end && text[i] !== '\n') i++;
      continue;
    }
    if (ch === '\n') {
      if (brackets.length === 0) {
        if (lineHasTokens) yield check({ kind: 'NEWLINE', text: '\n', at: i, end: i + 1 });
        lineHasTokens = false;
        atLineStart = true;
      }
      i++;
      continue;
    }
    if (ch === '\\') {
      if (i + 1 < end && text[i + 1] === '\n') {
        i += 2;
        continue;
      }
      if (i + 1 >= end) throw new Refusal(i, 'unexpected end of code after a line continuation backslash');
      throw new Refusal(i, 'unexpected character after line continuation character');
    }
    lineHasTokens = true;

    if (isNameStart(c)) {
      let j = i + 1;
      while (j < end && isNameChar(text.charCodeAt(j))) j++;
      const word = text.slice(i, j);
      if (j < end && (text[j] === "'" || text[j] === '"') && /^(r|u|f|b|br|rb|fr|rf)$/i.test(word)) {
        const t = readString(text, i, j, end, word.toLowerCase());
        yield check(t);
        i = t.end;
        continue;
      }
      if (j < end && text.charCodeAt(j) > 0x7f) {
        throw new Refusal(
          j,
          `non-ASCII character ${describeChar(String.fromCodePoint(text.codePointAt(j) ?? 0))} in a name: names must be plain ASCII`,
        );
      }
      yield check({ kind: 'NAME', text: word, at: i, end: j });
      i = j;
      continue;
    }
    if (isDigit(c) || (ch === '.' && i + 1 < end && isDigit(text.charCodeAt(i + 1)))) {
      const t = readNumber(text, i, end);
      yield check(t);
      i = t.end;
      continue;
    }
    if (ch === "'" || ch === '"') {
      const t = readString(text, i, i, end, '');
      yield check(t);
      i = t.end;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i) && i + o.length <= end);
    if (op !== undefined) {
      if (OPEN.has(op)) {
        if (brackets.length >= 32) throw new Refusal(i, 'brackets are nested too deeply');
        brackets.push({ ch: op, at: i });
      } else if (CLOSE[op] !== undefined) {
        const open = brackets.pop();
        if (open === undefined) throw new Refusal(i, `unmatched '${op}'`);
        if (open.ch !== CLOSE[op])
          throw new Refusal(i, `closing '${op}' does not match the opening '${open.ch}'`);
      }
      yield check({ kind: 'OP', text: op, at: i, end: i + op.length });
      i += op.length;
      continue;
    }
    if (c > 0x7f) {
      const full = String.fromCodePoint(text.codePointAt(i) ?? c);
      const hint = /[\u2018\u2019\u201c\u201d]/.test(full)
        ? ': use plain ASCII quotes \' or "'
        : ': code outside strings must be plain ASCII Python';
      throw new Refusal(i, `non-ASCII character ${describeChar(full)} outside a string${hint}`);
    }
    if (ch === '`')
      throw new Refusal(i, "unexpected backtick '`': code blocks are fenced with ``` on their own lines");
    throw new Refusal(i, `unexpected character ${describeChar(ch)}`);
  }

  if (brackets.length > 0) {
    const open = brackets[brackets.length - 1];
    throw new Refusal(open.at, `'${open.ch}' is never closed`);
  }
  if (lineHasTokens) yield check({ kind: 'NEWLINE', text: '', at: end, end });
  for (let k = 1; k < indents.length; k++) yield check({ kind: 'DEDENT', text: '', at: end, end });
  yield { kind: 'END', text: '', at: end, end };
}

function readNumber(text: string, start: number, end: number): Token {
  let i = start;
  const peek = (k = 0): string => (i + k < end ? text[i + k] : '');
  const digits = (pred: (ch: string) => boolean): string => {
    let out = '';
    while (i < end) {
      const ch = text[i];
      if (pred(ch)) out += ch;
      else if (ch === '_' && pred(peek(1)) && out.length > 0) {
        // digit separator
      } else break;
      i++;
    }
    return out;
  };
  const dec = (ch: string): boolean => ch >= '0' && ch <= '9';
  let value: number;
  let isInt = true;
  if (peek() === '0' && /[xXoObB]/.test(peek(1))) {
    const base = peek(1).toLowerCase();
    i += 2;
    const pred =
      base === 'x'
        ? isHex
        : base === 'o'
          ? (ch: string) => ch >= '0' && ch <= '7'
          : (ch: string) => ch === '0' || ch === '1';
    const ds = digits(pred);
    if (ds === '') throw new Refusal(start, `invalid number literal '${text.slice(start, i + 1)}'`);
    value = parseInt(ds, base === 'x' ? 16 : base === 'o' ? 8 : 2);
  } else {
    const intPart = digits(dec);
    let frac = '';
    let exp = '';
    if (peek() === '.' && !(peek(1) === '.' && peek(2) === '.')) {
      i++;
      isInt = false;
      frac = digits(dec);
    }
    if (/[eE]/.test(peek()) && (dec(peek(1)) || (/[+-]/.test(peek(1)) && dec(peek(2))))) {
      isInt = false;
      i++;
      let sign = '';
      if (/[+-]/.test(peek())) sign = text[i++];
      exp = sign + digits(dec);
    }
    if (isInt && intPart.length > 1 && intPart.startsWith('0') && /[1-9]/.test(intPart)) {
      throw new Refusal(start, `leading zeros in a number ('${intPart}') are not allowed in Python`);
    }
    value = Number(
      `${intPart || '0'}${frac !== '' || !isInt ? '.' + (frac || '0') : ''}${exp !== '' ? 'e' + exp : ''}`,
    );
  }
  if (/[jJ]/.test(peek())) throw new Refusal(start, 'complex numbers are not allowed');
  if (i < end && (isNameChar(text.charCodeAt(i)) || text[i] === '.')) {
    throw new Refusal(i, `invalid number literal '${text.slice(start, i + 1)}'`);
  }
  if (!Number.isFinite(value)) throw new Refusal(start, 'number is too large');
  return { kind: 'NUMBER', text: text.slice(start, i), value, isInt, at: start, end: i };
}

function readString(text: string, start: number, quoteAt: number, end: number, prefix: string): Token {
  if (prefix.includes('f')) {
    throw new Refusal(start, 'f-strings are not allowed: write the text as a plain string literal');
  }
  if (prefix.includes('b'))
    throw new Refusal(start, 'bytes literals are not allowed: write a plain string literal');
  const raw = prefix.includes('r');
  const q = text[quoteAt];
  const triple = text.startsWith(q + q + q, quoteAt) && quoteAt + 3 <= end;
  let i = quoteAt + (triple ? 3 : 1);
  let out = '';
  for (;;) {
    if (i >= end)
      throw new Refusal(start, triple ? 'unterminated triple-quoted string' : 'unterminated string literal');
    const ch = text[i];
    if (triple) {
      if (text.startsWith(q + q + q, i) && i + 3 <= end)
        return { kind: 'STRING', text: out, at: start, end: i + 3 };
    } else if (ch === q) {
      return { kind: 'STRING', text: out, at: start, end: i + 1 };
    } else if (ch === '\n') {
      throw new Refusal(
        start,
        'unterminated string literal (a line end inside a quoted string; use \\n or triple quotes)',
      );
    }
    if (ch !== '\\') {
      out += ch;
      i++;
      continue;
    }
    // A backslash.
    if (i + 1 >= end) throw new Refusal(start, 'unterminated string literal');
    const nx = text[i + 1];
    if (raw) {
      // In raw strings a backslash escapes nothing but still keeps the next character from ending the string.
      out += '\\' + nx;
      i += 2;
      continue;
    }
    i += 2;
    switch (nx) {
      case '\n':
        break;
      case '\\':
      case "'":
      case '"':
        out += nx;
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
      case 'u':
      case 'U': {
        const n = nx === 'x' ? 2 : nx === 'u' ? 4 : 8;
        const hex = text.slice(i, i + n);
        if (hex.length !== n || i + n > end || ![...hex].every(isHex)) {
          throw new Refusal(i - 2, `truncated \\${nx} escape: it needs ${n} hex digits`);
        }
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) throw new Refusal(i - 2, `\\${nx}${hex} is not a valid character`);
        out += String.fromCodePoint(cp);
        i += n;
        break;
      }
      case 'N':
        throw new Refusal(
          i - 2,
          'named escapes \\N{...} are not supported: put the character itself in the string',
        );
      default:
        if (nx >= '0' && nx <= '7') {
          let oct = nx;
          while (oct.length < 3 && i < end && text[i] >= '0' && text[i] <= '7') oct += text[i++];
          out += String.fromCodePoint(parseInt(oct, 8));
        } else {
          // Python keeps unknown escapes as they are.
          out += '\\' + nx;
        }
    }
  }
}
