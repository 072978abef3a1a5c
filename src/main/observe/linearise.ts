// The accessibility table an agent reads: one tab-separated row per node (OSWorld's layout), cut at a row
// boundary to a token budget counted with a real tokenizer (cl100k_base, whose ranks ship with js-tiktoken).
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import type { AccessibilityNode } from '../env/environment';

export const TABLE_HEADER = 'tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)';
export const MARKED_TABLE_HEADER = `index\t${TABLE_HEADER}`;
/** The last line of a table cut to fit its budget. */
export const CUT_MARK = '[...]';

let encoder: Tiktoken | undefined;

/** Builds the tokenizer now (half a second of CPU, once per process) rather than in the first observation. */
export function warmTokenizer(): void {
  encoder ??= new Tiktoken(cl100k);
}

/** Tokens in `text` (cl100k_base). Special-token text in untrusted input is counted as plain text. */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(cl100k);
  return encoder.encode(text, [], []).length;
}

/** Rows repeat from one step to the next; their counts are kept (bounded). */
const rowCache = new Map<string, number>();
function rowTokens(row: string): number {
  let n = rowCache.get(row);
  if (n === undefined) {
    if (rowCache.size >= 50_000) rowCache.clear();
    n = countTokens(row);
    rowCache.set(row, n);
  }
  return n;
}

export interface LineariseOptions {
  /** Tokens the whole table (header and cut mark included) may take. Default 5000. */
  tokenBudget?: number;
  /** Adds a leading `index` column numbering the rows 1..N, the Set-of-Mark numbers. */
  withMarks?: boolean;
  /** Cap on one cell's characters (a whole document's text would eat the budget). Default 1000. */
  maxCellChars?: number;
}

export interface LinearisedTree {
  table: string;
  /** The nodes whose rows made it into the table, in order. */
  kept: AccessibilityNode[];
  truncated: boolean;
}

/** One cell: single line, capped; quoted CSV-style when it holds a double quote (as OSWorld does). */
function cell(value: string | undefined, max: number): string {
  let s = (value ?? '').replace(/\r\n?|\n/g, '\\n').replace(/\t/g, ' ');
  if (s.length > max) s = `${s.slice(0, max)}…`;
  return s.includes('"') ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A node's row, without the index column. */
export function tableRow(node: AccessibilityNode, maxCellChars = 1000): string {
  return [
    node.role,
    cell(node.name, maxCellChars),
    node.text ? cell(node.text, maxCellChars) : '""',
    cell(node.className, maxCellChars),
    cell(node.description, maxCellChars),
    `(${Math.round(node.x)}, ${Math.round(node.y)})`,
    `(${Math.round(node.width)}, ${Math.round(node.height)})`,
  ].join('\t');
}

/**
 * Linearises `nodes` as given (already filtered and flattened, see filterNodes) into the table, keeping
 * whole rows in order while they fit the token budget.
 */
export function lineariseTree(nodes: AccessibilityNode[], opts: LineariseOptions = {}): LinearisedTree {
  const budget = opts.tokenBudget ?? 5000;
  const max = opts.maxCellChars ?? 1000;
  const header = opts.withMarks ? MARKED_TABLE_HEADER : TABLE_HEADER;
  const rows = nodes.map((n, i) => (opts.withMarks ? `${i + 1}\t` : '') + tableRow(n, max));
  const join = (count: number, cut: boolean) =>
    [header, ...rows.slice(0, count), ...(cut ? [CUT_MARK] : [])].join('\n');

  // Every line ends with `)` and the tokenizer merges `)\n` into one token, so the table costs the sum of
  // its lines' own tokens. The whole table is counted once at the end to make sure, dropping rows in the
  // rare case a boundary merged otherwise (a cell's text can run into the next chunk).
  const reserve = countTokens(`)\n${CUT_MARK}`) - countTokens(')');
  let used = countTokens(header);
  let count = 0;
  for (const row of rows) {
    const cost = rowTokens(row);
    if (used + cost > budget - (count + 1 < rows.length ? reserve : 0)) break;
    used += cost;
    count++;
  }
  let table = join(count, count < rows.length);
  while (count > 0 && countTokens(table) > budget) {
    count--;
    table = join(count, true);
  }
  const truncated = count < rows.length;
  return { table, kept: nodes.slice(0, count), truncated };
}
