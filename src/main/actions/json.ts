// A strict JSON reader that keeps offsets, so a refusal can say where in the reply the problem is.
// (JSON.parse's messages carry no reliable position across Node versions.) Duplicate keys are refused.
import { Refusal } from './refusal';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface Located {
  value: JsonValue;
  /** Offsets of object members' values, keyed by JSON pointer ('' = the root). */
  places: Map<string, number>;
}

const MAX_DEPTH = 16;

export function readJson(text: string, start = 0, end = text.length): Located {
  const places = new Map<string, number>();
  let i = start;
  const ws = (): void => {
    while (i < end && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const fail = (msg: string, at = i): never => {
    throw new Refusal(at, msg);
  };
  const value = (pointer: string, depth: number): JsonValue => {
    ws();
    if (depth > MAX_DEPTH) fail('the JSON is nested too deeply');
    places.set(pointer, i);
    if (i >= end) fail('unexpected end of the JSON');
    const ch = text[i];
    if (ch === '{') {
      i++;
      const obj: { [key: string]: JsonValue } = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"')
          fail(
            text[i] === "'"
              ? 'JSON keys and strings must use double quotes "'
              : 'expected a "key" in the JSON object',
          );
        const keyAt = i;
        const key = str();
        if (Object.prototype.hasOwnProperty.call(obj, key)) fail(`the key "${key}" appears twice`, keyAt);
        ws();
        if (text[i] !== ':') fail("expected ':' after the key");
        i++;
        obj[key] = value(`${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === '}') fail('trailing commas are not allowed in JSON');
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail("expected ',' or '}' in the JSON object");
      }
    }
    if (ch === '[') {
      i++;
      const arr: JsonValue[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(`${pointer}/${arr.length}`, depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === ']') fail('trailing commas are not allowed in JSON');
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail("expected ',' or ']' in the JSON list");
      }
    }
    if (ch === '"') return str();
    if (ch === "'") fail('JSON strings must use double quotes "');
    if (ch === '-' || (ch >= '0' && ch <= '9')) return num();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    return fail(
      /[A-Za-z]/.test(ch)
        ? `unexpected word in the JSON (${/^(True|False|None)/.test(text.slice(i)) ? 'JSON writes true, false and null' : 'strings need double quotes'})`
        : `unexpected character '${ch}' in the JSON`,
    );
  };
  const num = (): number => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, Math.min(end, i + 400)));
    if (!m) return fail('invalid number in the JSON');
    i += m[0].length;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) fail('number is too large', i - m[0].length);
    return n;
  };
  const str = (): string => {
    const at = i;
    i++;
    let out = '';
    for (;;) {
      if (i >= end) fail('unterminated string in the JSON', at);
      const ch = text[i];
      if (ch === '"') {
        i++;
        return out;
      }
      if (ch === '\n') fail('a line end inside a JSON string (write \\n)', at);
      if (ch !== '\\') {
        out += ch;
        i++;
        continue;
      }
      const nx = text[i + 1];
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (nx !== undefined && simple[nx] !== undefined) {
        out += simple[nx];
        i += 2;
      } else if (nx === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        fail('invalid escape in a JSON string');
      }
    }
  };
  const v = value('', 0);
  ws();
  if (i < end) fail('unexpected text after the JSON value');
  return { value: v, places };
}
