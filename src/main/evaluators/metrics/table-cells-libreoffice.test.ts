// compare_table's cells as OSWorld reads them, on workbooks the real LibreOffice Calc wrote (flat ODF
// spreadsheets converted to xlsx by headless soffice): check_cell's read_cell_value (numbers are floats, text
// stays text, booleans are None) and sheet_data's pandas frames (DataFrame.equals: dtypes first, then Python ==).
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures';
import { convertWithLibreOffice, hasLibreOffice } from '../testing/libreoffice';
import { tryMetric } from '../try-metric';
import { osworldCellValue } from './xlsx-cell-value';

const tmp = tempDir();
afterAll(tmp.cleanup);

/** A cell of the flat ODF sheet: a number, text, a boolean (with Calc's boolean format), a formula with its cached
 * result, or empty. */
type Cell =
  number | string | boolean | { formula: string; type: 'float' | 'string' | 'boolean'; value: string } | null;

function fods(rows: Cell[][], mergeFirst = false): string {
  const cell = (c: Cell): string => {
    if (c === null) return '<table:table-cell/>';
    if (typeof c === 'number')
      return `<table:table-cell office:value-type="float" office:value="${c}"><text:p>${c}</text:p></table:table-cell>`;
    if (typeof c === 'string')
      return `<table:table-cell office:value-type="string"><text:p>${c}</text:p></table:table-cell>`;
    if (typeof c === 'boolean')
      return `<table:table-cell table:style-name="ce1" office:value-type="boolean" office:boolean-value="${c}"><text:p>${c ? 'TRUE' : 'FALSE'}</text:p></table:table-cell>`;
    const value =
      c.type === 'float'
        ? `office:value="${c.value}"`
        : c.type === 'string'
          ? `office:string-value="${c.value}"`
          : `office:boolean-value="${c.value}"`;
    return `<table:table-cell table:formula="of:=${c.formula}" office:value-type="${c.type}" ${value}><text:p>${c.value}</text:p></table:table-cell>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:automatic-styles><number:boolean-style style:name="N99"><number:boolean/></number:boolean-style><style:style style:name="ce1" style:family="table-cell" style:data-style-name="N99"/></office:automatic-styles>
<office:body><office:spreadsheet><table:table table:name="Sheet1">
${rows.map((r, i) => `<table:table-row>${(mergeFirst && i === 0 ? [cell(r[0]).replace('<table:table-cell ', '<table:table-cell table:number-columns-spanned="2" '), `<table:covered-table-cell office:value-type="string"><text:p>${String(r[1])}</text:p></table:covered-table-cell>`] : r.map(cell)).join('')}</table:table-row>`).join('\n')}
</table:table></office:spreadsheet></office:body></office:document>`;
}

const books: Record<string, Cell[][]> = {
  cells: [
    [
      123,
      '123',
      true,
      { formula: '[.A1]*2', type: 'float', value: '246' },
      { formula: '&quot;x&quot;&amp;[.B1]', type: 'string', value: 'x123' },
      { formula: '1/0', type: 'float', value: '0' },
      { formula: '1=1', type: 'boolean', value: 'true' },
      2.5,
      null,
      'after',
    ],
  ],
  flagsBool: [['flag'], [true], [false]],
  flagsInt: [['flag'], [1], [0]],
  mixedBool: [['flag'], ['x'], [true]],
  mixedInt: [['flag'], ['x'], [1]],
  textNumbers: [['n'], ['123'], ['4.5']],
  numbers: [['n'], [123], [4.5]],
  mergedHeader: [
    ['Name', 'covered'],
    ['a', 'b'],
  ],
  blankHeader: [
    ['Name', null],
    ['a', 'b'],
  ],
};
/** Books whose first row's first cell spans two columns (a merged header). */
const merged = new Set(['mergedHeader']);

const saved: Record<string, string> = {};
beforeAll(() => {
  if (!hasLibreOffice) return;
  const src = join(tmp.dir, 'src');
  const out = join(tmp.dir, 'xlsx');
  mkdirSync(src, { recursive: true });
  const inputs = Object.entries(books).map(([name, rows]) => {
    const p = join(src, `${name}.fods`);
    writeFileSync(p, fods(rows, merged.has(name)));
    saved[name] = join(out, `${name}.xlsx`);
    return p;
  });
  convertWithLibreOffice(tmp.dir, inputs, 'xlsx:Calc MS Excel 2007 XML', out);
}, 200_000);

describe.skipIf(!hasLibreOffice)(
  "check_cell reads a cell as OSWorld's read_cell_value does (workbooks saved by LibreOffice Calc)",
  () => {
    const table: [string, string, unknown][] = [
      ['a number is a Python float (123 → 123.0)', 'A1', 123],
      ["a number stored as text stays the str '123' (no conversion)", 'B1', '123'],
      ['a TRUE in Calc\'s boolean format (t="b") has no branch upstream: None', 'C1', null],
      ['a formula reads as its cached number', 'D1', 246],
      ['a text formula (t="str") reads as its cached text', 'E1', 'x123'],
      ['an error cell (t="e") reads as its code', 'F1', '#DIV/0!'],
      ['a boolean formula\'s result (t="b"): None', 'G1', null],
      ['a fraction stays a float', 'H1', 2.5],
      ['an empty cell: None', 'I1', null],
      ['a coordinate written in lower case matches no r attribute: None', 'a1', null],
    ];
    it.each(table)('%s', async (_name, coordinate, value) => {
      expect(await osworldCellValue(saved.cells, 'Sheet1', coordinate)).toEqual(value);
    });

    it('a sheet that is not in the workbook reads as None', async () => {
      expect(await osworldCellValue(saved.cells, 'Nope', 'A1')).toBeNull();
    });

    const rule = (coordinate: string, method: string, ref: unknown) => ({
      rules: [{ type: 'check_cell', sheet_idx: 0, coordinate, props: { value: { method, ref } } }],
    });
    it("OSWorld scores a boolean cell's `eq true` 0 (None == True is False); the robust reading passes it and the verdict is flagged", async () => {
      const t = await tryMetric('compare_table', saved.cells, undefined, rule('G1', 'eq', true), 'osworld');
      expect(t.score).toBe(0);
      expect(t.reason).toMatch(/G1\.value read as OSWorld reads it \(None\)/);
      expect(t.second_opinion.score).toBe(1);
      expect(t.brittle).toMatch(/check_cell/);
    });

    it("Python: '123' == 123 is False — a number stored as text (Calc's text cell '123') checked with `eq 123` scores 0, as openpyxl reads text", async () => {
      const t = await tryMetric('compare_table', saved.cells, undefined, rule('B1', 'eq', 123), 'osworld');
      expect(t.score).toBe(0);
      expect(t.reason).toMatch(/B1\.value read as OSWorld reads it \('123'\): '123' != 123/);
      expect(
        (await tryMetric('compare_table', saved.cells, undefined, rule('B1', 'eq', '123'), 'osworld')).score,
      ).toBe(1);
    });

    it("Python prints read_cell_value's numbers as floats: str(123.0) is '123.0', and 123.0 == 123", async () => {
      const t = await tryMetric('compare_table', saved.cells, undefined, rule('A1', 'eq', 124), 'osworld');
      expect(t.score).toBe(0);
      expect(t.reason).toMatch(/A1\.value read as OSWorld reads it \(123\.0\): 123\.0 != 124/);
      // re.search on a float raises TypeError: the check fails
      expect(
        (await tryMetric('compare_table', saved.cells, undefined, rule('A1', 're', '123'), 'osworld')).score,
      ).toBe(0);
    });

    it('numbers, formulas and text pass where upstream passes them', async () => {
      for (const [coordinate, method, ref] of [
        ['A1', 'eq', 123],
        ['D1', 'ge', 200],
        ['E1', 're', '^x1'],
        ['F1', 'eq', '#DIV/0!'],
      ] as const) {
        const t = await tryMetric(
          'compare_table',
          saved.cells,
          undefined,
          rule(coordinate, method, ref),
          'osworld',
        );
        expect([coordinate, t.score]).toEqual([coordinate, 1]);
      }
      expect(
        (await tryMetric('compare_table', saved.cells, undefined, rule('A1', 'eq', 124), 'osworld')).score,
      ).toBe(0);
    });
  },
);

describe.skipIf(!hasLibreOffice)(
  'sheet_data compares pandas frames as pandas 2.2 does (workbooks saved by LibreOffice Calc)',
  () => {
    const data = { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }] };
    const cases: [string, string, string, number][] = [
      [
        'a bool column (TRUE/FALSE) against an int64 column (1/0): DataFrame.equals needs equal dtypes → 0',
        'flagsBool',
        'flagsInt',
        0,
      ],
      ['object columns compare with Python == (True == 1) → 1', 'mixedBool', 'mixedInt', 1],
      ["read_excel infers numbers in text cells ('123' == 123) → 1", 'textNumbers', 'numbers', 1],
      ['the same booleans → 1', 'flagsBool', 'flagsBool', 1],
      [
        'a merged header cell: openpyxl reads the covered cell as empty, so its label is "Unnamed: 1" → 1 against a blank header',
        'mergedHeader',
        'blankHeader',
        1,
      ],
    ];
    it.each(cases)('%s', async (_name, result, expected, score) => {
      expect((await tryMetric('compare_table', saved[result], saved[expected], data, 'osworld')).score).toBe(
        score,
      );
    });
  },
);

