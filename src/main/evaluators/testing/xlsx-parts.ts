// Test support: real xlsx files with charts, pivot tables, autofilters and sparklines. exceljs writes the cells
// (and what it can: hidden rows, widths, validations, views); the parts it cannot write are added to its zip as
// minimal OOXML, wired through [Content_Types].xml and the relationship parts the way Excel and LibreOffice do.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { convertWithLibreOffice } from './libreoffice';

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_XDR = 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

export interface SeriesSpec {
  /** Values range formula, e.g. `Sheet1!$B$2:$B$4`. */
  val: string;
  cat?: string;
  /** Series name cell, e.g. `Sheet1!$B$1`. */
  tx?: string;
}

export interface ChartSpec {
  /** Sheet the chart is drawn on. */
  sheet: string;
  type: 'barChart' | 'bar3DChart' | 'lineChart' | 'pieChart' | 'scatterChart' | 'areaChart';
  barDir?: 'bar' | 'col';
  series: SeriesSpec[];
  /** Title as rich-text runs (a string is one run); null/undefined for no title. */
  title?: string | string[] | null;
  /** Legend position; `''` writes a legend without `legendPos`; null/undefined writes no legend. */
  legend?: string | null;
  xTitle?: string;
  yTitle?: string;
  /** Drawing anchor `[fromCol, fromRow, toCol, toRow]` (zero-based). */
  anchor?: [number, number, number, number];
}

export interface PivotFieldSpec {
  /** Items of the field: a number is `<item x=n/>`, `[n, true]` a hidden item. No list: no items. */
  items?: Array<number | [number, boolean]>;
}

export interface DataFieldSpec {
  fld: number;
  subtotal?: string;
  name?: string;
  showDataAs?: string;
}

export interface PivotSpec {
  /** Sheet the pivot table is placed on. */
  sheet: string;
  sourceSheet: string;
  /** Source range, e.g. `A1:C6`. */
  ref: string;
  fields: PivotFieldSpec[];
  rows?: number[];
  cols?: number[];
  pages?: number[];
  data?: DataFieldSpec[];
  name?: string;
  location?: string;
  /** Link the cache only through the workbook's `<pivotCaches>`, not from the pivot table part. */
  cacheViaWorkbookOnly?: boolean;
}

/** Raw XML put into a sheet part: before the first of `before` present (schema order), else before `</worksheet>`. */
export interface SheetXmlSpec {
  sheet: string;
  xml: string;
  before?: string[];
}

export interface BookSpec {
  /** Sheets in order, each a list of rows. */
  sheets: Array<[name: string, rows: unknown[][]]>;
  charts?: ChartSpec[];
  pivots?: PivotSpec[];
  /** Changes exceljs writes itself (hidden rows, column widths, data validations, views), made after the rows. */
  setup?: (wb: ExcelJS.Workbook) => void;
  /** Parts of sheets exceljs cannot write (autofilter columns, sparklines). */
  sheetXml?: SheetXmlSpec[];
  /** `<definedName>` elements for the workbook (e.g. `_xlnm._FilterDatabase`, which Calc needs for an autofilter). */
  definedNames?: string[];
}

/** Where an `<autoFilter>` goes in a sheet (the elements that follow it in CT_Worksheet). */
export const afterAutoFilter = [
  'sortState',
  'dataConsolidate',
  'customSheetViews',
  'mergeCells',
  'phoneticPr',
  'conditionalFormatting',
  'dataValidations',
  'hyperlinks',
  'printOptions',
  'pageMargins',
  'pageSetup',
  'headerFooter',
  'drawing',
  'legacyDrawing',
  'tableParts',
  'extLst',
];

