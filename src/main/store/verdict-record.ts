// The one way a verdict is written: the task's verdicts.jsonl (fsynced), judge verdicts also evaluation.log in UFO's
// line form, and — for a Proctor run — the `verdict` event on the run's events.jsonl and the live bus. Both the
// run writer (during a run) and appendVerdict (any readable run, afterwards) call it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Verdict } from '../../shared/run';
import { publish } from './events';
import { appendJsonLine } from './files';
import { files } from './layout';

export function recordVerdict(
  taskDir: string,
  verdict: Verdict,
  run?: { runDir: string; runId: string; taskKey: string },
): void {
  mkdirSync(taskDir, { recursive: true });
  appendJsonLine(join(taskDir, files.verdicts), verdict, { fsync: true });
  if (verdict.kind === 'judge')
    appendJsonLine(join(taskDir, files.evaluationLog), {
      reason: verdict.reason,
      sub_scores: verdict.subScores,
      complete: verdict.complete,
    });
  if (!run) return;
  const event = { kind: 'verdict' as const, runId: run.runId, taskKey: run.taskKey, verdict };
  appendJsonLine(join(run.runDir, files.events), event);
  publish(event);
}
