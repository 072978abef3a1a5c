// Jupyter notebook metrics (nbformat 4 JSON). Sources and outputs stored as lists of lines are joined first.
import { isDeepStrictEqual } from 'node:util';
import { fail, metrics, pass, verdict, type MetricOutcome } from '../metric';
import { brief, isRecord, readText } from './inputs';

export interface Cell {
  cell_type: string;
  source: string;
  execution_count?: number | null;
  outputs: Record<string, unknown>[];
  raw: Record<string, unknown>;
}

export function joined(v: unknown): unknown {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join('') : v;
}

/** Reads a notebook file; a string return is the reason it cannot be read. */
export async function readNotebook(
  path: unknown,
  side: 'result' | 'expected',
): Promise<{ raw: Record<string, unknown>; cells: Cell[] } | string> {
  const text = await readText(path);
  if (text === undefined) return `${side} notebook ${brief(path)} cannot be read`;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return `${side} notebook ${brief(path)} is not JSON: ${(e as Error).message}`;
  }
  if (!isRecord(raw) || !Array.isArray(raw.cells))
    return `${side} notebook ${brief(path)} has no 'cells' list`;
  const cells = raw.cells.map((c): Cell => {
    const r = isRecord(c) ? c : {};
    return {
      cell_type: String(r.cell_type ?? ''),
      source: String(joined(r.source) ?? ''),
      execution_count: typeof r.execution_count === 'number' ? r.execution_count : null,
      outputs: Array.isArray(r.outputs) ? r.outputs.filter(isRecord) : [],
      raw: r,
    };
  });
  return { raw, cells };
}

/** An output as compared: type, stream name and text, data by mime type (lines joined), error name and
 * value. `execution_count` and `metadata` are left out: re-running a notebook renumbers its cells. */
function outputKey(o: Record<string, unknown>): unknown {
  const data = isRecord(o.data)
    ? Object.fromEntries(Object.entries(o.data).map(([k, v]) => [k, joined(v)]))
    : undefined;
  return { type: o.output_type, name: o.name, text: joined(o.text), data, ename: o.ename, evalue: o.evalue };
}

async function both(result: unknown, expected: unknown) {
  const r = await readNotebook(result, 'result');
  if (typeof r === 'string') return r;
  const e = await readNotebook(expected, 'expected');
  if (typeof e === 'string') return e;
  return { r, e };
}

/**
 * compare_notebook_outputs — `result`, `expected`: notebook paths. 1 when both have the same number of
 * cells with the same types, and every code cell has the same outputs (type, stream text, data per mime
 * type including images, error name/value). Execution counts and output metadata are ignored.
 */
async function compareNotebookOutputs(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const nb = await both(result, expected);
  if (typeof nb === 'string') return fail(nb);
  const { r, e } = nb;
  if (r.cells.length !== e.cells.length) return fail(`${r.cells.length} cells, expected ${e.cells.length}`);
  for (let i = 0; i < r.cells.length; i++) {
    const a = r.cells[i];
    const b = e.cells[i];
    if (a.cell_type !== b.cell_type) return fail(`cell ${i} is ${a.cell_type}, expected ${b.cell_type}`);
    if (a.cell_type !== 'code') continue;
    if (a.outputs.length !== b.outputs.length)
      return fail(`cell ${i} has ${a.outputs.length} outputs, expected ${b.outputs.length}`);
    for (let j = 0; j < a.outputs.length; j++) {
      const ka = outputKey(a.outputs[j]);
      const kb = outputKey(b.outputs[j]);
      if (!isDeepStrictEqual(ka, kb))
        return fail(`cell ${i} output ${j} differs: got ${brief(ka)}, expected ${brief(kb)}`);
    }
  }
  return pass(`all ${r.cells.length} cells have the expected outputs`);
}

/**
 * compare_notebook_cells — `result`, `expected`: notebook paths. 1 when both have the same cells in the
 * same order: same type and exactly the same source text (outputs are not compared).
 */
async function compareNotebookCells(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const nb = await both(result, expected);
  if (typeof nb === 'string') return fail(nb);
  const { r, e } = nb;
  if (r.cells.length !== e.cells.length) return fail(`${r.cells.length} cells, expected ${e.cells.length}`);
  for (let i = 0; i < r.cells.length; i++) {
    if (r.cells[i].cell_type !== e.cells[i].cell_type)
      return fail(`cell ${i} is ${r.cells[i].cell_type}, expected ${e.cells[i].cell_type}`);
    if (r.cells[i].source !== e.cells[i].source)
      return fail(
        `cell ${i} source differs: got '${brief(r.cells[i].source)}', expected '${brief(e.cells[i].source)}'`,
      );
  }
  return pass(`all ${r.cells.length} cells match`);
}

