// OSWorld's check_accessibility_tree (desktop_env/evaluators/metrics/general.py), registered in the `os` family by
// os.ts: rules of CSS selectors or XPath over the accessibility tree's XML, each optionally checking the selected
// elements' text exactly or by rapidfuzz's ratio; the score is the product over the rules.
import { fail, pass, type MetricOutcome } from '../metric';
import { ACCESSIBILITY_NAMESPACES, leadingText, parseAccessibilityDocument, selectCss, selectXpath } from './accessibility-select';
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
 * - `xpath` wins over `selectors`; `selectors` are joined with ", " into one selector list; neither is an error.
 * - A rule selecting no element scores 0 at once.
 * - With `text`, each selected element's own text (lxml's `.text`: the text before its first child, None when
 *   empty) is compared: `exact` true → equality (1 or 0), false → rapidfuzz ratio / 100 (0 against None); the
 *   rule's score is the best element's. A rule with `text` and no `exact` raises KeyError upstream: 0 here.
 * - The result is the product of the rules' scores (fractional with fuzzy rules).
 * Selection reads tag and attribute matching only (accessibility-select.ts); a rule using pseudo-classes or XPath
 * functions scores 0 naming what is missing (full CSS / XPath need the npm packages css-select / xpath).
 */
export async function checkAccessibilityTree(result: unknown, expected: unknown, options: Record<string, unknown>): Promise<MetricOutcome> {
  const osname = options.osname === undefined ? 'ubuntu' : String(options.osname);
  const namespaces = ACCESSIBILITY_NAMESPACES[osname];
  if (!namespaces) return fail(`osname '${osname}' is none of ubuntu, windows, macos`);
  if (typeof result !== 'string' || !result.trim()) return fail(`no accessibility tree to read (got ${brief(result)})`);
  const rules = Array.isArray(expected) ? expected : isRecord(expected) && Array.isArray(expected.rules) ? expected.rules : undefined;
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
    let elements: Element[];
    let what: string;
    try {
      if ('xpath' in r) {
        what = `xpath ${String(r.xpath)}`;
        elements = selectXpath(doc, String(r.xpath), namespaces);
      } else if ('selectors' in r) {
        const list = Array.isArray(r.selectors) ? r.selectors.map(String) : [String(r.selectors)];
        what = `selector ${list.join(', ')}`;
        elements = selectCss(doc, list.join(', '), namespaces);
      } else {
        return fail(`rule ${i} has neither 'xpath' nor 'selectors' (OSWorld raises ValueError)`);
      }
    } catch (e) {
      return fail(`rule ${i}: ${(e as Error).message}`);
    }
    if (!elements.length) return fail(`rule ${i}: no element matches ${what}`);
    if (!('text' in r)) {
      said.push(`${what}: ${elements.length} element(s)`);
      continue;
    }
    if (!('exact' in r)) return fail(`rule ${i} has 'text' but no 'exact' (OSWorld raises KeyError)`);
    const want = r.text;
    let best = 0;
    for (const el of elements) {
      const have = leadingText(el);
      const s = truthy(r.exact) ? Number(want === have) : typeof want === 'string' && have !== null ? fuzzRatio(want, have) : 0;
      best = Math.max(best, s);
    }
    said.push(`${what}: text ${brief(want)} scores ${Number(best.toFixed(4))}`);
    total *= best;
  }
  return total === 1 ? pass(said.join('; ') || 'no rules') : { score: total, reason: said.join('; ') };
}
