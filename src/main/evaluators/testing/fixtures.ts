// Test helpers: the in-repo task fixtures, temp folders, and calling a registered metric.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metrics } from '../catalog';
import type { GradingContext } from '../getter';
import type { MetricOutcome } from '../metric';
import { repoFixtures } from '../../testing/shared-fixtures';

/** The native seed tasks and Spider2-V examples kept in the repository (fixtures/), present in every clone. */
export const seedJupyter = repoFixtures.seedJupyter;
export const spider2vExamples = repoFixtures.spider2vExamples;

/** A folder of the in-repo native seed fixtures, by the start of its uuid. */
export function seedTaskDir(prefix: string): string {
  const name = readdirSync(seedJupyter).find((d) => d.startsWith(prefix));
  if (!name) throw new Error(`no seed task ${prefix}* in ${seedJupyter}`);
  return join(seedJupyter, name);
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-eval-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copies a fixture file into `dir` (optionally changed by `edit`) and returns the copy's path. */
export function copyFixture(src: string, dir: string, name: string, edit?: (text: string) => string): string {
  const dest = join(dir, name);
  if (edit) writeFileSync(dest, edit(readFileSync(src, 'utf8')));
  else cpSync(src, dest);
  return dest;
}

/** Metrics that read only their inputs get no environment. */
const pureContext = undefined as unknown as GradingContext;

export function runMetric(
  name: string,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown> = {},
): Promise<MetricOutcome> {
  return metrics.require(name)(result, expected, options, pureContext);
}
