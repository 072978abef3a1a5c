// A Calc sheet's visible cells read as a grid (sheet-cells.ts) against each cell read as an object of its own (the
// earlier walk), on a real workbook in GUI LibreOffice on the sandbox display: the same nodes, names, texts and
// states, boxes within a pixel, at the top of the sheet, with a range selected, and far down where the data ends.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessibilityNode } from '../../environment';
import { flattenTree } from '../../../observe/filter';
import { createLocalEnvironment, type LocalEnvironment } from '../local-environment';
import { settleWindowGeometry, waitForWindowTitle } from '../openers';
import { killWindowOwner, officeGuiMissingHere } from '../testing/office-docs';
import { poll } from '../testing/poll';
import { collectAtspiTree } from './atspi';
import { cellAddress, columnName } from './sheet-cells';

describe('cell addresses', () => {
  it('names columns as a spreadsheet does', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702, 16383].map(columnName)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ]);
    expect(cellAddress(0, 0)).toBe('A1');
    expect(cellAddress(4999, 29)).toBe('AD5000');
  });
});

/**
 * A sheet with something in most cells of A1:N300 (text, numbers, a formula, a wrapped long text), a wide column,
 * a tall row, merged blocks (one inside, one on the first row, one on the first column), and a cluster far
 * off-screen around AD5000; a second sheet of its own texts.
 */
async function workbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (let r = 1; r <= 300; r++) {
    for (let c = 1; c <= 14; c++) {
      if ((r * 7 + c) % 3 === 0) continue; // a third left empty, scattered
      const cell = ws.getCell(r, c);
      if (c % 4 === 0) cell.value = r * 1.25 + c;
      else if (c % 4 === 1) cell.value = `t${r}-${c}`;
      else if (c % 4 === 2) cell.value = r * 100 + c;
      else cell.value = { formula: `B${r}*2`, result: (r * 100 + 2) * 2 };
    }
  }
  ws.getColumn(3).width = 30;
  ws.getRow(5).height = 40;
  ws.getCell('H7').value = 'a long text that wraps over several lines in its cell';
  ws.getCell('H7').alignment = { wrapText: true };
  ws.mergeCells('E10:G11');
  ws.getCell('E10').value = 'merged block';
  // merged blocks on the first row and column, where the grid is measured
  ws.mergeCells('J1:K1');
  ws.getCell('J1').value = 'title over J and K';
  ws.mergeCells('A20:A21');
  ws.getCell('A20').value = 'two rows';
  for (let r = 4990; r <= 5000; r++)
    for (let c = 26; c <= 30; c++)
      if ((r + c) % 2) ws.getCell(r, c).value = `far ${cellAddress(r - 1, c - 1)}`;
  const second = wb.addWorksheet('Sheet2');
  for (let r = 1; r <= 30; r++)
    for (let c = 1; c <= 5; c++) second.getCell(r, c).value = `s2 ${cellAddress(r - 1, c - 1)}`;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const TITLE = 'Grid-fast.xlsx - LibreOffice Calc';
const cellsOf = (tree: AccessibilityNode[]) => flattenTree(tree).filter((n) => n.role === 'table-cell');

/** Every node of both trees side by side: the same order, roles, names, texts, states; boxes within a pixel. */
function expectSameTree(grid: AccessibilityNode[], walk: AccessibilityNode[]): void {
  const a = flattenTree(grid);
  const b = flattenTree(walk);
  const label = (n: AccessibilityNode) =>
    `${n.role} ${n.name} ${JSON.stringify(n.text ?? '')} [${n.states.join(',')}] ${n.app ?? ''}`;
  expect(a.map(label)).toEqual(b.map(label));
  a.forEach((n, i) => {
    const m = b[i];
    const off = Math.max(
      Math.abs(n.x - m.x),
      Math.abs(n.y - m.y),
      Math.abs(n.width - m.width),
      Math.abs(n.height - m.height),
    );
    expect(
      off,
      `${label(n)}: ${[n.x, n.y, n.width, n.height]} vs ${[m.x, m.y, m.width, m.height]}`,
    ).toBeLessThanOrEqual(1);
  });
}

