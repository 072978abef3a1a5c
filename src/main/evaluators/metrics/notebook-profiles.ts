// Notebook metrics as Spider2-V (jupyterlab.py) and the native format's evaluators (eval/jupyter.py) grade them.
// Both read notebooks with nbformat, which joins sources and texts stored as lists of lines; after that:
// Spider2-V compares outputs as whole dicts (execution counts and metadata count) and `compare_ipynb_files`
// compares the top-level items pairwise in file order; the native evaluators strip sources, keep only stdout
// streams and text/plain data, and compare a sanitised notebook. The robust variants are in notebook.ts.
import { isDeepStrictEqual } from 'node:util';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { registerDeparture, variants } from '../profile';
import { brief, isRecord, readText } from './inputs';
import { expectedIndices, joined, readNotebook, type Cell } from './notebook';
import { pyStrip } from './pandas-frame';

/** nbformat's rejoin_lines on one output: `text` and every non-JSON mime value stored as lines are joined. */
function nbOutput(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...o };
  if ('text' in o) out.text = joined(o.text);
  if (isRecord(o.data))
    out.data = Object.fromEntries(
      Object.entries(o.data).map(([k, v]) => [
        k,
        k === 'application/json' || k.endsWith('+json') ? v : joined(v),
      ]),
    );
  return out;
}

async function pair(result: unknown, expected: unknown) {
  const r = await readNotebook(result, 'result');
  if (typeof r === 'string') return r;
  const e = await readNotebook(expected, 'expected');
  if (typeof e === 'string') return e;
  if (r.cells.length !== e.cells.length) return `${r.cells.length} cells, expected ${e.cells.length}`;
  return { r, e };
}

/** Walks the cells of two notebooks of equal length: same types, then `code(a, b, i)` for code cells. */
async function eachCodeCell(
  result: unknown,
  expected: unknown,
  code: (a: Cell, b: Cell, i: number) => string | undefined,
  done: string,
): Promise<MetricOutcome> {
  const nb = await pair(result, expected);
  if (typeof nb === 'string') return fail(nb);
  for (let i = 0; i < nb.r.cells.length; i++) {
    const a = nb.r.cells[i];
    const b = nb.e.cells[i];
    if (a.cell_type !== b.cell_type) return fail(`cell ${i} is ${a.cell_type}, expected ${b.cell_type}`);
    if (a.cell_type !== 'code') continue;
    const why = code(a, b, i);
    if (why) return fail(why);
  }
  return pass(done);
}

/** compare_notebook_outputs, Spider2-V: every output of every code cell equal as a whole dict — execution
 * counts, metadata and images included. */
function compareOutputsSpider2v(result: unknown, expected: unknown): Promise<MetricOutcome> {
  return eachCodeCell(
    result,
    expected,
    (a, b, i) => {
      if (a.outputs.length !== b.outputs.length)
        return `cell ${i} has ${a.outputs.length} outputs, expected ${b.outputs.length}`;
      for (let j = 0; j < a.outputs.length; j++) {
        const x = nbOutput(a.outputs[j]);
        const y = nbOutput(b.outputs[j]);
        if (!isDeepStrictEqual(x, y))
          return `cell ${i} output ${j} differs as a whole (execution_count and metadata count): got ${brief(x)}, expected ${brief(y)}`;
      }
      return undefined;
    },
    'every output equals the expected one as a whole',
  );
}

const stdout = (o: Record<string, unknown>) => 'name' in o && o.name === 'stdout';
const plainData = (o: Record<string, unknown>) => isRecord(o.data) && 'text/plain' in o.data;

/** compare_notebook_outputs, native: per code cell only stdout streams (on the result side without pip's
 * "Requirement already satisfied" / "Successfully installed") and outputs with text/plain data; streams equal as
 * whole dicts, data by text/plain only. Errors, images and other streams are not compared. */