/** A cell as compare_ipynb_files sees it: every field except `id` and `metadata`, lines joined. */
function wholeCell(c: Cell): unknown {
  const rest = Object.fromEntries(Object.entries(c.raw).filter(([k]) => k !== 'id' && k !== 'metadata'));
  return {
    ...rest,
    source: c.source,
    outputs:
      c.raw.outputs === undefined
        ? undefined
        : c.outputs.map((o) => ({
            ...o,
            text: joined(o.text),
            data: isRecord(o.data)
              ? Object.fromEntries(Object.entries(o.data).map(([k, v]) => [k, joined(v)]))
              : o.data,
          })),
  };
}

/**
 * compare_ipynb_files — `result`, `expected`: notebook paths. 1 when the notebooks are the same apart
 * from metadata: same top-level keys, same nbformat version, and identical cells (source, outputs and
 * execution counts). Notebook metadata and each cell's `id` and `metadata` are ignored (cell ids are
 * random and cell metadata is UI state); lines stored as lists compare equal to joined text.
 */
async function compareIpynbFiles(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const nb = await both(result, expected);
  if (typeof nb === 'string') return fail(nb);
  const { r, e } = nb;
  const keys = (o: Record<string, unknown>) => Object.keys(o).sort();
  if (!isDeepStrictEqual(keys(r.raw), keys(e.raw)))
    return fail(`top-level keys differ: ${keys(r.raw)} vs ${keys(e.raw)}`);
  for (const k of keys(r.raw)) {
    if (k === 'metadata' || k === 'cells') continue;
    if (!isDeepStrictEqual(r.raw[k], e.raw[k]))
      return fail(`'${k}' differs: ${brief(r.raw[k])} vs ${brief(e.raw[k])}`);
  }
  if (r.cells.length !== e.cells.length) return fail(`${r.cells.length} cells, expected ${e.cells.length}`);
  for (let i = 0; i < r.cells.length; i++) {
    const a = wholeCell(r.cells[i]);
    const b = wholeCell(e.cells[i]);
    if (!isDeepStrictEqual(a, b)) return fail(`cell ${i} differs: got ${brief(a)}, expected ${brief(b)}`);
  }
  return pass(`notebooks are identical apart from metadata (${r.cells.length} cells)`);
}

export function expectedIndices(expected: unknown): number[] | string {
  const v = isRecord(expected) && 'expected' in expected ? expected.expected : expected;
  if (!Array.isArray(v) || !v.every((x) => Number.isInteger(x)))
    return `expected must be a list of cell indices, got ${brief(v)}`;
  return v as number[];
}

/**
 * is_jupyter_cell_executed — `result`: notebook path; `expected`: `{expected: [indices]}`, the indices
 * (among all cells) of the cells of type `options.cell_type` (default `code`) that are allowed to be
 * unexecuted. 1 when the cells without an execution count are exactly those; `[]` = all executed.
 */
async function isJupyterCellExecuted(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const nb = await readNotebook(result, 'result');
  if (typeof nb === 'string') return fail(nb);
  const want = expectedIndices(expected);
  if (typeof want === 'string') return fail(want);
  const type = String(options.cell_type ?? 'code');
  const unexecuted = nb.cells.flatMap((c, i) => (c.cell_type === type && !c.execution_count ? [i] : []));
  return verdict(
    isDeepStrictEqual(unexecuted, want),
    `unexecuted ${type} cells are ${brief(want)}`,
    `unexecuted ${type} cells are ${brief(unexecuted)}, expected ${brief(want)}`,
  );
}

/**
 * are_jupyter_outputs_cleared — `result`: notebook path; `expected`: `{expected: [indices]}`, the cells of
 * type `options.cell_type` (default `code`) allowed to keep output. A cell is not cleared when it has an
 * execution count or any output (upstream looks only at the execution count). 1 when the not-cleared cells
 * are exactly the expected ones; `[]` = all cleared.
 */
async function areJupyterOutputsCleared(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const nb = await readNotebook(result, 'result');
  if (typeof nb === 'string') return fail(nb);
  const want = expectedIndices(expected);
  if (typeof want === 'string') return fail(want);
  const type = String(options.cell_type ?? 'code');
  const kept = nb.cells.flatMap((c, i) =>
    c.cell_type === type && (c.execution_count || c.outputs.length > 0) ? [i] : [],
  );
  return verdict(
    isDeepStrictEqual(kept, want),
    `cells with output: ${brief(want)}`,
    `cells ${brief(kept)} still have output, expected ${brief(want)}`,
  );
}

metrics
  .register('compare_notebook_outputs', compareNotebookOutputs)
  .register('compare_notebook_cells', compareNotebookCells)
  .register('compare_ipynb_files', compareIpynbFiles)
  .register('is_jupyter_cell_executed', isJupyterCellExecuted)
  .register('are_jupyter_outputs_cleared', areJupyterOutputsCleared);
