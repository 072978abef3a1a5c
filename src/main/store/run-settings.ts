// What a foreign result folder's layout says about its run: Spider2-V's `<as>_<obs>_<model>[_rag][_ef]` folder
// name, OSWorld's `<as>/<obs>/<model>` nesting, and people's renamed `<YYYYMMDD@HHMMSS>-<verdict>[-note]` folders.
import { basename, dirname } from 'node:path';
import type { Completion, HumanLabel, RunSettings } from '../../shared/run';
import { parseOsworldTimestamp } from './timestamp';
import { ACTION_SPACES } from '../../shared/spaces';

/** Observation types of OSWorld and Spider2-V, longest first (so `screenshot_a11y_tree` is not read as `screenshot`). */
export const OBSERVATIONS = ['screenshot_a11y_tree', 'a11y_tree', 'screenshot', 'som'] as const;
/** The action spaces a Spider2-V folder name may start with: Proctor's own. */
export const FLAT_ACTION_SPACES = ACTION_SPACES;

export interface FlatSettings extends RunSettings {
  temperature?: number;
  trajectoryLength?: number;
}

/**
 * Spider2-V's run folder name: `[verbose_]<as>_<obs>_<model>[_<flag>…]`. The model is the one segment after the
 * observation; every later `_` segment is a flag (`ef` execution feedback, `rag` retrieval, `temp1.0`, `traj3`,
 * or one Proctor does not know), never part of the model's name.
 */
export function flatRunSettings(name: string): FlatSettings | undefined {
  const m = new RegExp(
    `^(verbose_)?(${FLAT_ACTION_SPACES.join('|')})_(${OBSERVATIONS.join('|')})_(.+)$`,
  ).exec(name);
  if (!m) return undefined;
  const [model, ...rest] = m[4].split('_');
  if (!model) return undefined;
  const flags = [...(m[1] ? ['verbose'] : []), ...rest.filter(Boolean)];
  const out: FlatSettings = { actionSpace: m[2], observation: m[3], model };
  if (flags.length) out.flags = flags;
  for (const f of rest) {
    const t = /^temp([0-9.]+)$/.exec(f);
    if (t && Number.isFinite(Number(t[1]))) out.temperature = Number(t[1]);
    const n = /^traj(\d+)$/.exec(f);
    if (n) out.trajectoryLength = Number(n[1]);
  }
  return out;
}

/** OSWorld's nesting `<as>/<obs>/<model>` above a run folder, when the observation is one the harnesses write. */
export function nestedRunSettings(runDir: string): RunSettings | undefined {
  const observation = basename(dirname(runDir));
  const actionSpace = basename(dirname(dirname(runDir)));
  if (!(OBSERVATIONS as readonly string[]).includes(observation) || !actionSpace) return undefined;
  return { actionSpace, observation, model: basename(runDir) };
}

/** `20250226@161539-failed-timeout`: a folder a person renamed to its start time and their verdict. */
export interface FolderName {
  at: Date;
  verdict?: string;
  note?: string;
}

export function parseFolderName(name: string): FolderName | undefined {
  const m = /^(\d{8}@\d{6})(?:-([^-]+)(?:-(.+))?)?$/.exec(name);
  const at = m ? parseOsworldTimestamp(m[1]) : undefined;
  if (!m || !at) return undefined;
  return { at, verdict: m[2], note: m[3] };
}

const YES = /^(success|succeeded|successful|pass|passed|complete|completed|done|ok|solved|yes)$/i;
const NO = /^(fail|failed|failure|error|incomplete|unsolved|no)$/i;

/**
 * The verdict a person wrote into a folder name, as an imported human label by the person "folder name". It is a
 * label beside the rule score (result.txt), never counted as that score.
 */
export function folderLabel(name: string, folder: FolderName): HumanLabel | undefined {
  if (!folder.verdict) return undefined;
  const complete: Completion = YES.test(folder.verdict) ? 'yes' : NO.test(folder.verdict) ? 'no' : 'unsure';
  return {
    kind: 'human',
    author: 'folder name',
    complete,
    comment: `folder '${name}': ${folder.verdict}${folder.note ? ` (${folder.note})` : ''}`,
    source: 'folder name',
    at: folder.at.toISOString(),
  };
}
