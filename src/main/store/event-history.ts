// Reading a run's events.jsonl as history. A task redone by `--resume` leaves the verdict events of its killed
// attempt in the log; the `verdict.superseded` event appended when the attempt was moved aside names them, and
// readers of the log skip them (standingVerdicts).
import { join } from 'node:path';
import type { RunEvent } from '../../shared/run';
import { readJsonLines } from './files';
import { files } from './layout';

export type VerdictEvent = Extract<RunEvent, { kind: 'verdict' }>;

const verdictKey = (taskKey: string, kind: string, at: string) => `${taskKey}\u0000${kind}\u0000${at}`;
const isStepLine = (line: string) => line.startsWith('{"kind":"task.step"');

function isVerdictEvent(e: RunEvent): e is VerdictEvent {
  return e?.kind === 'verdict' && typeof e.taskKey === 'string' && typeof e.verdict?.at === 'string';
}

/** The verdict events of `events` that no later `verdict.superseded` event names, in log order. */
export function standingVerdicts(events: RunEvent[]): VerdictEvent[] {
  const superseded = new Set<string>();
  for (const e of events) {
    if (e?.kind !== 'verdict.superseded' || !Array.isArray(e.verdicts)) continue;
    for (const v of e.verdicts) superseded.add(verdictKey(e.taskKey, v?.kind, v?.at));
  }
  return events
    .filter(isVerdictEvent)
    .filter((e) => !superseded.has(verdictKey(e.taskKey, e.verdict.kind, e.verdict.at)));
}

/** The standing verdict events of one task in a run folder's events.jsonl. */
export function standingVerdictsOf(runDir: string, taskKey: string): VerdictEvent[] {
  const { values } = readJsonLines<RunEvent>(join(runDir, files.events), { skip: isStepLine });
  return standingVerdicts(values).filter((e) => e.taskKey === taskKey);
}
