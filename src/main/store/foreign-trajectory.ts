// The lines of another harness's trajectory file (OSWorld traj.jsonl, Spider2-V trajectory.jsonl) as replay
// entries: one entry per line, `step` = the harness's step_num, `line` = the file's line; `{"Error": …}` lines
// are entries of the step they interrupted. Actions are parsed to draw them (actions/display.ts), never run.
import type { StepRecord } from '../../shared/run';
import type { Problem } from '../../shared/task';
import { displayAction, PointerState } from '../actions/display';
import type { NumberedLine } from './foreign-files';
import { parseOsworldTimestamp } from './timestamp';

/** One line as harnesses write it (OSWorld and Spider2-V share the keys; Spider2-V has no screenshot_file). */
export interface ForeignTrajLine {
  step_num?: unknown;
  action_timestamp?: unknown;
  action?: unknown;
  response?: unknown;
  reward?: unknown;
  done?: unknown;
  info?: unknown;
  screenshot_file?: unknown;
  Error?: unknown;
}

export interface ForeignEntries {
  entries: StepRecord[];
  /** Texts of the `{"Error": …}` lines, in order. */
  errors: string[];
}

/** Why the harness says an executed action went wrong (Spider2-V's `info`: {status, message, error}). */
function infoFeedback(info: unknown): string | undefined {
  if (!info || typeof info !== 'object') return undefined;
  const i = info as { status?: unknown; message?: unknown; error?: unknown };
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  if (i.status === 'error') return `execution failed: ${text(i.message) || text(i.error) || 'no message'}`;
  if (text(i.error)) return `executed with errors: ${text(i.error)}`;
  return undefined;
}

/**
 * Entries of one trajectory file, in file order. `extra(entry, line)` adds what the layout knows per line
 * (screenshots, trees). A line without a usable step_num continues the previous step (with a warning).
 * `draw` false (a task table, which shows no actions) leaves `actions` empty and skips the parse.
 */
export function foreignEntries(
  file: string,
  lines: NumberedLine<ForeignTrajLine>[],
  problems: Problem[],
  extra?: (entry: StepRecord, line: ForeignTrajLine) => void,
  draw = true,
): ForeignEntries {
  const pointer = new PointerState();
  const entries: StepRecord[] = [];
  const errors: string[] = [];
  let step = 0;
  let lastAt = new Date(0).toISOString();
  for (const { line: lineNo, value } of lines) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      problems.push({ file, line: lineNo, severity: 'warning', message: 'not a JSON object; it is skipped' });
      continue;
    }
    if (value.Error !== undefined) {
      const error = typeof value.Error === 'string' ? value.Error : JSON.stringify(value.Error);
      errors.push(error);
      entries.push({ step: Math.max(step, 1), line: lineNo, at: lastAt, actions: [], error });
      continue;
    }
    const n = value.step_num;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0) step = n;
    else {
      step = step + 1;
      problems.push({
        file,
        line: lineNo,
        severity: 'warning',
        message: `step_num ${JSON.stringify(n) ?? 'is missing'}: not a whole number; the line is shown as step ${step}`,
      });
    }
    const ts = typeof value.action_timestamp === 'string' ? value.action_timestamp : undefined;
    const at = ts ? parseOsworldTimestamp(ts) : undefined;
    if (ts && !at)
      problems.push({
        file,
        line: lineNo,
        severity: 'warning',
        message: `action_timestamp '${ts}' is neither %Y%m%d@%H%M%S%f nor %Y%m%d@%H%M%S`,
      });
    if (at) lastAt = at.toISOString();
    const shown = draw ? displayAction(value.action, pointer) : { actions: [] };
    const entry: StepRecord = {
      step,
      line: lineNo,
      at: at ? at.toISOString() : lastAt,
      rawAction: value.action,
      actions: shown.actions,
    };
    if (shown.wouldRefuse) entry.wouldRefuse = shown.wouldRefuse;
    if (shown.toolAction) entry.toolAction = shown.toolAction;
    // Only the harness's own execution feedback is feedback: what Proctor cannot draw is in toolAction.
    const feedback = infoFeedback(value.info);
    if (feedback) entry.feedback = feedback;
    if (typeof value.response === 'string' && value.response) {
      entry.response = value.response;
      entry.model = [
        { role: 'assistant', text: value.response, source: `${file.split(/[\\/]/).pop()}:${lineNo}` },
      ];
    }
    if (value.done === true) entry.done = true;
    extra?.(entry, value);
    entries.push(entry);
  }
  return { entries, errors };
}

/** The harness's step numbers in order of first appearance. */
export function stepNumbers(entries: readonly StepRecord[]): number[] {
  return [...new Set(entries.filter((e) => e.error === undefined || e.actions.length).map((e) => e.step))];
}

/**
 * Sets `recordingAt` on every timed entry: seconds from the first action's timestamp. The harness starts the
 * recording just before the first model call and writes no start time, so the first action is the nearest
 * moment both share; the replay seeks to this offset, which can run a few seconds early (the first model turn).
 */
export function alignRecording(entries: StepRecord[]): void {
  const times = entries.map((e) => (e.error === undefined ? Date.parse(e.at) : NaN));
  const first = times.find((t) => t > 0);
  if (first === undefined) return;
  entries.forEach((e, i) => {
    const t = times[i] > 0 ? times[i] : Date.parse(e.at);
    if (t > 0) e.recordingAt = Math.max(0, (t - first) / 1000);
  });
}