function compareOutputsNative(result: unknown, expected: unknown): Promise<MetricOutcome> {
  return eachCodeCell(
    result,
    expected,
    (a, b, i) => {
      const pip = (o: Record<string, unknown>) => {
        const t = String(joined(o.text) ?? '');
        return t.includes('Requirement already satisfied:') || t.includes('Successfully installed');
      };
      const ra = a.outputs.map(nbOutput).filter((o) => (stdout(o) && !pip(o)) || plainData(o));
      const rb = b.outputs.map(nbOutput).filter((o) => stdout(o) || plainData(o));
      if (ra.length !== rb.length)
        return `cell ${i} has ${ra.length} stdout / text/plain outputs, expected ${rb.length}`;
      for (let j = 0; j < ra.length; j++) {
        if ('name' in ra[j] && !isDeepStrictEqual(ra[j], rb[j]))
          return `cell ${i} stream ${j} differs: got ${brief(ra[j])}, expected ${brief(rb[j])}`;
        if (isRecord(ra[j].data)) {
          const x = (ra[j].data as Record<string, unknown>)['text/plain'];
          const y = isRecord(rb[j].data) ? (rb[j].data as Record<string, unknown>)['text/plain'] : undefined;
          if (!isDeepStrictEqual(x, y))
            return `cell ${i} output ${j} text/plain differs: got ${brief(x)}, expected ${brief(y)}`;
        }
      }
      return undefined;
    },
    'stdout and text/plain outputs match',
  );
}

/** compare_notebook_cells, native: same cell types and sources equal after `strip()`. */
async function compareCellsNative(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const nb = await pair(result, expected);
  if (typeof nb === 'string') return fail(nb);
  for (let i = 0; i < nb.r.cells.length; i++) {
    const a = nb.r.cells[i];
    const b = nb.e.cells[i];
    if (a.cell_type !== b.cell_type || pyStrip(a.source) !== pyStrip(b.source))
      return fail(
        `cell ${i} type or stripped source differs: got '${brief(a.source)}', expected '${brief(b.source)}'`,
      );
  }
  return pass(`all ${nb.r.cells.length} cells match (sources stripped)`);
}

/** compare_ipynb_files, Spider2-V: the raw JSON's top-level items zipped in file order (extra items of the longer
 * file are never looked at); keys must pair up and every value but `metadata` be equal — cells whole, ids,
 * cell metadata and execution counts included. */
async function compareIpynbSpider2v(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const parse = async (p: unknown) => {
    try {
      const v = JSON.parse((await readText(p)) ?? '') as unknown;
      return isRecord(v) ? v : undefined;
    } catch {
      return undefined;
    }
  };
  const a = await parse(result);
  const b = await parse(expected);
  if (!a || !b) return fail(`${a ? 'expected' : 'result'} notebook is not a JSON object`);
  const ea = Object.entries(a);
  const eb = Object.entries(b);
  for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
    if (ea[i][0] !== eb[i][0])
      return fail(`top-level key ${i} is '${ea[i][0]}', expected '${eb[i][0]}' (compared in file order)`);
    if (ea[i][0] !== 'metadata' && !isDeepStrictEqual(ea[i][1], eb[i][1]))
      return fail(`'${ea[i][0]}' differs (cells compared whole: ids, metadata, execution counts)`);
  }
  return pass('top-level items equal pairwise, metadata aside');
}

/** compare_ipynb_files, native: a sanitised notebook — per cell its type and stripped source, and for code
 * cells the stripped `text` of its outputs joined by newlines — equal. */
async function compareIpynbNative(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const sanitise = (cells: Cell[]) =>
    cells.map((c) => ({
      cell_type: c.cell_type,
      source: pyStrip(c.source),
      ...(c.cell_type === 'code'
        ? {
            outputs: c.outputs
              .filter((o) => 'text' in o)
              .map((o) => pyStrip(String(joined(o.text))))
              .join('\n'),
          }
        : {}),
    }));
  const r = await readNotebook(result, 'result');
  if (typeof r === 'string') return fail(r);
  const e = await readNotebook(expected, 'expected');
  if (typeof e === 'string') return fail(e);
  const a = sanitise(r.cells);
  const b = sanitise(e.cells);
  return verdict(
    isDeepStrictEqual(a, b),
    `sanitised notebooks are equal (${a.length} cells)`,
    `sanitised notebooks differ: got ${brief(a)}, expected ${brief(b)}`,
  );
}