describe('read_cell_value on parts no Calc file has (a package the test writes)', () => {
  const main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  let book = '';
  beforeAll(async () => {
    const zip = new JSZip();
    zip.file(
      'xl/workbook.xml',
      `<workbook ${main}><sheets><sheet name="Data" sheetId="3"/><sheet name="Gone" sheetId="7"/></sheets></workbook>`,
    );
    zip.file(
      'xl/sharedStrings.xml',
      `<sst ${main}><si><t>first</t></si><si><r><t>rich </t></r><r><t>text</t></r></si></sst>`,
    );
    const cells = [
      '<c r="A1" t="inlineStr"><is><t>plain</t></is></c>',
      '<c r="B1" t="inlineStr"><is><t xml:space="preserve"> spaced</t></is></c>',
      '<c r="C1" t="inlineStr"><is><r><t>run</t></r></is></c>',
      '<c r="D1" t="s"><v>-1</v></c>',
      '<c r="E1" t="d"><v>2024-01-05T00:00:00</v></c>',
      '<c r="F1" t="n"><v>1e3</v></c>',
      '<c r="G1" s="2"/>',
    ];
    zip.file(
      'xl/worksheets/sheet3.xml',
      `<worksheet ${main}><sheetData><row r="1">${cells.join('')}</row></sheetData></worksheet>`,
    );
    book = join(tmp.dir, 'parts.xlsx');
    writeFileSync(book, await zip.generateAsync({ type: 'nodebuffer' }));
  });
  const table: [string, string, string, unknown][] = [
    ['an inline string is its text', 'Data', 'A1', 'plain'],
    [
      'an inline <t> with xml:space is the dict xmltodict makes',
      'Data',
      'B1',
      { '@http://www.w3.org/XML/1998/namespace:space': 'preserve', '#text': ' spaced' },
    ],
    ['an inline rich string has no is/t: None', 'Data', 'C1', null],
    ['a shared string index -1 is the last string, rich runs joined', 'Data', 'D1', 'rich text'],
    ['an ISO date cell (t="d") has no branch: None', 'Data', 'E1', null],
    ['a number in e-notation is float(v)', 'Data', 'F1', 1000],
    ['a styled cell without <v>: None', 'Data', 'G1', null],
    ['the sheet part is found by sheetId (sheet7.xml is absent): None', 'Gone', 'A1', null],
  ];
  it.each(table)('%s', async (_name, sheet, coordinate, value) => {
    expect(await osworldCellValue(book, sheet, coordinate)).toEqual(value);
  });
});