describe.skipIf(!!officeGuiMissingHere)(`a Calc sheet read as a grid ${officeGuiMissingHere}`, () => {
  let env: LocalEnvironment;
  let dbusAddress: string;
  const read = (tableCells: 'grid' | 'walk') =>
    collectAtspiTree({ dbusAddress, hostAddress: env.sandbox?.hostAddress, tableCells, timeoutMs: 30_000 });
  /** Both ways, twice over until two grid reads agree (Calc may still be repainting after a key). */
  const both = async (): Promise<[AccessibilityNode[], AccessibilityNode[]]> => {
    let grid = await read('grid');
    for (let i = 0; i < 5; i++) {
      const walk = await read('walk');
      const again = await read('grid');
      if (JSON.stringify(again) === JSON.stringify(grid)) return [again, walk];
      grid = again;
    }
    throw new Error('the sheet kept changing between reads');
  };

  beforeAll(async () => {
    env = await createLocalEnvironment({ width: 1600, height: 900 });
    dbusAddress = env.sandbox?.hostEnv.DBUS_SESSION_BUS_ADDRESS ?? env.displayEnv.DBUS_SESSION_BUS_ADDRESS;
    await env.putFile('/home/user/Grid-fast.xlsx', await workbook());
    await env.open('/home/user/Grid-fast.xlsx');
    await waitForWindowTitle(env, TITLE, { timeoutMs: 60_000 });
    await settleWindowGeometry(env, TITLE);
    await poll(
      'the sheet cells in the accessibility tree',
      30_000,
      async () => {
        const cells = cellsOf(await read('grid'));
        return cells.some((c) => c.name === 'A1') && cells.some((c) => c.name === 'N30') ? true : undefined;
      },
      300,
    );
  }, 120_000);

  afterAll(async () => {
    if (env) await killWindowOwner(env, TITLE).catch(() => undefined);
    await env?.close();
  });

  it('gives the same tree as the cell-by-cell walk at the top of the sheet, with the cursor on an empty cell', async () => {
    // B1 is empty ((1*7+2) % 3 == 0): where typing goes, so it is shown
    await env.perform([
      { type: 'hotkey', keys: ['ctrl', 'home'] },
      { type: 'press', keys: ['right'] },
    ]);
    await poll('the cursor on B1', 15_000, async () =>
      cellsOf(await read('grid')).some((c) => c.name === 'B1' && c.states.includes('focused'))
        ? true
        : undefined,
    );
    const [grid, walk] = await both();
    expectSameTree(grid, walk);
    const cells = new Map(cellsOf(grid).map((c) => [c.name, c]));
    expect(cells.size).toBeGreaterThan(150);
    expect(cells.get('B1')).toMatchObject({ states: expect.arrayContaining(['focused']) });
    expect(cells.get('B1')!.text).toBeUndefined();
    expect(cells.get('A3')).toMatchObject({ text: 't3-1' });
    expect(cells.get('E10')).toMatchObject({ text: 'merged block' });
    expect(cells.get('E10')!.width).toBeGreaterThan(cells.get('E9')!.width * 2);
    expect(cells.get('J1')!.width).toBeGreaterThan(cells.get('J3')!.width * 1.5);
    expect(cells.get('A20')!.height).toBeGreaterThan(cells.get('A19')!.height * 1.5);
    expect(cells.get('H7')!.text).toContain('wraps');
    expect(cells.has('E1')).toBe(false); // empty and not the cursor: left out
    expect([...cells.keys()].some((n) => /^A[A-D]49\d\d$/.test(n))).toBe(false); // the far cluster is off-screen
    // the wide column and the tall row show in the boxes
    expect(cells.get('C2')!.width).toBeGreaterThan(cells.get('B2')!.width * 2);
    expect(cells.get('C5')!.height).toBeGreaterThan(cells.get('C4')!.height * 1.5);
  }, 120_000);

  it('gives the same tree with a range selected', async () => {
    await env.perform([
      { type: 'hotkey', keys: ['ctrl', 'home'] },
      { type: 'press', keys: ['down', 'down'] },
      { type: 'hotkey', keys: ['shift', 'right'] },
      { type: 'hotkey', keys: ['shift', 'right'] },
      { type: 'hotkey', keys: ['shift', 'down'] },
    ]);
    await poll('A3:C4 selected', 15_000, async () =>
      cellsOf(await read('grid')).filter((c) => c.states.includes('selected')).length >= 6 ? true : undefined,
    );
    const [grid, walk] = await both();
    expectSameTree(grid, walk);
  }, 120_000);

  it('gives the same tree far down the sheet, where the off-screen cluster now shows', async () => {
    await env.perform([{ type: 'hotkey', keys: ['ctrl', 'end'] }]);
    await poll('the view at AD5000', 15_000, async () =>
      cellsOf(await read('grid')).some((c) => c.name === 'AD5000') ? true : undefined,
    );
    const [grid, walk] = await both();
    expectSameTree(grid, walk);
    const cells = new Map(cellsOf(grid).map((c) => [c.name, c]));
    expect(cells.get('AD4999')).toMatchObject({ text: 'far AD4999' });
    expect(cells.has('A1')).toBe(false);
  }, 120_000);

  it("gives the other sheet's cells after a switch of sheets (the cells read early, of the sheet shown before, are not used)", async () => {
    await env.perform([{ type: 'hotkey', keys: ['ctrl', 'home'] }]);
    await poll('Sheet1 at A1', 15_000, async () =>
      cellsOf(await read('grid')).some((c) => c.name === 'A3' && c.text === 't3-1') ? true : undefined,
    );
    await env.perform([{ type: 'hotkey', keys: ['ctrl', 'pagedown'] }]);
    const cells = await poll("Sheet2's cells", 15_000, async () => {
      const c = cellsOf(await read('grid'));
      return c.some((x) => x.text === 's2 B2') ? c : undefined;
    });
    expect(cells.every((c) => !c.text || c.text.startsWith('s2 '))).toBe(true);
    const [grid, walk] = await both();
    expectSameTree(grid, walk);
    await env.perform([{ type: 'hotkey', keys: ['ctrl', 'pageup'] }]);
    await poll('Sheet1 again', 15_000, async () =>
      cellsOf(await read('grid')).some((c) => c.text === 't3-1') ? true : undefined,
    );
  }, 120_000);
});
