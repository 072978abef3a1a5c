// Which checks of a task can be graded again from what the run stored, and which need the live machine.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Check, GetterSpec } from '../../shared/task';
import { planOf, type Plan } from '../evaluators/grade';
import { accountServiceOf, getters } from '../evaluators/catalog';
import { gradingCacheFolder, type FetchedFiles } from './stored';

/** Getters that read only the task itself (its folder and its JSON): always gradable again. */
const taskOnly = new Set(['rule', 'list', 'local_file']);

export interface CheckNeeds {
  check: Check;
  /** Getters (by type) that need the live environment; empty = gradable from the stored artefacts. */
  live: string[];
}

/** Every getter spec a check's plan uses (composite checks: all their parts). */
function specsOf(plan: Plan): GetterSpec[] {
  if (plan.kind === 'combine') return plan.parts.flatMap(specsOf);
  return [plan.result, plan.expected].filter((s): s is GetterSpec => s !== undefined);
}

/** The cache names a `cloud_file` spec writes (its `dest`, or each of a `multi` spec's). */
export function cloudDests(spec: GetterSpec): string[] {
  const dests = spec.multi === true ? (Array.isArray(spec.dest) ? spec.dest : []) : [spec.dest];
  return dests.filter((d): d is string => typeof d === 'string' && d !== '');
}

/** Whether one getter can be answered without the live environment, given what the run stored (and the
 * downloads folder, when re-grading has one). */
function storedAnswer(
  spec: GetterSpec,
  fetched: FetchedFiles,
  taskDir: string,
  downloads: string | undefined,
): boolean {
  if (taskOnly.has(spec.type)) return true;
  // Cloud getters answer "needs account" without any machine; re-grading says so again.
  if (accountServiceOf(spec.type)) return true;
  // An unknown getter fails the same way anywhere; grading names it.
  if (!getters.has(spec.type)) return true;
  if (spec.type === 'vm_file') {
    const paths = Array.isArray(spec.path) ? spec.path : [spec.path];
    return paths.every((p) => typeof p === 'string' && fetched.has(p));
  }
  if (spec.type === 'cache_file')
    return typeof spec.path === 'string' && existsSync(join(taskDir, gradingCacheFolder, spec.path));
  // A cloud file is read again from the downloads folder (a changed gold counts), else the copy grading kept
  if (spec.type === 'cloud_file') {
    const dests = cloudDests(spec);
    return (
      downloads !== undefined ||
      (dests.length > 0 && dests.every((d) => existsSync(join(taskDir, gradingCacheFolder, d))))
    );
  }
  // vm_script_output, vm_command_line, dbt_profiles (probes guest folders), the browser getters (CDP), …
  return false;
}

/** For each check of a task, the getters it would need the live environment for. */
export function checkNeeds(
  checks: Check[],
  fetched: FetchedFiles,
  taskDir: string,
  downloads?: string,
): CheckNeeds[] {
  return checks.map((check) => {
    const live = specsOf(planOf(check))
      .filter((s) => !storedAnswer(s, fetched, taskDir, downloads))
      .map((s) => s.type);
    return { check, live: [...new Set(live)] };
  });
}

export function liveMessage(live: string[]): string {
  return `needs the live environment: ${live.join(', ')}`;
}
