// JSON from untrusted files, bounded: a nesting depth and a size limit are checked before JSON.parse, so a
// 100,000-deep document is refused with its place instead of overflowing the stack of whatever walks it later
// (JSON.stringify of an API answer, a schema validator, a UI renderer).

/** Deeper than this is no file Proctor or the tools it reads write; JSON.stringify is safe far beyond it. */
export const MAX_JSON_DEPTH = 512;
/** Larger JSON documents than this are not read whole. */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;

export class JsonLimitError extends SyntaxError {}

/** The 1-based line and column of `index` in `text`. */
function placeOf(text: string, index: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: index - start + 1 };
}

/**
 * Throws JsonLimitError when `text` nests arrays/objects deeper than `maxDepth` (counted outside strings) or is
 * longer than `maxBytes` characters. Linear, no allocation; short texts cannot be too deep and are not scanned.
 */
export function checkJsonBounds(text: string, maxDepth = MAX_JSON_DEPTH, maxBytes = MAX_JSON_BYTES): void {
  if (text.length > maxBytes)
    throw new JsonLimitError(
      `JSON text of ${text.length} characters is larger than the limit of ${maxBytes}`,
    );
  if (text.length <= 2 * maxDepth) return;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) {
        const { line, col } = placeOf(text, i);
        throw new JsonLimitError(`JSON nested deeper than ${maxDepth} levels (line ${line}, column ${col})`);
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/** JSON.parse after checkJsonBounds; throws a SyntaxError (or JsonLimitError) naming the place. */
export function parseBoundedJson<T = unknown>(
  text: string,
  maxDepth = MAX_JSON_DEPTH,
  maxBytes = MAX_JSON_BYTES,
): T {
  checkJsonBounds(text, maxDepth, maxBytes);
  return JSON.parse(text) as T;
}