/** are_jupyter_outputs_cleared, Spider2-V: the cells "with output" are those with an execution count. */
async function outputsClearedSpider2v(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  return cleared(result, expected, options, (c) => Boolean(c.execution_count), false);
}

/** are_jupyter_outputs_cleared, native: the cells with an output holding text, data or an error; compared sorted. */
async function outputsClearedNative(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  return cleared(
    result,
    expected,
    options,
    (c) => c.outputs.some((o) => 'text' in o || 'data' in o || 'ename' in o),
    true,
  );
}

async function cleared(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  has: (c: Cell) => boolean,
  sorted: boolean,
): Promise<MetricOutcome> {
  const nb = await readNotebook(result, 'result');
  if (typeof nb === 'string') return fail(nb);
  const want = expectedIndices(expected);
  if (typeof want === 'string') return fail(want);
  const type = String(options.cell_type ?? 'code');
  let kept = nb.cells.flatMap((c, i) => (c.cell_type === type && has(c) ? [i] : []));
  let w = want;
  if (sorted) {
    kept = [...kept].sort((x, y) => x - y);
    w = [...want].sort((x, y) => x - y);
  }
  return verdict(
    isDeepStrictEqual(kept, w),
    `cells with output: ${brief(w)}`,
    `cells ${brief(kept)} have output, expected ${brief(w)}`,
  );
}

const diagnoseNotebook = async (result: unknown, expected: unknown): Promise<string | undefined> => {
  const nb = await pair(result, expected);
  if (typeof nb === 'string') return 'notebook reading';
  for (let i = 0; i < nb.r.cells.length; i++) {
    const a = nb.r.cells[i];
    const b = nb.e.cells[i];
    if (a.source !== b.source && pyStrip(a.source) === pyStrip(b.source))
      return 'whitespace around a cell source';
    if (a.execution_count !== b.execution_count) return 'execution counts';
    if (!isDeepStrictEqual(a.raw.metadata, b.raw.metadata) || a.raw.id !== b.raw.id)
      return 'cell ids or metadata';
    if (a.outputs.length !== b.outputs.length)
      return 'outputs not compared by one reading (errors, images, other streams)';
  }
  return 'output details';
};

/** Why the readings of "cleared" disagree: a cell keeps outputs without an execution count, or the reverse. */
async function diagnoseCleared(result: unknown): Promise<string | undefined> {
  const nb = await readNotebook(result, 'result');
  if (typeof nb === 'string') return undefined;
  if (nb.cells.some((c) => !c.execution_count && c.outputs.length))
    return 'outputs kept without an execution count';
  if (nb.cells.some((c) => c.execution_count && !c.outputs.length))
    return 'an execution count without outputs';
  return 'outputs without text, data or error';
}

variants
  .register('compare_notebook_outputs', {
    spider2v: compareOutputsSpider2v,
    native: compareOutputsNative,
    diagnose: diagnoseNotebook,
  })
  .register('compare_notebook_cells', { native: compareCellsNative, diagnose: diagnoseNotebook })
  .register('compare_ipynb_files', {
    spider2v: compareIpynbSpider2v,
    native: compareIpynbNative,
    diagnose: diagnoseNotebook,
  })
  .register('are_jupyter_outputs_cleared', {
    spider2v: outputsClearedSpider2v,
    native: outputsClearedNative,
    diagnose: diagnoseCleared,
  });

registerDeparture({
  metric: 'compare_notebook_outputs',
  profile: 'all',
  case: 'notebooks older than nbformat 4, or with invalid cells',
  why: 'nbformat upgrades v3 notebooks and validates them; Proctor reads nbformat 4 JSON as it is',
});
