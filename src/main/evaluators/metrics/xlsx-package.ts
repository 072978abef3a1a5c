// The xlsx file as an OPC package: a zip of XML parts linked by relationship parts. Charts and pivot tables
// live in parts exceljs does not read, so compare_table's chart and pivot_table rules read them from here.
import JSZip from 'jszip';
import { DOMParser } from '@xmldom/xmldom';
import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { brief, zipError } from './inputs';

/** The xlsx files a compare_table rule may look into. */
export interface XlsxFiles {
  result: string;
  expected?: string;
}

export interface Relationship {
  id: string;
  /** The relationship type's last path segment, e.g. `drawing`, `chart`, `pivotTable`. */
  kind: string;
  /** Package part path of the target (no leading slash), or the raw target when external. */
  target: string;
  external: boolean;
}

export interface SheetEntry {
  name: string;
  /** Package part path, e.g. `xl/worksheets/sheet2.xml`; undefined when the workbook names no part. */
  part?: string;
}

/** Child elements of `el` with the given local name (namespace prefixes are ignored). */
export function kids(el: Element | undefined, local?: string): Element[] {
  if (!el) return [];
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (local === undefined || (n as Element).localName === local))
      out.push(n as Element);
  }
  return out;
}

/** The first child element with the local name, following a path: `kid(el, 'tx', 'rich')`. */
export function kid(el: Element | undefined, ...path: string[]): Element | undefined {
  let cur = el;
  for (const local of path) cur = kids(cur, local)[0];
  return cur;
}

/** Descendant elements with the local name, in document order. */
export function descendants(el: Element | undefined, local: string): Element[] {
  if (!el) return [];
  return Array.from(el.getElementsByTagNameNS('*', local));
}

/** Attribute by local name (so `r:id` is `attr(el, 'id')`); undefined when absent. */
export function attr(el: Element | undefined, local: string): string | undefined {
  if (!el) return undefined;
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes[i];
    if ((a.localName ?? a.name) === local) return a.value;
  }
  return undefined;
}

/** xsd:boolean attribute with the schema default. */
export function boolAttr(el: Element | undefined, local: string, dflt: boolean): boolean {
  const v = attr(el, local);
  return v === undefined ? dflt : v === '1' || v === 'true';
}

/** Integer attribute, or `dflt` when absent or not a number. */
export function intAttr(el: Element | undefined, local: string, dflt: number | null = null): number | null {
  const v = attr(el, local);
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) ? n : dflt;
}

/** The `val` attribute of a child, e.g. `<c:legendPos val="b"/>`. */
export function childVal(el: Element | undefined, local: string): string | undefined {
  return attr(kid(el, local), 'val');
}

function parentPart(part: string): string {
  const i = part.lastIndexOf('/');
  return i < 0 ? '' : part.slice(0, i);
}

/** Resolves a relationship target against the folder of its source part. */
function resolvePart(sourcePart: string, target: string): string {
  const segs = target.startsWith('/') ? [] : parentPart(sourcePart).split('/').filter(Boolean);
  for (const s of target.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') segs.pop();
    else segs.push(s);
  }
  return segs.join('/');
}

function relsPartOf(part: string): string {
  const dir = parentPart(part);
  const file = part.slice(dir.length ? dir.length + 1 : 0);
  return `${dir ? dir + '/' : ''}_rels/${file}.rels`;
}

export class XlsxPackage {
  private readonly docs = new Map<string, Document | undefined>();

  private constructor(
    readonly path: string,
    private readonly zip: JSZip,
  ) {}

  /** Opens the file, or returns the reason it is not an xlsx package. */
  static async open(path: string): Promise<XlsxPackage | string> {
    try {
      const zip = await JSZip.loadAsync(await readFile(path));
      if (!zip.file('xl/workbook.xml') && !zip.file('[Content_Types].xml'))
        return `${path} is not an xlsx package (no xl/workbook.xml)`;
      return new XlsxPackage(path, zip);
    } catch (e) {
      return `${path} is not an xlsx package: ${zipError(e)}`;
    }
  }

