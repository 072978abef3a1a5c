// compare_table's `chart` rule: the charts drawn on a worksheet, read from the xlsx package's drawing and
// chart parts (sheet → drawing → graphic frame → c:chartSpace).
import { stringList } from './inputs';
import {
  attr,
  childVal,
  compareSheetObjects,
  descendants,
  kid,
  kids,
  type PickedSheet,
  type XlsxFiles,
} from './xlsx-package';

/** The chart properties a `chart` rule may ask for in `chart_props`. */
export const chartProps = [
  'type',
  'title',
  'legend',
  'direction',
  'xtitle',
  'ytitle',
  'ztitle',
  'anchor',
  'width',
  'height',
] as const;
type ChartProp = (typeof chartProps)[number];

/** A chart as the rule compares it: its series key and the asked-for properties. */
export interface SheetChart {
  /** `<values ref>,<categories ref>` per series of the first chart group, joined with `;`. */
  key: string;
  props: Partial<Record<ChartProp, unknown>>;
}

const CHART_NS = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const EMU_PER_CM = 360000;

/** The formula of a data source (`c:val`, `c:cat`, `c:xVal`, `c:yVal`), or '' when it is literal or absent. */
function sourceRef(src: Element | undefined): string {
  const ref = kid(src, 'numRef') ?? kid(src, 'strRef') ?? kid(src, 'multiLvlStrRef');
  return (kid(ref, 'f')?.textContent ?? '').trim();
}

/** Text of a `c:title` (chart or axis): all runs of a rich title (paragraphs joined by a newline), a
 * referenced title's cached text (else its formula), or null for none / an automatic title. */
function titleText(title: Element | undefined): string | null {
  const tx = kid(title, 'tx');
  if (!tx) return null;
  const rich = kid(tx, 'rich');
  if (rich) {
    return kids(rich, 'p')
      .map((p) =>
        kids(p)
          .filter((r) => r.localName === 'r' || r.localName === 'fld')
          .map((r) => kid(r, 't')?.textContent ?? '')
          .join(''),
      )
      .join('\n');
  }
  const ref = kid(tx, 'strRef');
  if (ref) {
    const cached = descendants(kid(ref, 'strCache'), 'v').map((v) => v.textContent ?? '');
    return cached.length ? cached.join('') : (kid(ref, 'f')?.textContent ?? '').trim();
  }
  return null;
}

/** Chart size in cm from the anchor's extent, rounded to 0.01; null when the anchor gives none. */
function extentCm(
  anchor: Element,
  frame: Element | undefined,
): { width: number | null; height: number | null } {
  const exts = [kid(frame, 'xfrm', 'ext'), kid(anchor, 'ext')];
  for (const ext of exts) {
    const cx = Number(attr(ext, 'cx'));
    const cy = Number(attr(ext, 'cy'));
    if (cx > 0 && cy > 0)
      return {
        width: Math.round((cx / EMU_PER_CM) * 100) / 100,
        height: Math.round((cy / EMU_PER_CM) * 100) / 100,
      };
  }
  return { width: null, height: null };
}

function anchorOf(anchor: Element): unknown[] {
  const at = (corner: string, what: string) => {
    const n = Number(kid(anchor, corner, what)?.textContent);
    return Number.isInteger(n) ? n : null;
  };
  const kind =
    anchor.localName === 'twoCellAnchor'
      ? (attr(anchor, 'editAs') ?? 'twoCell')
      : anchor.localName === 'oneCellAnchor'
        ? 'oneCell'
        : 'absolute';
  return [kind, at('from', 'col'), at('from', 'row'), at('to', 'col'), at('to', 'row')];
}

