// What an attempt's model calls cost: the bundled price table (resources/pricing.json), the run's per-model
// overrides (`--price MODEL=IN,OUT`, `--prices FILE`), and the agent's own per-turn costs (config-file prices).
import { readJsonFile } from '../store/files';
import { priceOf, priceTableProblems, type ModelPrice, type PriceTable } from '../price-table';
import bundled from '../../../resources/pricing.json';

/** The bundled list prices (USD per million tokens), checked once. */
export function bundledPrices(): PriceTable {
  const problems = priceTableProblems(bundled.prices, '/prices');
  if (problems.length) throw new Error(`resources/pricing.json: ${problems.join('; ')}`);
  return bundled.prices as PriceTable;
}

/** `MODEL=IN,OUT` (USD per million input and output tokens) → [model, price]; throws naming what is wrong. */
export function parsePriceFlag(text: string): [string, ModelPrice] {
  const m = /^([^=\s]+)=(\d+(?:\.\d+)?|\.\d+),(\d+(?:\.\d+)?|\.\d+)$/.exec(text.trim());
  if (!m)
    throw new Error(
      `--price '${text}': MODEL=IN,OUT in US dollars per million input and output tokens, e.g. gpt-4o=2.5,10`,
    );
  return [m[1], { input: Number(m[2]), output: Number(m[3]) }];
}

/** A price table file: `{"<model>": {"input": …, "output": …}}` or an object with `prices` (the bundled file, a config file). */
export function readPricesFile(file: string): PriceTable {
  const { value, problem } = readJsonFile<unknown>(file);
  if (problem) throw new Error(`--prices ${file}: ${problem.message}`);
  if (value === undefined) throw new Error(`--prices ${file}: no such file`);
  const wrapped = typeof value === 'object' && value !== null && !Array.isArray(value) && 'prices' in value;
  const table = wrapped ? (value as { prices: unknown }).prices : value;
  const problems = priceTableProblems(table, wrapped ? '/prices' : '');
  if (problems.length) throw new Error(`--prices ${file}: ${problems.join('; ')}`);
  return table as PriceTable;
}

/**
 * The model cost of an attempt in USD: the run's override for the model first, then what the agent priced its own
 * turns at (its config file's prices), then the bundled table; undefined when none knows the model.
 */
export function attemptUsd(
  model: string | undefined,
  tokens: { prompt: number; completion: number },
  agentUsd: number | undefined,
  overrides: PriceTable | undefined,
): number | undefined {
  const price = (model && priceOf(overrides, model)) || undefined;
  if (price) return usdOf(price, tokens);
  if (agentUsd !== undefined) return agentUsd;
  const listed = model ? priceOf(bundledPrices(), model) : undefined;
  return listed ? usdOf(listed, tokens) : undefined;
}

function usdOf(price: ModelPrice, tokens: { prompt: number; completion: number }): number {
  return (tokens.prompt * price.input + tokens.completion * price.output) / 1_000_000;
}