  /** The parsed part, or undefined when the package has no such part. Malformed XML throws, naming the part. */
  async xml(part: string): Promise<Document | undefined> {
    if (this.docs.has(part)) return this.docs.get(part);
    const entry = this.zip.file(part);
    let doc: Document | undefined;
    if (entry) {
      const text = await entry.async('string');
      const problems: string[] = [];
      const record = (msg: string) => problems.push(msg.split('\n')[0]);
      doc = new DOMParser({
        errorHandler: { warning: () => undefined, error: record, fatalError: record },
      }).parseFromString(text, 'application/xml');
      if (problems.length || !doc.documentElement)
        throw new Error(
          `${this.path}: part ${part} is not well-formed XML: ${problems[0] ?? 'no root element'}`,
        );
    }
    this.docs.set(part, doc);
    return doc;
  }

  async root(part: string): Promise<Element | undefined> {
    return (await this.xml(part))?.documentElement ?? undefined;
  }

  /** The relationships of a part (its `_rels/<name>.rels`), targets resolved to part paths. */
  async rels(part: string): Promise<Relationship[]> {
    const root = await this.root(relsPartOf(part));
    return kids(root, 'Relationship').map((r) => {
      const type = attr(r, 'Type') ?? '';
      const external = attr(r, 'TargetMode') === 'External';
      const target = attr(r, 'Target') ?? '';
      return {
        id: attr(r, 'Id') ?? '',
        kind: type.slice(type.lastIndexOf('/') + 1),
        target: external ? target : resolvePart(part, target),
        external,
      };
    });
  }

  /** The worksheets in workbook order (the order sheet indices count in). */
  async sheets(): Promise<SheetEntry[]> {
    const wb = await this.root('xl/workbook.xml');
    const rels = await this.rels('xl/workbook.xml');
    return kids(kid(wb, 'sheets'), 'sheet').map((s) => {
      const rel = rels.find((r) => r.id === attr(s, 'id'));
      return { name: attr(s, 'name') ?? '', part: rel && !rel.external ? rel.target : undefined };
    });
  }
}

/** A sheet picked by a compare_table sheet index, with the package it belongs to. */
export interface PickedSheet {
  pkg: XlsxPackage;
  sheet: SheetEntry;
  /** Which workbook it came from, for reasons. */
  side: 'result' | 'expected';
}

/**
 * Resolves a compare_table sheet index as the other rules do: an integer or `RI<n>` (result sheet by
 * position), `RN<name>` (result sheet by name), `EI<n>` / `EN<name>` (expected workbook). Returns the
 * reason when the index is malformed, names no workbook, or the sheet does not exist.
 */
export async function pickSheet(
  idx: unknown,
  result: XlsxPackage,
  expected: XlsxPackage | undefined,
): Promise<PickedSheet | string> {
  let side: 'result' | 'expected';
  let by: { index: number } | { name: string };
  if (typeof idx === 'number' && Number.isInteger(idx)) [side, by] = ['result', { index: idx }];
  else if (typeof idx === 'string' && /^[RE]I\d+$/.test(idx))
    [side, by] = [idx[0] === 'R' ? 'result' : 'expected', { index: Number(idx.slice(2)) }];
  else if (typeof idx === 'string' && /^[RE]N/.test(idx))
    [side, by] = [idx[0] === 'R' ? 'result' : 'expected', { name: idx.slice(2) }];
  else return `sheet index ${brief(idx)} is not n, RI<n>, RN<name>, EI<n> or EN<name>`;
  const pkg = side === 'result' ? result : expected;
  if (!pkg) return `sheet index ${brief(idx)} names the expected workbook, but there is none`;
  const sheets = await pkg.sheets();
  const sheet = 'index' in by ? sheets[by.index] : sheets.find((s) => s.name === by.name);
  if (!sheet)
    return `sheet ${brief(idx)} does not exist in the ${side} workbook (sheets: ${sheets.map((s) => s.name).join(', ') || 'none'})`;
  return { pkg, sheet, side };
}

