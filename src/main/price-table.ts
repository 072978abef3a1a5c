// Prices per model, to count cost per step. Unknown model → cost undefined (never a guess).

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Model name → price. A key ending in `*` matches by prefix (`gpt-4o*`). */
export type PriceTable = Record<string, ModelPrice>;

export function priceOf(table: PriceTable | undefined, model: string): ModelPrice | undefined {
  if (!table) return undefined;
  if (table[model]) return table[model];
  let best: { key: string; price: ModelPrice } | undefined;
  for (const [key, price] of Object.entries(table)) {
    if (key.endsWith('*') && model.startsWith(key.slice(0, -1)) && (!best || key.length > best.key.length))
      best = { key, price };
  }
  return best?.price;
}

export function costOf(
  table: PriceTable | undefined,
  model: string,
  tokens: { prompt: number; completion: number },
): number | undefined {
  const price = priceOf(table, model);
  if (!price) return undefined;
  return (tokens.prompt * price.input + tokens.completion * price.output) / 1_000_000;
}

/** Checks a price table read from a file; returns problems as `pointer: message`. */
export function priceTableProblems(value: unknown, pointer: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${pointer}: must be an object of model → {input, output} (USD per million tokens)`];
  const problems: string[] = [];
  for (const [model, price] of Object.entries(value)) {
    const p = price as Record<string, unknown> | null;
    const at = `${pointer}/${model.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (typeof p !== 'object' || p === null) problems.push(`${at}: must be {input, output}`);
    else
      for (const k of ['input', 'output'])
        if (typeof p[k] !== 'number' || !Number.isFinite(p[k]) || (p[k] as number) < 0)
          problems.push(`${at}/${k}: must be a non-negative number (USD per million tokens)`);
  }
  return problems;
}
