// Reads UFO's log folders (microsoft/UFO): a run is a `logs/` folder whose `<task>/` folders hold
//   response.log      one JSON line per agent step, in UFO²'s lowercase keys or UFO 1.x's capitalised ones (read
//                     by ufo-steps.ts), or {step, status: "ERROR", response, error}
//   request.log       the prompts, with base64 screenshots — never read here (it is large and holds images)
//   action_step<N>.png (+ _annotated, _concat, _selected_controls), action_step_final.png, ui_trees/ui_tree_step<N>.json
//   evaluation.log    the EvaluationAgent's verdicts: {reason, sub_scores, complete} (older: Reason, Sub-score, Complete)
// UFO acts on controls (click_input on a named control), not on screen pixels, so its steps carry no typed
// actions: `actionText` and the response text say what was done, on which control. A session is graded by its
// EvaluationAgent, so the run's rate is the judge's (`gradedBy: 'judge'`). Task keys are the task folder names.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { RunDetail, TaskTrajectory } from '../../shared/api';
import { successRateOf } from '../../shared/grading';
import { runSafety, standingSafety } from './safety-standing';
import type {
  Completion,
  JudgeVerdict,
  RunListItem,
  RunTaskItem,
  StepRecord,
  TaskState,
  Verdict,
} from '../../shared/run';
import type { Problem } from '../../shared/task';
import { readJsonLines } from './files';
import { checkedForeignFile, readNumberedJsonLines } from './foreign-files';
import { foreignRunStartedAt } from './started-at';
import { files } from './layout';
import { subdirs } from './foreign-files';
import {
  describeUfoStep,
  isUfoError,
  str,
  timingTotal,
  ufoActionText,
  ufoApplication,
  ufoFeedback,
  ufoRawAction,
  ufoRequest,
  ufoShotName,
  ufoStatus,
  ufoStepNumbers,
  ufoTiming,
  withoutImages,
  type UfoLine,
} from './ufo-steps';

export { describeUfoStep } from './ufo-steps';

export const ufoFiles = {
  response: 'response.log',
  request: 'request.log',
  evaluation: 'evaluation.log',
  uiTrees: 'ui_trees',
  finalShot: 'action_step_final.png',
} as const;

const shotName = (n: number, variant = '') => `action_step${n}${variant}.png`;

function hasStepShots(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => /^action_step(\d+|_final)\.png$/.test(n));
  } catch {
    return false;
  }
}

/** A UFO task folder: response.log, or evaluation.log beside action_step screenshots (never a trajectory file). */
export function isUfoTaskDir(dir: string): boolean {
  if (
    existsSync(join(dir, files.traj)) ||
    existsSync(join(dir, 'trajectory.jsonl')) ||
    existsSync(join(dir, files.manifest))
  )
    return false;
  if (existsSync(join(dir, ufoFiles.response))) return true;
  return existsSync(join(dir, ufoFiles.evaluation)) && hasStepShots(dir);
}

/** True when `dir` is a UFO `logs/` folder: some sub-folder is a UFO task folder. */
export function isUfoRunDir(dir: string): boolean {
  if (existsSync(join(dir, files.manifest))) return false;
  return subdirs(dir).some((t) => isUfoTaskDir(join(dir, t)));
}

/** The folder of a UFO task key (a task folder name); throws for keys that are not one plain folder name. */
export function ufoTaskDir(runDir: string, taskKey: string): string {
  if (!taskKey || taskKey.includes('/') || taskKey.includes('\\') || taskKey.startsWith('.'))
    throw new Error(`'${taskKey}' is not a UFO task key (the name of a task folder below ${runDir})`);
  return join(runDir, taskKey);
}

type Line = UfoLine;

function completionOf(v: unknown): Completion | undefined {
  if (v === true) return 'yes';
  if (v === false) return 'no';
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return s === 'yes' || s === 'no' || s === 'unsure' ? s : undefined;
}

