// Families of OSWorld's metrics and getters (documents, sheets, browser, os, …): which app a name belongs to, and
// what a getter needs from the environment. `proctor evaluators` lists names with their family and needs.
import { getters, type Getter } from './getter';
import { metrics, type Metric } from './metric';

export type Family =
  | 'documents'
  | 'sheets'
  | 'slides'
  | 'images'
  | 'pdf'
  | 'media'
  | 'browser'
  | 'thunderbird'
  | 'vscode'
  | 'gimp'
  | 'vlc'
  | 'os';

/** What a getter reaches on the machine, through the Environment. */
export type Capability = 'files' | 'commands' | 'devtools' | 'downloads' | 'screen' | 'accessibility';

const metricFamilies = new Map<string, Family>();
const getterNeeds = new Map<string, { family: Family; needs: Capability[] }>();

/** Registers OSWorld metrics of one family. Their robust metric is OSWorld's reading: no variant is needed. */
export function registerMetricFamily(family: Family, entries: Record<string, Metric>): void {
  for (const [name, fn] of Object.entries(entries)) {
    metrics.register(name, fn);
    metricFamilies.set(name, family);
  }
}

/** Registers one getter with its family and what it needs from the environment. */
export function registerFamilyGetter(family: Family, name: string, needs: Capability[], fn: Getter): void {
  getters.register(name, fn);
  getterNeeds.set(name, { family, needs });
}

export function metricFamilyOf(name: string): Family | undefined {
  return metricFamilies.get(name);
}

export function getterNeedsOf(name: string): { family: Family; needs: Capability[] } | undefined {
  return getterNeeds.get(name);
}
