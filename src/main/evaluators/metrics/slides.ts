// OSWorld's Impress metrics (family `slides`; desktop_env/evaluators/metrics/slides.py). So far: the presenter
// console setting in LibreOffice's registrymodifications.xcu. compare_pptx_files and the shape checks are not
// registered yet.
import { DOMParser } from '@xmldom/xmldom';
import { registerMetricFamily } from '../family';
import { fail, verdict, type MetricOutcome } from '../metric';
import { brief, readText } from './inputs';

const OOR = 'http://openoffice.org/2001/registry';

/** check_presenter_console_disable — `result`: registrymodifications.xcu; 1 when the first
 * Impress/Misc/Start EnablePresenterScreen item is `false`. */
async function checkPresenterConsoleDisable(result: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`config file ${brief(result)} cannot be read`);
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: () => undefined, fatalError: () => undefined } }).parseFromString(text, 'application/xml');
  for (const item of Array.from(doc.getElementsByTagName('item'))) {
    if (item.getAttributeNS(OOR, 'path') !== '/org.openoffice.Office.Impress/Misc/Start') continue;
    for (const prop of Array.from(item.childNodes)) {
      const p = prop as Element;
      if (p.nodeType !== 1 || p.localName !== 'prop' || p.getAttributeNS(OOR, 'name') !== 'EnablePresenterScreen') continue;
      const value = Array.from(p.childNodes).find((n) => (n as Element).localName === 'value')?.textContent ?? '';
      return verdict(value.toLowerCase() === 'false', 'the presenter console is disabled', `EnablePresenterScreen is '${value}'`);
    }
  }
  return fail('EnablePresenterScreen is not set (the presenter console is on by default)');
}

registerMetricFamily('slides', { check_presenter_console_disable: checkPresenterConsoleDisable });