/** evaluation.log lines as judge verdicts; sub_scores as a list of {name, evaluation} or an object name → value. */
export function readUfoEvaluation(file: string): { verdicts: JudgeVerdict[]; problems: Problem[] } {
  const read = readNumberedJsonLines<unknown>(file);
  const problems = [...read.problems];
  const verdicts: JudgeVerdict[] = [];
  if (!existsSync(file)) return { verdicts, problems };
  const fallbackAt = new Date(statSync(file).mtimeMs).toISOString();
  read.values.forEach(({ line, value: raw }) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push({ file, line, severity: 'warning', message: 'not a JSON object; it is skipped' });
      return;
    }
    const v = raw as Line;
    const completeRaw = v.complete ?? v.Complete;
    const complete = completionOf(completeRaw);
    if (!complete)
      problems.push({
        file,
        line,
        severity: 'warning',
        message: `complete is ${JSON.stringify(completeRaw) ?? 'missing'}, not yes / no / unsure; read as unsure`,
      });
    const subRaw = v.sub_scores ?? v['Sub-score'] ?? v.sub_score ?? v.SubScores;
    const subScores: JudgeVerdict['subScores'] = [];
    const addSub = (name: unknown, evaluation: unknown, where: string) => {
      const e = completionOf(evaluation);
      if (typeof name !== 'string' || !e) {
        problems.push({
          file,
          line,
          severity: 'warning',
          message: `sub-score ${where} is not a name with yes / no / unsure; it is skipped`,
        });
        return;
      }
      subScores.push({ name, evaluation: e });
    };
    if (Array.isArray(subRaw))
      subRaw.forEach((s, j) => {
        const o = (s && typeof s === 'object' ? s : {}) as Line;
        addSub(o.name ?? o.Name, o.evaluation ?? o.Evaluation ?? o.score, `#${j}`);
      });
    else if (subRaw && typeof subRaw === 'object')
      for (const [k, e] of Object.entries(subRaw)) addSub(k, e, `'${k}'`);
    else if (subRaw !== undefined)
      problems.push({
        file,
        line,
        severity: 'warning',
        message: 'sub_scores is neither a list nor an object; it is ignored',
      });
    const options: Record<string, unknown> = { source: 'UFO evaluation.log', line };
    for (const k of ['level', 'id', 'evaluator']) if (v[k] !== undefined) options[k] = v[k];
    verdicts.push({
      kind: 'judge',
      reason: String(v.reason ?? v.Reason ?? ''),
      subScores,
      complete: complete ?? 'unsure',
      model: str(v.model) ?? 'UFO EvaluationAgent',
      options,
      ...(str(v.error) ? { error: str(v.error) } : {}),
      at: str(v.at) ?? fallbackAt,
    });
  });
  return { verdicts, problems };
}

interface UfoTask {
  item: RunTaskItem;
  steps: StepRecord[];
  verdicts: Verdict[];
  problems: Problem[];
  request?: string;
}

function mtimeIso(file: string): string | undefined {
  try {
    return new Date(statSync(file).mtimeMs).toISOString();
  } catch {
    return undefined;
  }
}

function readTask(runDir: string, name: string, detail: boolean): UfoTask {
  const dir = join(runDir, name);
  const problems: Problem[] = [];
  const responseFile = join(dir, ufoFiles.response);
  const read = readNumberedJsonLines<unknown>(responseFile);
  problems.push(...read.problems);
  const lines: Line[] = [];
  for (const { line, value } of read.values) {
    if (value && typeof value === 'object' && !Array.isArray(value)) lines.push(value as Line);
    else
      problems.push({
        file: responseFile,
        line,
        severity: 'warning',
        message: 'not a JSON object; it is skipped',
      });
  }
  if (!existsSync(responseFile))
    problems.push({
      file: responseFile,
      severity: 'warning',
      message: 'no response.log: the task has no steps to show',
    });

  const app = lines.map(ufoApplication).find(Boolean);
  const request = lines.map(ufoRequest).find(Boolean);
  const item: RunTaskItem = {
    key: name,
    taskId: name,
    domain: app ? app.replace(/\.exe$/i, '').toLowerCase() : 'ufo',
    app,
    instruction: request,
    state: 'pending',
    steps: lines.length,
  };

  const steps: StepRecord[] = [];
  if (detail) {
    const fallbackAt = mtimeIso(responseFile) ?? new Date(0).toISOString();
    const numbers = ufoStepNumbers(lines);
    /** A screenshot the line names when it is in the task folder, else UFO's file name for step `n`. */
    const shotOf = (line: Line, kind: 'clean' | 'annotated', n: number) => {
      const named = ufoShotName(line, kind);
      return named && existsSync(join(dir, named))
        ? named
        : shotName(n, kind === 'annotated' ? '_annotated' : '');
    };
    lines.forEach((line, i) => {
      const n = numbers[i];
      const record: StepRecord = {
        step: i + 1,
        at: fallbackAt,
        response: `${describeUfoStep(line, n)}\n\n${JSON.stringify(withoutImages(line), null, 2)}`,
        rawAction: ufoRawAction(line),
        actions: [],
        done: /^finish$/i.test(ufoStatus(line) ?? ''),
      };
      const what = ufoActionText(line);
      if (what) record.actionText = what.length > 500 ? `${what.slice(0, 500)}…` : what;
      const feedback = ufoFeedback(line);
      if (feedback) record.feedback = feedback;
      const timing = ufoTiming(line);
      if (timing) record.timing = timing;
      if (n !== undefined) {
        const clean = checkedForeignFile(runDir, join(name, shotOf(line, 'clean', n)), problems, {
          what: 'screenshot',
          step: i + 1,
        });
        if (clean) {
          record.observation = clean;
          record.at = mtimeIso(join(runDir, clean)) ?? fallbackAt;
        }
        const annotated = checkedForeignFile(runDir, join(name, shotOf(line, 'annotated', n)), problems, {
          what: 'annotated screenshot',
          step: i + 1,
          reportMissing: false,
        });
        if (annotated) record.somObservation = annotated;
        const tree = checkedForeignFile(
          runDir,
          join(name, ufoFiles.uiTrees, `ui_tree_step${n}.json`),
          problems,
          {
            what: 'UI tree',
            step: i + 1,
            reportMissing: false,
          },
        );
        if (tree) record.a11yTable = tree;
      }
      steps.push(record);
    });
    // The screen after a step is the next step's clean screenshot, or action_step_final.png after the last.
    for (let i = 0; i < steps.length; i++) {
      if (i + 1 < steps.length) {
        if (steps[i + 1].observation) steps[i].screenshot = steps[i + 1].observation;
      } else if (existsSync(join(dir, ufoFiles.finalShot))) {
        const fin = checkedForeignFile(runDir, join(name, ufoFiles.finalShot), problems, {
          what: 'final screenshot',
        });
        if (fin) steps[i].screenshot = fin;
      }
    }
  }

  const own = readJsonLines<Verdict>(join(dir, files.verdicts));
  problems.push(...own.problems);
  const evaluation = readUfoEvaluation(join(dir, ufoFiles.evaluation));
  problems.push(...evaluation.problems);
  // Proctor's judge writes each verdict to both files: keep the verdicts.jsonl copy.
  const ownJudge = own.values.filter((v): v is JudgeVerdict => v.kind === 'judge');
  const fromLog = evaluation.verdicts.filter(
    (e) => !ownJudge.some((o) => o.reason === e.reason && o.complete === e.complete),
  );
  const verdicts: Verdict[] = [...fromLog, ...own.values];
  const last = (kind: 'judge' | 'human'): Completion | undefined => {
    for (let i = verdicts.length - 1; i >= 0; i--) {
      const v = verdicts[i];
      if (v.kind === kind && v.complete) return v.complete;
    }
    return undefined;
  };
  item.judge = last('judge');
  item.human = last('human');
  const safety = standingSafety(verdicts);
  if (safety) item.safety = safety;

  const statuses = lines.map(ufoStatus);
  const lastError = [...lines].reverse().find(isUfoError);
  let state: TaskState = 'pending';
  if (statuses.some((s) => s && /^(finish|fail)$/i.test(s))) state = 'success';
  else if (lastError && lines[lines.length - 1] === lastError) {
    state = 'agent_error';
    item.error = String(lastError.error ?? 'the agent stopped with an error').slice(0, 2000);
  } else if (evaluation.verdicts.length || existsSync(join(dir, ufoFiles.finalShot))) {
    state = 'max_steps_error';
    item.error = 'the session ended without FINISH (step limit reached or stopped)';
  } else if (lines.length) {
    state = 'cancelled';
    item.error = 'the log ends without FINISH or an evaluation: the session stopped early';
  }
  item.state = state;
  const total = lines.map(ufoTiming).reduce((sum, t) => sum + timingTotal(t), 0);
  if (total > 0) item.timingMs = total;
  return { item, steps, verdicts, problems, request };
}

