import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { copyFixture, runMetric, seedTaskDir, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);
type Nb = { cells: Array<Record<string, unknown>>; metadata?: Record<string, unknown> };
const edit = (f: (nb: Nb) => void) => (text: string) => {
  const nb = JSON.parse(text) as Nb;
  f(nb);
  return JSON.stringify(nb, null, 1);
};

describe('compare_notebook_outputs on the AdaBoost gold notebook', () => {
  const gold = join(seedTaskDir('1fe7d03d'), 'AdaBoost_gold.ipynb');
  it('passes for a copy re-run with other execution counts', async () => {
    const rerun = copyFixture(
      gold,
      tmp.dir,
      'rerun.ipynb',
      edit((nb) => nb.cells.forEach((c, i) => c.cell_type === 'code' && (c.execution_count = 100 + i))),
    );
    expect((await runMetric('compare_notebook_outputs', rerun, gold)).score).toBe(1);
  });
  it('fails when an output differs or is missing, and names the cell', async () => {
    const last = (nb: Nb) => nb.cells[nb.cells.length - 1] as { outputs: Array<Record<string, unknown>> };
    const changed = copyFixture(
      gold,
      tmp.dir,
      'changed.ipynb',
      edit((nb) => {
        const o = last(nb).outputs[0];
        if (o.text) o.text = ['0.5\n'];
        else o.data = { 'text/plain': ['0.5'] };
      }),
    );
    const r = await runMetric('compare_notebook_outputs', changed, gold);
    expect(r.score).toBe(0);
    expect(r.reason).toMatch(/cell 12 output 0 differs/);
    const unrun = copyFixture(
      gold,
      tmp.dir,
      'unrun.ipynb',
      edit((nb) => (last(nb).outputs = [])),
    );
    expect((await runMetric('compare_notebook_outputs', unrun, gold)).reason).toContain(
      'cell 12 has 0 outputs, expected 1',
    );
  });
  it('scores 0 with a reason for a missing or broken notebook', async () => {
    expect((await runMetric('compare_notebook_outputs', join(tmp.dir, 'none.ipynb'), gold)).reason).toContain(
      'cannot be read',
    );
    const broken = copyFixture(gold, tmp.dir, 'broken.ipynb', (t) => t.slice(0, 50));
    expect((await runMetric('compare_notebook_outputs', broken, gold)).reason).toContain('not JSON');
  });
});

describe('compare_notebook_cells and compare_ipynb_files', () => {
  const gold = join(seedTaskDir('040af931'), 'logistic_regression_gold.ipynb');
  it('cells: equal sources pass, an edited source fails', async () => {
    const same = copyFixture(
      gold,
      tmp.dir,
      'lr.ipynb',
      edit((nb) =>
        nb.cells.forEach(
          (c) => (c.source = [String(Array.isArray(c.source) ? c.source.join('') : c.source)]),
        ),
      ),
    );
    expect((await runMetric('compare_notebook_cells', same, gold)).score).toBe(1);
    const edited = copyFixture(
      gold,
      tmp.dir,
      'lr2.ipynb',
      edit((nb) => (nb.cells[0].source = ['# changed'])),
    );
    expect((await runMetric('compare_notebook_cells', edited, gold)).reason).toContain(
      'cell 0 source differs',
    );
    const shorter = copyFixture(
      gold,
      tmp.dir,
      'lr3.ipynb',
      edit((nb) => nb.cells.pop()),
    );
    expect((await runMetric('compare_notebook_cells', shorter, gold)).score).toBe(0);
  });
  it('ipynb files: metadata and cell ids ignored, execution counts not', async () => {
    const submission = join(seedTaskDir('6e8e092e'), 'submission_gold.ipynb');
    const meta = copyFixture(
      submission,
      tmp.dir,
      'sub.ipynb',
      edit((nb) => {
        nb.metadata = { kernelspec: { name: 'other' } };
        nb.cells.forEach((c, i) => (c.id = `id-${i}`));
      }),
    );
    expect((await runMetric('compare_ipynb_files', meta, submission)).score).toBe(1);
    const counted = copyFixture(
      submission,
      tmp.dir,
      'sub2.ipynb',
      edit((nb) => {
        const code = nb.cells.find((c) => c.cell_type === 'code')!;
        code.execution_count = 999;
      }),
    );
    expect((await runMetric('compare_ipynb_files', counted, submission)).score).toBe(0);
  });
});

describe('cell execution state', () => {
  const nbPath = join(seedTaskDir('575a50fd'), 'linear_regression.ipynb');
  it('is_jupyter_cell_executed: [] means every code cell executed', async () => {
    const all = copyFixture(
      nbPath,
      tmp.dir,
      'exec.ipynb',
      edit((nb) => nb.cells.forEach((c, i) => c.cell_type === 'code' && (c.execution_count = i + 1))),
    );
    expect((await runMetric('is_jupyter_cell_executed', all, { expected: [] })).score).toBe(1);
    const one = copyFixture(
      nbPath,
      tmp.dir,
      'exec2.ipynb',
      edit((nb) => {
        nb.cells.forEach((c, i) => c.cell_type === 'code' && (c.execution_count = i + 1));
        const i = nb.cells.findIndex((c) => c.cell_type === 'code');
        nb.cells[i].execution_count = null;
      }),
    );
    const r = await runMetric('is_jupyter_cell_executed', one, { expected: [] });
    expect(r.score).toBe(0);
    expect((await runMetric('is_jupyter_cell_executed', one, { expected: 'x' })).reason).toContain(
      'list of cell indices',
    );
  });
  it('are_jupyter_outputs_cleared: outputs or execution counts left count as not cleared', async () => {
    const cleared = copyFixture(
      nbPath,
      tmp.dir,
      'clr.ipynb',
      edit((nb) =>
        nb.cells.forEach((c) => c.cell_type === 'code' && ((c.execution_count = null), (c.outputs = []))),
      ),
    );
    expect((await runMetric('are_jupyter_outputs_cleared', cleared, { expected: [] })).score).toBe(1);
    const left = copyFixture(
      nbPath,
      tmp.dir,
      'clr2.ipynb',
      edit((nb) =>
        nb.cells.forEach(
          (c) =>
            c.cell_type === 'code' &&
            ((c.execution_count = null),
            (c.outputs = [{ output_type: 'stream', name: 'stdout', text: ['x'] }])),
        ),
      ),
    );
    expect((await runMetric('are_jupyter_outputs_cleared', left, { expected: [] })).score).toBe(0);
  });
});
