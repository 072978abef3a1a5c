// What a JSON file is, from its content (and, for tasks, its place on disk); what each line of a JSON-lines file
// is, from the file's name (Proctor's run files, OSWorld's traj.jsonl) or else from its first line.
import type { SchemaKind } from '../schemas';
import { basename } from 'node:path';
import { files as runFiles } from '../store/layout';
import { RUN_PLAN_FILE } from '../store/run-plan';

/** What a JSON file is: a kind with a published schema, or not one Proctor knows. */
export type FileKind = SchemaKind | 'unknown';

export const taskKinds: ReadonlySet<FileKind> = new Set(['task-native', 'task-spider2v', 'task-osworld']);

const taskKeys = [
  'id',
  'snapshot',
  'instruction',
  'source',
  'related_apps',
  'tags',
  'config',
  'evaluator',
  'evaluation',
  'counterpart',
  'action_number',
];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Decide the kind of a parsed JSON document. `file` helps only to tell split files and task layouts apart. */
export function detectFileKind(file: string, json: unknown): FileKind {
  // A tool-using agent's conversation, kept beside its trajectory by OSWorld forks.
  if (Array.isArray(json) && basename(file).toLowerCase() === AGENT_MESSAGES) return 'agent-messages';
  if (!isObject(json)) return 'unknown';
  const keys = Object.keys(json);
  const name = basename(file).toLowerCase();
  if (
    'runId' in json &&
    (name === runFiles.manifest || ('tasks' in json && ('actionSpace' in json || 'agent' in json)))
  )
    return 'run-manifest';
  // The run's settings resolved once (store/run-plan.ts), beside its manifest.
  if (name === RUN_PLAN_FILE) return 'run-plan';
  if (name === runFiles.summary && 'results' in json) return 'summary';
  if (
    'unique_id' in json &&
    ('instantiation_result' in json || 'execution_result' in json || 'original' in json)
  ) {
    const exec = json.execution_result;
    const time = json.time_cost;
    const executed =
      (isObject(exec) && (exec.result != null || exec.error != null)) ||
      (isObject(time) && (time.execute != null || time.execute_eval != null)); // a null time: the stage did not run
    return executed ? 'ufo-execution' : 'ufo-instantiation';
  }
  if ('step_num' in json || (keys.length === 1 && keys[0] === 'Error')) return 'traj-line';
  if ('complete' in json && 'sub_scores' in json) return 'judge';
  if (isObject(json.results) && ('id' in json || 'instruction' in json)) return 'summary';
  const taskish = taskKeys.filter((k) => k in json).length;
  if (taskish >= 2) {
    if ('evaluation' in json) return 'task-native';
    if (Array.isArray(json.config) && json.config.some((c) => isObject(c) && 'func' in c))
      return 'task-native';
    const flatLayout =
      !basename(file).startsWith('test_') && !/\/([^/]+)\/\1\.json$/.test(file.replace(/\\/g, '/'));
    if (typeof json.source === 'string' || (!('tags' in json) && flatLayout)) return 'task-osworld';
    return 'task-spider2v';
  }
  if (
    keys.length > 0 &&
    keys.every((k) => Array.isArray(json[k]) && (json[k] as unknown[]).every((x) => typeof x === 'string'))
  )
    return 'split';
  return 'unknown';
}

/** The conversation file OSWorld forks' tool-using agents write beside traj.jsonl. */
export const AGENT_MESSAGES = 'messages.json';

/** Line kinds of JSON-lines files, by file name (Spider2-V's trajectory.jsonl has no screenshot_file). */
const linesKindByName: Record<string, FileKind> = {
  [runFiles.events]: 'run-event',
  [runFiles.steps]: 'run-step',
  [runFiles.verdicts]: 'run-verdict',
  [runFiles.traj]: 'traj-line',
  'trajectory.jsonl': 'spider2v-traj-line',
};

const verdictKinds = new Set(['rule', 'judge', 'human']);

/**
 * The kind of every line of a `.jsonl` file: by its name when it is one of Proctor's run files or OSWorld's
 * traj.jsonl, else from the first line's content; `unknown` when neither tells.
 */
export function detectLinesKind(file: string, firstLine: unknown): FileKind {
  const byName = linesKindByName[basename(file).toLowerCase()];
  if (byName) return byName;
  if (!isObject(firstLine)) return 'unknown';
  const keys = Object.keys(firstLine);
  if ('step_num' in firstLine || (keys.length === 1 && keys[0] === 'Error'))
    return 'step_num' in firstLine && !('screenshot_file' in firstLine) ? 'spider2v-traj-line' : 'traj-line';
  if (typeof firstLine.kind === 'string' && 'runId' in firstLine) return 'run-event';
  if (typeof firstLine.kind === 'string' && verdictKinds.has(firstLine.kind) && 'at' in firstLine)
    return 'run-verdict';
  if (typeof firstLine.step === 'number' && Array.isArray(firstLine.actions)) return 'run-step';
  return 'unknown';
}
