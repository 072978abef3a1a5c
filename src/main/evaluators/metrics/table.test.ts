import { afterAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { copyFixture, runMetric, seedTaskDir, tempDir } from '../testing/fixtures';
import { hasLibreOffice, saveManyWithLibreOffice } from '../testing/libreoffice';
import { tryMetric } from '../try-metric';

const tmp = tempDir();
afterAll(tmp.cleanup);

describe('compare_csv on the real gold CSV', () => {
  const gold = join(seedTaskDir('00b43a0a'), 'gold.csv');
  it('passes for the same records in another order, quoted, with CRLF, when ignore_order', async () => {
    const shuffled = copyFixture(gold, tmp.dir, 'shuffled.csv', (t) => {
      const [head, ...rows] = t.trim().split(/\r?\n/);
      return (
        [
          head,
          ...rows.reverse().map((r) =>
            r
              .split(',')
              .map((c) => `"${c}"`)
              .join(','),
          ),
        ].join('\r\n') + '\r\n'
      );
    });
    expect((await runMetric('compare_csv', shuffled, gold, { ignore_order: true })).score).toBe(1);
    expect((await runMetric('compare_csv', shuffled, gold, {})).score).toBe(0);
  });
  it('fails on a changed value or a missing row, naming the record', async () => {
    const changed = copyFixture(gold, tmp.dir, 'changed.csv', (t) => t.replace('Winter,22', 'Winter,23'));
    const r = await runMetric('compare_csv', changed, gold, { ignore_order: true });
    expect(r.score).toBe(0);
    expect(r.reason).toMatch(/record \d+ differs/);
    const fewer = copyFixture(gold, tmp.dir, 'fewer.csv', (t) => t.replace(/Winter,22\r?\n/, ''));
    expect((await runMetric('compare_csv', fewer, gold)).reason).toMatch(/records, expected/);
  });
  it('strict=false trims cells, ignore_case folds case; a missing file scores 0', async () => {
    const spaced = copyFixture(gold, tmp.dir, 'spaced.csv', (t) => t.replace('Winter', ' WINTER '));
    expect((await runMetric('compare_csv', spaced, gold, { strict: false, ignore_case: true })).score).toBe(
      1,
    );
    expect((await runMetric('compare_csv', spaced, gold, {})).score).toBe(0);
    expect((await runMetric('compare_csv', join(tmp.dir, 'none.csv'), gold)).reason).toContain(
      'cannot be read',
    );
  });
});

async function book(name: string, build: (wb: ExcelJS.Workbook) => void): Promise<string> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  const p = join(tmp.dir, name);
  await wb.xlsx.writeFile(p);
  return p;
}

describe('compare_table (xlsx)', () => {
  const sales = (wb: ExcelJS.Workbook, total: number | { formula: string; result: number }) => {
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['Rep', 'Q1', 'Q2', 'Total']);
    ws.addRow(['Ann', 1.00001, 2, total]);
    ws.getCell('A1').font = { bold: true, color: { argb: 'FFFFFFFF' } };
    ws.getCell('A1').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF0000FF' } };
  };
  it('sheet_data: formula results equal typed values; numbers compared to 4 decimals', async () => {
    const gold = await book('gold.xlsx', (wb) => sales(wb, 3.00001));
    const res = await book('res.xlsx', (wb) => sales(wb, { formula: 'B2+C2', result: 3.000012 }));
    const rules = [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }];
    expect((await runMetric('compare_table', res, gold, { rules })).score).toBe(1);
    const wrong = await book('wrong.xlsx', (wb) => sales(wb, 4));
    const r = await runMetric('compare_table', wrong, gold, { rules });
    expect(r.score).toBe(0);
    expect(r.reason).toContain('row 2 differs');
  });
  it('sheet references by name, missing sheets, unknown rule types', async () => {
    const gold = await book('gold2.xlsx', (wb) => sales(wb, 3));
    expect(
      (
        await runMetric('compare_table', gold, gold, {
          rules: [{ type: 'sheet_data', sheet_idx0: 'RNSheet1', sheet_idx1: 'ENSheet1' }],
        })
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric('compare_table', gold, gold, {
          rules: [{ type: 'sheet_data', sheet_idx0: 'RNSheet9', sheet_idx1: 'EI0' }],
        })
      ).reason,
    ).toContain('does not exist');
    expect(
      (
        await runMetric('compare_table', gold, gold, {
          rules: [{ type: 'conditional_format', sheet_idx0: 0, sheet_idx1: 'EI0' }],
        })
      ).reason,
    ).toContain("unknown rule type 'conditional_format'");
    expect(
      (
        await runMetric('compare_table', join(tmp.dir, 'none.xlsx'), gold, {
          rules: [{ type: 'sheet_name' }],
        })
      ).score,
    ).toBe(0);
  });
  it('style and check_cell read fonts and fills', async () => {
    const gold = await book('gold3.xlsx', (wb) => sales(wb, 3));
    const plain = await book('plain.xlsx', (wb) => {
      sales(wb, 3);
      wb.getWorksheet('Sheet1')!.getCell('A1').font = { bold: false };
    });
    const style = [
      { type: 'style', sheet_idx0: 0, sheet_idx1: 'EI0', props: ['font_bold', 'font_color', 'bgcolor'] },
    ];
    expect((await runMetric('compare_table', gold, gold, { rules: style })).score).toBe(1);
    expect((await runMetric('compare_table', plain, gold, { rules: style })).reason).toContain(
      'style of A1 differs',
    );
    const cell = [
      {
        type: 'check_cell',
        sheet_idx: 'RNSheet1',
        coordinate: 'A1',
        props: {
          bgcolor: { method: 'eq', ref: 'FF0000FF' },
          font_bold: { method: 'eq', ref: true },
          value: { method: 'eq', ref: 'Rep' },
        },
      },
    ];
    expect((await runMetric('compare_table', gold, undefined, { rules: cell })).score).toBe(1);
    expect((await runMetric('compare_table', plain, undefined, { rules: cell })).reason).toContain(
      'A1.font_bold',
    );
  });
});

