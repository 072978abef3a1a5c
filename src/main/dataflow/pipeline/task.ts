// A dataflow task file in UFO's input form: {app, unique_id, task, refined_steps}, keys lower-cased with spaces
// as `_`; app word|excel|powerpoint (any case) or writer|calc|impress, recorded as the LibreOffice module.
import type { Problem } from '../../../shared/task';
import { readJsonFile } from '../../tasks/files';

export type OfficeApp = 'writer' | 'calc' | 'impress';

const APPS: Record<string, OfficeApp> = {
  word: 'writer',
  writer: 'writer',
  excel: 'calc',
  calc: 'calc',
  powerpoint: 'impress',
  impress: 'impress',
};

export interface DataflowTask {
  file: string;
  app: OfficeApp;
  /** The app as the file names it. */
  appGiven: string;
  uniqueId: string;
  task: string;
  refinedSteps: string[];
}

/** The LibreOffice module for a task's `app` (word → writer, excel → calc, powerpoint → impress), or undefined. */
export function officeAppOf(app: string): OfficeApp | undefined {
  return APPS[app.trim().toLowerCase()];
}

/** Checks one parsed task; `file` names it in problems. */
export function parseTask(
  file: string,
  value: unknown,
): { ok: true; task: DataflowTask } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = [];
  const bad = (pointer: string, message: string) =>
    problems.push({ file, pointer, severity: 'error', message });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    bad('', 'a dataflow task is a JSON object {app, unique_id, task, refined_steps}');
    return { ok: false, problems };
  }
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) raw[k.trim().toLowerCase().replace(/\s+/g, '_')] = v;
  const appGiven = typeof raw.app === 'string' ? raw.app : '';
  const app = officeAppOf(appGiven);
  if (!app)
    bad(
      '/app',
      `app ${JSON.stringify(raw.app)} is not one of word, excel, powerpoint, writer, calc, impress`,
    );
  const id = raw.unique_id;
  const uniqueId =
    typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? String(id) : '';
  if (!uniqueId) bad('/unique_id', 'unique_id must be a non-empty string (or a whole number)');
  else if (!/^[\w.-]{1,200}$/.test(uniqueId))
    bad(
      '/unique_id',
      `unique_id ${JSON.stringify(uniqueId)} cannot name a file: use letters, digits, '_', '-', '.'`,
    );
  const task = typeof raw.task === 'string' ? raw.task.trim() : '';
  if (!task) bad('/task', 'task must be a non-empty string (the request to instantiate)');
  const steps = raw.refined_steps ?? [];
  if (!Array.isArray(steps) || steps.some((s) => typeof s !== 'string'))
    bad('/refined_steps', 'refined_steps must be a list of strings');
  if (problems.length) return { ok: false, problems };
  return { ok: true, task: { file, app: app!, appGiven, uniqueId, task, refinedSteps: steps as string[] } };
}

/** Reads and checks a task file. */
export async function readTask(
  file: string,
): Promise<{ ok: true; task: DataflowTask } | { ok: false; problems: Problem[] }> {
  const read = await readJsonFile(file);
  if (!read.ok) return { ok: false, problems: [read.problem] };
  return parseTask(file, read.value);
}