/** A sheet's extension list with x14 sparklines: `[target cell, source range]` pairs in one group. */
export function sparklinesXml(lines: Array<[sqref: string, f: string]>): string {
  const items = lines
    .map(
      ([sqref, f]) =>
        `<x14:sparkline><xm:f>${esc(f)}</xm:f><xm:sqref>${esc(sqref)}</xm:sqref></x14:sparkline>`,
    )
    .join('');
  return (
    `<extLst><ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">` +
    `<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><x14:sparklineGroup displayEmptyCellsAs="gap"><x14:colorSeries rgb="FF376092"/>` +
    `<x14:sparklines>${items}</x14:sparklines></x14:sparklineGroup></x14:sparklineGroups></ext></extLst>`
  );
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function richTitle(runs: string | string[]): string {
  const rs = (Array.isArray(runs) ? runs : [runs])
    .map((t) => `<a:r><a:rPr lang="en-US"/><a:t>${esc(t)}</a:t></a:r>`)
    .join('');
  return `<c:title><c:tx><c:rich><a:bodyPr/><a:p>${rs}</a:p></c:rich></c:tx><c:overlay val="0"/></c:title>`;
}

function chartXml(spec: ChartSpec): string {
  const scatter = spec.type === 'scatterChart';
  const series = spec.series
    .map((s, i) => {
      const tx = s.tx ? `<c:tx><c:strRef><c:f>${esc(s.tx)}</c:f></c:strRef></c:tx>` : '';
      const cat = s.cat
        ? `<c:${scatter ? 'xVal' : 'cat'}><c:strRef><c:f>${esc(s.cat)}</c:f></c:strRef></c:${scatter ? 'xVal' : 'cat'}>`
        : '';
      const val = `<c:${scatter ? 'yVal' : 'val'}><c:numRef><c:f>${esc(s.val)}</c:f></c:numRef></c:${scatter ? 'yVal' : 'val'}>`;
      return `<c:ser><c:idx val="${i}"/><c:order val="${i}"/>${tx}${cat}${val}</c:ser>`;
    })
    .join('');
  const pie = spec.type === 'pieChart';
  const axIds = pie ? '' : '<c:axId val="101"/><c:axId val="102"/>';
  const bar = spec.type.startsWith('bar')
    ? `<c:barDir val="${spec.barDir ?? 'col'}"/><c:grouping val="clustered"/>`
    : '';
  const group = `<c:${spec.type}>${bar}${pie ? '<c:varyColors val="1"/>' : ''}${series}${axIds}</c:${spec.type}>`;
  const axTitle = (t?: string) => (t ? richTitle(t) : '');
  const axes = pie
    ? ''
    : `<c:${scatter ? 'valAx' : 'catAx'}><c:axId val="101"/><c:scaling/><c:delete val="0"/><c:axPos val="b"/>${axTitle(spec.xTitle)}<c:crossAx val="102"/></c:${scatter ? 'valAx' : 'catAx'}>` +
      `<c:valAx><c:axId val="102"/><c:scaling/><c:delete val="0"/><c:axPos val="l"/>${axTitle(spec.yTitle)}<c:crossAx val="101"/></c:valAx>`;
  const title =
    spec.title === null || spec.title === undefined ? '<c:autoTitleDeleted val="1"/>' : richTitle(spec.title);
  const legend =
    spec.legend === null || spec.legend === undefined
      ? ''
      : `<c:legend>${spec.legend ? `<c:legendPos val="${spec.legend}"/>` : ''}<c:overlay val="0"/></c:legend>`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace xmlns:c="${NS_C}" xmlns:a="${NS_A}" xmlns:r="${NS_R}"><c:chart>${title}<c:plotArea><c:layout/>${group}${axes}</c:plotArea>${legend}<c:plotVisOnly val="1"/></c:chart></c:chartSpace>`;
}

function drawingXml(charts: Array<{ spec: ChartSpec; rid: string }>): string {
  const anchors = charts
    .map(({ spec, rid }, i) => {
      const [fc, fr, tc, tr] = spec.anchor ?? [4, 1 + i * 16, 12, 15 + i * 16];
      return (
        `<xdr:twoCellAnchor editAs="oneCell"><xdr:from><xdr:col>${fc}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${fr}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
        `<xdr:to><xdr:col>${tc}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${tr}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>` +
        `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${i + 2}" name="Chart ${i + 1}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
        `<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="5400000" cy="2700000"/></xdr:xfrm>` +
        `<a:graphic><a:graphicData uri="${NS_C}"><c:chart xmlns:c="${NS_C}" r:id="${rid}"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>`
      );
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="${NS_XDR}" xmlns:a="${NS_A}" xmlns:r="${NS_R}">${anchors}</xdr:wsDr>`;
}

function cacheXml(spec: PivotSpec, header: unknown[]): string {
  const fields = spec.fields
    .map(
      (_, i) =>
        `<cacheField name="${esc(String(header[i] ?? `Column${i + 1}`))}" numFmtId="0"><sharedItems/></cacheField>`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<pivotCacheDefinition xmlns="${NS_MAIN}" xmlns:r="${NS_R}" refreshOnLoad="1">` +
    `<cacheSource type="worksheet"><worksheetSource ref="${spec.ref}" sheet="${esc(spec.sourceSheet)}"/></cacheSource>` +
    `<cacheFields count="${spec.fields.length}">${fields}</cacheFields></pivotCacheDefinition>`
  );
}

function pivotXml(spec: PivotSpec, cacheId: number): string {
  const axisOf = (i: number) =>
    spec.rows?.includes(i)
      ? ' axis="axisRow"'
      : spec.cols?.includes(i)
        ? ' axis="axisCol"'
        : spec.pages?.includes(i)
          ? ' axis="axisPage"'
          : '';
  const fields = spec.fields
    .map((f, i) => {
      const data = spec.data?.some((d) => d.fld === i) ? ' dataField="1"' : '';
      if (!f.items) return `<pivotField${axisOf(i)}${data} showAll="0"/>`;
      const items = f.items
        .map((it) =>
          Array.isArray(it) ? `<item x="${it[0]}"${it[1] ? ' h="1"' : ''}/>` : `<item x="${it}"/>`,
        )
        .join('');
      return `<pivotField${axisOf(i)}${data} showAll="0"><items count="${f.items.length + 1}">${items}<item t="default"/></items></pivotField>`;
    })
    .join('');
  const list = (tag: string, inner: string, xs?: number[]) =>
    xs?.length
      ? `<${tag} count="${xs.length}">${xs.map((x) => inner.replace('#', String(x))).join('')}</${tag}>`
      : '';
  const data = spec.data?.length
    ? `<dataFields count="${spec.data.length}">${spec.data
        .map(
          (d) =>
            `<dataField name="${esc(d.name ?? `Sum - ${d.fld}`)}" fld="${d.fld}"${d.subtotal ? ` subtotal="${d.subtotal}"` : ''}${d.showDataAs ? ` showDataAs="${d.showDataAs}"` : ''} baseField="0" baseItem="0"/>`,
        )
        .join('')}</dataFields>`
    : '';
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<pivotTableDefinition xmlns="${NS_MAIN}" name="${esc(spec.name ?? 'PivotTable1')}" cacheId="${cacheId}" dataCaption="Values" applyNumberFormats="0" applyBorderFormats="0" applyFontFormats="0" applyPatternFormats="0" applyAlignmentFormats="0" applyWidthHeightFormats="1">` +
    `<location ref="${spec.location ?? 'A3:B6'}" firstHeaderRow="1" firstDataRow="1" firstDataCol="1"/>` +
    `<pivotFields count="${spec.fields.length}">${fields}</pivotFields>` +
    list('rowFields', '<field x="#"/>', spec.rows) +
    list('colFields', '<field x="#"/>', spec.cols) +
    list('pageFields', '<pageField fld="#" hier="-1"/>', spec.pages) +
    data +
    `</pivotTableDefinition>`
  );
}

const relsDoc = (rels: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${NS_PKG_REL}">${rels.join('')}</Relationships>`;
const relXml = (id: string, kind: string, target: string) =>
  `<Relationship Id="${id}" Type="${REL}/${kind}" Target="${target}"/>`;

/** Appends relationships to a part's rels file (creating it), returning the ids given. */
async function addRels(
  zip: JSZip,
  relsPath: string,
  rels: Array<[kind: string, target: string]>,
): Promise<string[]> {
  const existing = (await zip.file(relsPath)?.async('string')) ?? relsDoc([]);
  const used = new Set([...existing.matchAll(/Id="([^"]+)"/g)].map((m) => m[1]));
  const ids: string[] = [];
  let n = 1;
  const added = rels.map(([kind, target]) => {
    while (used.has(`rIdP${n}`)) n++;
    const id = `rIdP${n}`;
    used.add(id);
    ids.push(id);
    return relXml(id, kind, target);
  });
  zip.file(relsPath, existing.replace('</Relationships>', added.join('') + '</Relationships>'));
  return ids;
}

/** Inserts `xml` into a part before the first of `beforeTags` present, else before its closing tag. */
async function insertInto(
  zip: JSZip,
  part: string,
  xml: string,
  closing: string,
  beforeTags: string[],
): Promise<void> {
  const text = await zip.file(part)!.async('string');
  const at = beforeTags.map((t) => text.indexOf(`<${t}`)).filter((i) => i >= 0);
  const pos = at.length ? Math.min(...at) : text.lastIndexOf(closing);
  zip.file(part, text.slice(0, pos) + xml + text.slice(pos));
}

/** Writes an xlsx at `path` with the sheets, charts and pivot tables of `spec`; returns `path`. */
export async function writeXlsx(path: string, spec: BookSpec): Promise<string> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of spec.sheets) wb.addWorksheet(name).addRows(rows);
  spec.setup?.(wb);
  const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
  const overrides: string[] = [];
  const sheetPart = (name: string) => {
    const i = spec.sheets.findIndex(([n]) => n === name);
    const part = `xl/worksheets/sheet${i + 1}.xml`;
    if (i < 0 || !zip.file(part)) throw new Error(`writeXlsx: no sheet part for '${name}'`);
    return part;
  };
  const sheetRels = (part: string) => part.replace('worksheets/', 'worksheets/_rels/') + '.rels';

  let chartNo = 0;
  let drawingNo = 0;
  for (const [name] of spec.sheets) {
    const charts = (spec.charts ?? []).filter((c) => c.sheet === name);
    if (!charts.length) continue;
    const part = sheetPart(name);
    drawingNo++;
    const drawing = `xl/drawings/drawing${drawingNo}.xml`;
    const chartParts = charts.map(() => `xl/charts/chart${++chartNo}.xml`);
    const rids = await addRels(
      zip,
      `xl/drawings/_rels/drawing${drawingNo}.xml.rels`,
      chartParts.map((p) => ['chart', `../charts/${p.split('/').pop()}`]),
    );
    charts.forEach((c, i) => {
      zip.file(chartParts[i], chartXml(c));
      overrides.push(
        `<Override PartName="/${chartParts[i]}" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>`,
      );
    });
    zip.file(drawing, drawingXml(charts.map((c, i) => ({ spec: c, rid: rids[i] }))));
    overrides.push(
      `<Override PartName="/${drawing}" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>`,
    );
    const [rid] = await addRels(zip, sheetRels(part), [['drawing', `../drawings/drawing${drawingNo}.xml`]]);
    await insertInto(zip, part, `<drawing r:id="${rid}" xmlns:r="${NS_R}"/>`, '</worksheet>', [
      'legacyDrawing',
      'tableParts',
      'extLst',
    ]);
  }

  const caches: string[] = [];
  for (const [i, p] of (spec.pivots ?? []).entries()) {
    const n = i + 1;
    const cacheId = 10 + i;
    const header = spec.sheets.find(([s]) => s === p.sourceSheet)?.[1][0] ?? [];
    const cachePart = `xl/pivotCache/pivotCacheDefinition${n}.xml`;
    const pivotPart = `xl/pivotTables/pivotTable${n}.xml`;
    zip.file(cachePart, cacheXml(p, header));
    zip.file(pivotPart, pivotXml(p, cacheId));
    if (!p.cacheViaWorkbookOnly)
      await addRels(zip, `xl/pivotTables/_rels/pivotTable${n}.xml.rels`, [
        ['pivotCacheDefinition', `../pivotCache/pivotCacheDefinition${n}.xml`],
      ]);
    const [wbRid] = await addRels(zip, 'xl/_rels/workbook.xml.rels', [
      ['pivotCacheDefinition', `pivotCache/pivotCacheDefinition${n}.xml`],
    ]);
    caches.push(`<pivotCache cacheId="${cacheId}" r:id="${wbRid}"/>`);
    await addRels(zip, sheetRels(sheetPart(p.sheet)), [['pivotTable', `../pivotTables/pivotTable${n}.xml`]]);
    overrides.push(
      `<Override PartName="/${pivotPart}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.pivotTable+xml"/>`,
    );
    overrides.push(
      `<Override PartName="/${cachePart}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.pivotCacheDefinition+xml"/>`,
    );
  }
  for (const x of spec.sheetXml ?? [])
    await insertInto(zip, sheetPart(x.sheet), x.xml, '</worksheet>', x.before ?? []);
  if (spec.definedNames?.length)
    await insertInto(
      zip,
      'xl/workbook.xml',
      `<definedNames>${spec.definedNames.join('')}</definedNames>`,
      '</workbook>',
      ['calcPr', 'oleSize', 'customWorkbookViews', 'pivotCaches', 'extLst'],
    );
  if (caches.length)
    await insertInto(
      zip,
      'xl/workbook.xml',
      `<pivotCaches xmlns:r="${NS_R}">${caches.join('')}</pivotCaches>`,
      '</workbook>',
      ['fileRecoveryPr', 'webPublishing', 'extLst'],
    );
  if (overrides.length) await insertInto(zip, '[Content_Types].xml', overrides.join(''), '</Types>', []);
  await writeFile(path, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
  return path;
}

/** A small sales table (header row first) the chart and pivot tests build on. */
export const salesRows: (string | number)[][] = [
  ['Region', 'Product', 'Revenue', 'Units'],
  ['North', 'Apples', 120, 10],
  ['South', 'Pears', 80, 7],
  ['North', 'Plums', 45, 3],
  ['East', 'Apples', 60, 5],
];

/** Writes each book under `<dir>/src`, then has LibreOffice Calc open and save them all again (one soffice call)
 * into `<dir>/calc`; the Calc-saved workbooks' paths by name. */
export async function resaveWithCalc(
  dir: string,
  books: Record<string, BookSpec>,
): Promise<Record<string, string>> {
  const src = join(dir, 'src');
  const out = join(dir, 'calc');
  await mkdir(src, { recursive: true });
  const inputs: string[] = [];
  for (const [name, spec] of Object.entries(books))
    inputs.push(await writeXlsx(join(src, `${name}.xlsx`), spec));
  convertWithLibreOffice(dir, inputs, 'xlsx:Calc MS Excel 2007 XML', out);
  return Object.fromEntries(Object.keys(books).map((name) => [name, join(out, `${name}.xlsx`)]));
}
