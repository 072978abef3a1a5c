// OSWorld's check_accessibility_tree (desktop_env/evaluators/metrics/general.py), registered in the `os` family by
// os.ts: rules of CSS selectors or XPath over the accessibility tree's XML, each optionally checking the selected
// elements' text exactly or by rapidfuzz's ratio; the score is the product over the rules.
import { fail, pass, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import {
  ACCESSIBILITY_NAMESPACES,
  nodeText,
  parseAccessibilityDocument,
  selectCss,
  selectXpath,
  type XpathResult,
} from './accessibility-select';
import { brief, isRecord } from './inputs';
import { fuzzRatio } from './ooxml';

/** Python's truthiness for JSON values. */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (isRecord(v)) return Object.keys(v).length > 0;
  return !!v;
}

/**
 * check_accessibility_tree — `result`: the tree as OSWorld's XML (the `accessibility_tree` getter); `expected`: a
 * list of rules `{xpath | selectors: [css…], text?, exact?}`; option `osname` (`ubuntu` default, `windows`,
 * `macos`) picks the namespace URIs the `st:` / `attr:` / `cp:` … prefixes stand for. As OSWorld:
 * - `xpath` wins over `selectors`; neither is an error. `selectors` are joined with ", " into one selector list (a
 *   string is joined character by character, as Python's str.join does).
 * - Selection is lxml's (accessibility-select.ts): CSS as lxml's CSSSelector reads it — `ns|attr` through the
 *   namespace map, `:contains()` on the lower-cased text content, cssselect's pseudo-classes and errors — and XPath
 *   1.0 (contains(), text(), predicates, unions …) evaluated from the root element. A selector lxml refuses (an
 *   unknown prefix or pseudo-class, bad syntax) scores 0 naming why, where OSWorld raises.
 * - A rule selecting nothing scores 0 at once. An XPath giving a string counts its characters (Python's len());
 *   a number or boolean is an error, as len() of them is upstream.
 * - With `text`, each selected element's own text (lxml's `.text`: the text before its first child, None when
 *   empty) is compared: `exact` true → equality (1 or 0), false → rapidfuzz ratio / 100 (0 against None); the
 *   rule's score is the best element's. A rule with `text` and no `exact` raises KeyError upstream: 0 here; so does
 *   `text` over selected attributes or text nodes (lxml gives them as strings, which have no `.text`).
 * - The result is the product of the rules' scores (fractional with fuzzy rules).
 */
export async function checkAccessibilityTree(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const osname = options.osname === undefined ? 'ubuntu' : String(options.osname);
  const namespaces = ACCESSIBILITY_NAMESPACES[osname];
  if (!namespaces) return fail(`osname '${osname}' is none of ubuntu, windows, macos`);
  if (typeof result !== 'string' || !result.trim())
    return fail(`no accessibility tree to read (got ${brief(result)})`);
  const rules = Array.isArray(expected)
    ? expected
    : isRecord(expected) && Array.isArray(expected.rules)
      ? expected.rules
      : undefined;
  if (!rules) return fail(`the rules must be a list, got ${brief(expected)}`);
  let doc: Document;
  try {
    doc = parseAccessibilityDocument(result);
  } catch (e) {
    return fail((e as Error).message);
  }
  let total = 1;
  const said: string[] = [];
  for (const [i, r] of rules.entries()) {
    if (!isRecord(r)) return fail(`rule ${i} is not an object: ${brief(r)}`);
    let found: XpathResult;
    let what: string;
    try {
      if ('xpath' in r) {
        if (typeof r.xpath !== 'string')
          return fail(`rule ${i}: xpath must be a string, got ${brief(r.xpath)}`);
        what = `xpath ${r.xpath}`;
        found = selectXpath(doc, r.xpath, namespaces);
      } else if ('selectors' in r) {
        const list: unknown[] | undefined = Array.isArray(r.selectors)
          ? r.selectors
          : typeof r.selectors === 'string'
            ? [...r.selectors]
            : undefined;
        if (!list || !list.every((s) => typeof s === 'string'))
          return fail(
            `rule ${i}: selectors must be a list of strings, got ${brief(r.selectors)} (Python's join raises TypeError)`,
          );
        what = `selector ${list.join(', ')}`;
        found = selectCss(doc, list.join(', '), namespaces);
      } else {
        return fail(`rule ${i} has neither 'xpath' nor 'selectors' (OSWorld raises ValueError)`);
      }
    } catch (e) {
      return fail(`rule ${i}: ${(e as Error).message}`);
    }
    if (typeof found === 'number' || typeof found === 'boolean')
      return fail(
        `rule ${i}: ${what} gives ${typeof found} ${String(found)}, not nodes (OSWorld's len() raises TypeError)`,
      );
    if (!found.length) return fail(`rule ${i}: no element matches ${what}`);
    if (!('text' in r)) {
      said.push(`${what}: ${found.length} ${typeof found === 'string' ? 'character(s)' : 'node(s)'}`);
      continue;
    }
    if (!('exact' in r)) return fail(`rule ${i} has 'text' but no 'exact' (OSWorld raises KeyError)`);
    if (typeof found === 'string')
      return fail(
        `rule ${i}: ${what} gives a string, whose characters have no .text (OSWorld raises AttributeError)`,
      );
    const texts: (string | null)[] = [];
    for (const n of found) {
      const t = nodeText(n);
      if (!t)
        return fail(
          `rule ${i}: ${what} selects an attribute or text node, which has no .text (OSWorld raises AttributeError)`,
        );
      texts.push(t.text);
    }
    const want = r.text;
    let best = 0;
    for (const have of texts) {
      const s = truthy(r.exact)
        ? Number(want === have)
        : typeof want === 'string' && have !== null
          ? fuzzRatio(want, have)
          : 0;
      best = Math.max(best, s);
    }
    said.push(`${what}: text ${brief(want)} scores ${Number(best.toFixed(4))}`);
    total *= best;
  }
  return total === 1 ? pass(said.join('; ') || 'no rules') : { score: total, reason: said.join('; ') };
}

registerDeparture({
  metric: 'check_accessibility_tree',
  profile: 'osworld',
  case: "XPath's namespace:: axis",
  why: "lxml's namespace:: axis lists the tree's declared prefixes (st, attr, cp …); Proctor's XPath (the npm package xpath over xmldom, namespace declarations dropped so that @* selects as lxml does) sees only the xml namespace there. Everything else selects as lxml does",
});