describe("compare_table sheet_data rounds both sides to the rule's precision (Spider2-V's table.py: DataFrame.round(precision), 4 by default)", () => {
  const values = (wb: ExcelJS.Workbook, x: number) => {
    const ws = wb.addWorksheet('Sheet1');
    ws.addRows([
      ['Item', 'Rate'],
      ['a', x],
      ['b', 1.5],
    ]);
  };
  const data = (precision?: number) => ({
    rules: [
      {
        type: 'sheet_data',
        sheet_idx0: 0,
        sheet_idx1: 'EI0',
        ...(precision === undefined ? {} : { precision }),
      },
    ],
  });
  const scores = async (result: string, expected: string, options: Record<string, unknown>) => ({
    spider2v: (await tryMetric('compare_table', result, expected, options, 'spider2v')).score,
    osworld: (await tryMetric('compare_table', result, expected, options, 'osworld')).score,
    robust: (await runMetric('compare_table', result, expected, options)).score,
  });

  it('exceljs workbooks: 2.50001 against 2.5 is equal at 4 decimals, not at 5; precision 1 makes 2.54 equal to 2.5', async () => {
    const gold = await book('p-gold.xlsx', (wb) => values(wb, 2.5));
    const near = await book('p-near.xlsx', (wb) => values(wb, 2.50001));
    const far = await book('p-far.xlsx', (wb) => values(wb, 2.54));
    expect(await scores(near, gold, data())).toEqual({ spider2v: 1, osworld: 1, robust: 1 });
    expect(await scores(near, gold, data(5))).toEqual({ spider2v: 0, osworld: 0, robust: 0 });
    expect(await scores(far, gold, data())).toEqual({ spider2v: 0, osworld: 0, robust: 0 });
    expect(await scores(far, gold, data(1))).toEqual({ spider2v: 1, osworld: 1, robust: 1 });
  });

  it.skipIf(!hasLibreOffice)(
    'workbooks saved by LibreOffice Calc: the same (skipped without soffice)',
    async () => {
      const table = (x: string) =>
        `<html><body><table><tr><td>Item</td><td>Rate</td></tr><tr><td>a</td><td>${x}</td></tr><tr><td>b</td><td>1.5</td></tr></table></body></html>`;
      const saved = saveManyWithLibreOffice(
        tmp.dir,
        { 'lo-gold': table('2.5'), 'lo-near': table('2.50001'), 'lo-far': table('2.54') },
        'xlsx',
      );
      expect(await scores(saved['lo-near'], saved['lo-gold'], data())).toEqual({
        spider2v: 1,
        osworld: 1,
        robust: 1,
      });
      expect(await scores(saved['lo-near'], saved['lo-gold'], data(5))).toEqual({
        spider2v: 0,
        osworld: 0,
        robust: 0,
      });
      expect(await scores(saved['lo-far'], saved['lo-gold'], data())).toEqual({
        spider2v: 0,
        osworld: 0,
        robust: 0,
      });
      expect(await scores(saved['lo-far'], saved['lo-gold'], data(1))).toEqual({
        spider2v: 1,
        osworld: 1,
        robust: 1,
      });
    },
    120_000,
  );
});
