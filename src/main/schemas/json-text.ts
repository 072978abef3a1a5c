// Parse JSON text with positions: a syntax error comes back as line:col (1-based), never a bare offset.

export interface JsonSyntaxError {
  line: number;
  col: number;
  message: string;
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError };

/** 1-based line and column of a character offset in `text`. */
export function lineColOf(text: string, offset: number): { line: number; col: number } {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: at - lineStart + 1 };
}

/** Parse JSON; on a syntax error report where it is (a leading BOM is ignored, offsets stay true to the text). */
export function parseJsonText(text: string): JsonParse {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const body = bom ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    const raw = e instanceof Error ? e.message : String(e);
    const message = raw.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
    const lc = /line (\d+) column (\d+)/.exec(raw);
    if (lc) return { ok: false, error: { line: Number(lc[1]), col: Number(lc[2]), message } };
    const pos = /at position (\d+)/.exec(raw);
    const offset = pos ? Number(pos[1]) + bom : /end of (JSON )?input/i.test(raw) ? text.length : 0;
    return { ok: false, error: { ...lineColOf(text, offset), message } };
  }
}

/** Escape one JSON pointer token (RFC 6901). */
export function pointerToken(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(...keys: Array<string | number>): string {
  return keys.map((k) => '/' + pointerToken(k)).join('');
}

/** How deep Proctor reads JSON: deeper documents are reported, never walked (validators recurse). */
export const maxJsonDepth = 200;

/** Whether `value` nests arrays/objects more than `limit` levels deep; iterative, so any depth is safe. */
export function nestedDeeperThan(value: unknown, limit: number = maxJsonDepth): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** `null`, `a number`, `a list`…: what a JSON value is, for messages. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