/** Opens the workbooks a rule names and picks its two sheets (`sheet_idx0`, `sheet_idx1`). */
export async function pickSheetPair(
  rule: Record<string, unknown>,
  files: XlsxFiles,
): Promise<[PickedSheet, PickedSheet] | string> {
  const result = await XlsxPackage.open(files.result);
  if (typeof result === 'string') return result;
  let expected: XlsxPackage | undefined;
  if (files.expected !== undefined) {
    const e = await XlsxPackage.open(files.expected);
    if (typeof e === 'string') return `expected: ${e}`;
    expected = e;
  }
  const a = await pickSheet(rule.sheet_idx0, result, expected);
  if (typeof a === 'string') return `sheet_idx0: ${a}`;
  const b = await pickSheet(rule.sheet_idx1, result, expected);
  if (typeof b === 'string') return `sheet_idx1: ${b}`;
  return [a, b];
}

/**
 * Compares two sets of objects keyed by their data source (a chart's series ranges, a pivot table's source
 * range), as upstream compares its dicts: the same keys, and for each key the same properties. Returns
 * `true` or the first difference, described with `noun` ("chart", "pivot table").
 */
export function compareKeyed(
  a: Map<string, Record<string, unknown>>,
  b: Map<string, Record<string, unknown>>,
  noun: string,
  names: [string, string],
): true | string {
  const missing = [...b.keys()].filter((k) => !a.has(k));
  const extra = [...a.keys()].filter((k) => !b.has(k));
  if (missing.length || extra.length) {
    const parts: string[] = [];
    if (missing.length)
      parts.push(
        `${names[1]} has ${noun}s over ${missing.map((k) => `[${k}]`).join(' ')} that ${names[0]} lacks`,
      );
    if (extra.length)
      parts.push(
        `${names[0]} has ${noun}s over ${extra.map((k) => `[${k}]`).join(' ')} that ${names[1]} lacks`,
      );
    return `${a.size} ${noun}(s) vs ${b.size}: ${parts.join('; ')}`;
  }
  for (const [key, pa] of a) {
    const pb = b.get(key) ?? {};
    for (const prop of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
      if (!isDeepStrictEqual(pa[prop], pb[prop]))
        return `${noun} over [${key}]: ${prop} is ${brief(JSON.stringify(pa[prop] ?? null))} in ${names[0]}, ${brief(JSON.stringify(pb[prop] ?? null))} in ${names[1]}`;
    }
  }
  return true;
}

/**
 * A compare_table rule over objects placed on the two sheets it names (charts, pivot tables): `props` checked
 * against `known` first (an unknown entry fails the rule), then each sheet's objects loaded with the wanted
 * properties and compared by their keys (compareKeyed). Any failure to read is the rule's reason.
 */
export async function compareSheetObjects(
  rule: Record<string, unknown>,
  files: XlsxFiles,
  o: {
    /** The rule's property list and its name in reasons (`chart_props`). */
    props: string[];
    propsName: string;
    known: readonly string[];
    noun: string;
    load: (
      sheet: PickedSheet,
      want: Set<string>,
    ) => Promise<{ key: string; props: Record<string, unknown> }[]>;
  },
): Promise<true | string> {
  const unknown = o.props.filter((p) => !o.known.includes(p));
  if (unknown.length) return `unknown ${o.propsName} ${brief(unknown)} (known: ${o.known.join(', ')})`;
  const keyed = (objects: { key: string; props: Record<string, unknown> }[]) =>
    new Map(objects.map((x) => [x.key, x.props]));
  try {
    const pair = await pickSheetPair(rule, files);
    if (typeof pair === 'string') return pair;
    const [a, b] = pair;
    const want = new Set(o.props);
    return compareKeyed(keyed(await o.load(a, want)), keyed(await o.load(b, want)), o.noun, [
      sheetLabel(a),
      sheetLabel(b),
    ]);
  } catch (e) {
    return (e as Error).message;
  }
}

/** How a picked sheet is named in reasons: `result 'Sheet2'`. */
export function sheetLabel(p: PickedSheet): string {
  return `${p.side} '${p.sheet.name}'`;
}