const finishedStates: ReadonlySet<TaskState> = new Set([
  'success',
  'max_steps_error',
  'agent_error',
  'timed_out',
  'env_error',
]);

export function readUfoRun(runDir: string, root: string): RunDetail {
  const tasks = subdirs(runDir)
    .filter((t) => isUfoTaskDir(join(runDir, t)))
    .map((t) => readTask(runDir, t, false));
  const items = tasks.map((t) => t.item);
  const judged = items.filter((t) => t.judge !== undefined);
  const run: RunListItem = {
    runId: basename(runDir),
    path: relative(root, runDir) || '.',
    format: 'ufo',
    startedAt: foreignRunStartedAt(runDir, tasks),
    // foreignRunStartedAt falls back to the folder's mtime only when no step carries a time: say which it was.
    startedAtSource: tasks.some((t) => t.steps.some((st) => Date.parse(st.at) > 0)) ? 'harness' : 'mtime',
    agent: 'UFO',
    tasks: items.length,
    finished: items.filter((t) => finishedStates.has(t.state)).length,
    // UFO grades a session by its EvaluationAgent's verdict (evaluation.log), not by a rule score: the rate is the
    // judge's, over every task (a task without a verdict counts as not done).
    gradedBy: 'judge',
    successRate: judged.length ? successRateOf(items, 'judge') : undefined,
    live: false,
  };
  const safety = runSafety(items);
  if (safety) run.safety = safety;
  return { run, manifest: { layout: 'ufo' }, tasks: items, problems: tasks.flatMap((t) => t.problems) };
}

export function readUfoTask(runDir: string, taskKey: string): TaskTrajectory {
  const dir = ufoTaskDir(runDir, taskKey);
  if (!isUfoTaskDir(dir))
    throw new Error(`${dir} holds no response.log (nor evaluation.log with action_step screenshots)`);
  const t = readTask(runDir, taskKey, true);
  return {
    runId: basename(runDir),
    taskKey,
    item: t.item,
    steps: t.steps,
    verdicts: t.verdicts,
    task: { id: taskKey, domain: t.item.domain, app: t.item.app, instruction: t.request },
    problems: t.problems,
  };
}
