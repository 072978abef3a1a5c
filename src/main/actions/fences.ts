// Where the code is in a model reply, following OSWorld's parse_code_from_string: fenced blocks (```python,
// ```, ```WAIT```, several blocks) are the code and prose around them is ignored; the bare tokens WAIT / DONE /
// FAIL count alone in the reply, inside a block, or on a line of their own between blocks. A reply without any
// fence is read whole as code (so stray prose there is refused, with a hint to use a fence).
// This reads the reply's markdown structure only; the code itself goes to the Python tokenizer.
import { Refusal } from './refusal';

export type Piece =
  | { kind: 'code'; start: number; end: number; fenced: boolean; lang: string }
  | { kind: 'token'; token: 'WAIT' | 'DONE' | 'FAIL'; at: number };

const TOKENS = new Set(['WAIT', 'DONE', 'FAIL']);
const FENCE = '```';

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /^[A-Za-z0-9_]$/.test(ch);
}
function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n';
}

/** Bare tokens on lines of their own in text[start, end). */
function tokensOutside(text: string, start: number, end: number): Piece[] {
  const out: Piece[] = [];
  let lineStart = start;
  while (lineStart < end) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0 || lineEnd > end) lineEnd = end;
    const line = text.slice(lineStart, lineEnd);
    const word = line.trim();
    if (TOKENS.has(word))
      out.push({
        kind: 'token',
        token: word as 'WAIT' | 'DONE' | 'FAIL',
        at: lineStart + line.indexOf(word),
      });
    lineStart = lineEnd + 1;
  }
  return out;
}

/**
 * The pieces of a reply in order. `languages` are the fence tags read as code (lower-case; '' = no tag); a block
 * with another tag is refused so that nothing in a reply is silently skipped.
 */
export function splitReply(text: string, languages: ReadonlySet<string>): Piece[] {
  const trimmed = text.trim();
  if (TOKENS.has(trimmed))
    return [{ kind: 'token', token: trimmed as 'WAIT' | 'DONE' | 'FAIL', at: text.indexOf(trimmed) }];
  const first = text.indexOf(FENCE);
  if (first < 0) return [{ kind: 'code', start: 0, end: text.length, fenced: false, lang: '' }];

  const pieces: Piece[] = [];
  let pos = 0;
  for (;;) {
    const open = text.indexOf(FENCE, pos);
    if (open < 0) {
      pieces.push(...tokensOutside(text, pos, text.length));
      break;
    }
    pieces.push(...tokensOutside(text, pos, open));
    let i = open + FENCE.length;
    while (text[i] === '`') i++;
    const fence = text.slice(open, i); // a block opened with ```` closes with ````
    // An info word followed by white space is the language tag (```python\n); otherwise the block starts here.
    let j = i;
    while (isWordChar(text[j])) j++;
    let lang = '';
    let contentStart = i;
    const word = text.slice(i, j);
    if (j > i && isSpace(text[j]) && !TOKENS.has(word)) {
      lang = word.toLowerCase();
      contentStart = j;
    } else if (j > i && text[j] === '-') {
      // tags like ```python-repl: read the whole tag
      while (j < text.length && !isSpace(text[j])) j++;
      lang = text.slice(i, j).toLowerCase();
      contentStart = j;
    }
    const close = text.indexOf(fence, contentStart);
    if (close < 0) {
      throw new Refusal(
        open,
        'this code block is never closed with ```: nothing was performed (was the reply cut off?)',
      );
    }
    if (!languages.has(lang)) {
      throw new Refusal(
        open,
        `a \`\`\`${lang} block cannot be performed: only ${[...languages]
          .filter((l) => l)
          .map((l) => '```' + l)
          .join(' / ')} or plain \`\`\` blocks are read, and the whole reply was refused`,
      );
    }
    pieces.push({ kind: 'code', start: contentStart, end: close, fenced: true, lang });
    pos = close + fence.length;
  }
  return pieces;
}