function describe(
  space: Element,
  anchor: Element,
  frame: Element | undefined,
  props: Set<string>,
): SheetChart {
  const chart = kid(space, 'chart');
  const plot = kid(chart, 'plotArea');
  const group = kids(plot).find((e) => /Chart$/.test(e.localName));
  const series = kids(group, 'ser').map((s) => {
    const values = sourceRef(kid(s, 'val') ?? kid(s, 'yVal'));
    const categories = sourceRef(kid(s, 'cat') ?? kid(s, 'xVal'));
    return `${values},${categories}`;
  });
  const axes = new Map(
    kids(plot)
      .filter((e) => /Ax$/.test(e.localName))
      .map((ax) => [childVal(ax, 'axId'), ax]),
  );
  const groupAxes = kids(group, 'axId').map((a) => axes.get(attr(a, 'val')));
  const out: SheetChart['props'] = {};
  const size = extentCm(anchor, frame);
  const read: Record<ChartProp, () => unknown> = {
    type: () => group?.localName ?? null,
    title: () => titleText(kid(chart, 'title')),
    legend: () => {
      const legend = kid(chart, 'legend');
      return legend ? (childVal(legend, 'legendPos') ?? 'r') : null;
    },
    direction: () =>
      group && /^bar(3D)?Chart$/.test(group.localName) ? (childVal(group, 'barDir') ?? 'col') : null,
    xtitle: () => titleText(kid(groupAxes[0], 'title')),
    ytitle: () => titleText(kid(groupAxes[1], 'title')),
    ztitle: () => titleText(kid(groupAxes[2], 'title')),
    anchor: () => anchorOf(anchor),
    width: () => size.width,
    height: () => size.height,
  };
  for (const p of chartProps) if (props.has(p)) out[p] = read[p]();
  return { key: series.join(';'), props: out };
}

/** The charts on a worksheet, in drawing order. Charts inside group shapes count; Office 2016 `cx:` charts
 * (waterfall, treemap…) and chart sheets do not. */
export async function loadSheetCharts(picked: PickedSheet, props: Set<string>): Promise<SheetChart[]> {
  const { pkg, sheet } = picked;
  if (!sheet.part) return [];
  const charts: SheetChart[] = [];
  for (const drawingRel of (await pkg.rels(sheet.part)).filter((r) => r.kind === 'drawing' && !r.external)) {
    const drawing = await pkg.root(drawingRel.target);
    const rels = await pkg.rels(drawingRel.target);
    for (const anchor of kids(drawing).filter((e) => /Anchor$/.test(e.localName))) {
      for (const ref of descendants(anchor, 'chart').filter((e) => e.namespaceURI === CHART_NS)) {
        const rel = rels.find((r) => r.id === attr(ref, 'id') && !r.external);
        const space = rel ? await pkg.root(rel.target) : undefined;
        if (!space) continue;
        let frame: Element | undefined = ref;
        while (frame && frame.localName !== 'graphicFrame')
          frame = (frame.parentNode as Element | null) ?? undefined;
        charts.push(describe(space, anchor, frame, props));
      }
    }
  }
  return charts;
}

/**
 * compare_table rule `chart {sheet_idx0, sheet_idx1, chart_props}` — the two sheets carry the same charts.
 *
 * As upstream (OSWorld/Spider2-V `load_charts`), each chart is identified by its data: for every series of
 * its first chart group, `<values ref>,<categories ref>` (the cell-range formulas as written, e.g.
 * `Sheet2!$B$2:$B$5`), joined with `;`. The sheets must have the same set of such keys — so a missing, an
 * extra or a re-ranged chart fails — and for each key the same `chart_props`:
 * - `type`: the first chart group's element name (`barChart`, `bar3DChart`, `lineChart`, `pieChart`,
 *   `scatterChart`, `areaChart`, `doughnutChart`…); a horizontal bar chart is still `barChart`;
 * - `title`: the chart title's text or null; `xtitle` / `ytitle` / `ztitle`: the titles of the group's
 *   first / second / third axis (category, value, series axis; for scatter charts the X and Y value axes);
 * - `legend`: the legend position (`r` when the legend gives none) or null when there is no legend;
 * - `direction`: `bar` / `col` for bar charts, null otherwise;
 * - `anchor`: `[editAs|oneCell|absolute, fromCol, fromRow, toCol, toRow]` from the drawing anchor;
 * - `width` / `height`: the extent in cm from the drawing (null when it records none).
 *
 * Choices where upstream is ambiguous or accidental: a title is all its rich-text runs (upstream takes
 * only the first run) and a cell-referenced title is its cached text (upstream: None); scatter and bubble
 * series key on `yVal`/`xVal` (upstream keys them all as `,`, so any two scatter charts looked equal);
 * multi-level category references count as references; `direction` on a non-bar chart is null (upstream
 * raises); `width`/`height` are measured (upstream always saw openpyxl's defaults); a sheet index that
 * names no sheet fails the rule (upstream compared an empty set); an unknown `chart_props` entry fails the
 * rule rather than being ignored. Two charts over the same ranges on one sheet collapse into one, as
 * upstream.
 */
export function chartRule(rule: Record<string, unknown>, files: XlsxFiles): Promise<true | string> {
  return compareSheetObjects(rule, files, {
    props: stringList(rule.chart_props),
    propsName: 'chart_props',
    known: chartProps,
    noun: 'chart',
    load: loadSheetCharts,
  });
}
