// A judge verdict in UFO's execution-record form (`execution_result` of execution_schema.json): `sub_scores` as
// the schema's object (name → verdict), and a stage error as {type, message, traceback}. UFO's current code
// writes `sub_scores` as a list; Proctor writes the schema's form and reads both (reply.ts).
import type { JudgeVerdict } from '../../shared/run';

export interface UfoExecutionResult {
  result: { reason: string; sub_scores: Record<string, string>; complete: string } | null;
  error: { type: string; message: string; traceback: string } | null;
}

export function executionResultOf(verdict: JudgeVerdict): UfoExecutionResult {
  if (verdict.error)
    return { result: null, error: { type: 'JudgeError', message: verdict.error, traceback: '' } };
  const subScores: Record<string, string> = {};
  for (const s of verdict.subScores) {
    let name = s.name;
    for (let n = 2; name in subScores; n++) name = `${s.name} (${n})`; // keep repeated names apart
    subScores[name] = s.evaluation;
  }
  return {
    result: { reason: verdict.reason, sub_scores: subScores, complete: verdict.complete },
    error: null,
  };
}
