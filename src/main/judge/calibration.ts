// Calibration: how far the judge agrees with the rule scores (score 1 = yes, 0 = no; fractional scores are
// listed apart) and with people's labels. Confusion matrix (judge yes / no / unsure × reference yes / no),
// precision and recall of "yes", Cohen's kappa, the disagreements to review, and the queue of `unsure`
// verdicts (and judge errors) for people.
//
// Kappa is computed over every pair with a decided reference, on the categories yes / no / unsure: a judge's
// `unsure` counts as a disagreement (it never matches a yes / no reference), so an indecisive judge scores lower.
import type { Completion, JudgeVerdict, Verdict } from '../../shared/run';
import { readRun, readTaskTrajectory } from '../store';

export type Reference = 'yes' | 'no';

export interface Pair {
  taskKey: string;
  judge: Completion;
  reference: Reference;
}

export interface Agreement {
  /** matrix[judge][reference] = number of tasks. */
  matrix: Record<Completion, Record<Reference, number>>;
  n: number;
  /** Share of pairs where judge = reference. */
  accuracy: number | undefined;
  /** Of the judge's "yes", how many the reference says yes. Undefined when the judge never said yes. */
  precisionYes: number | undefined;
  /** Of the reference's "yes", how many the judge said yes. Undefined when the reference has no yes. */
  recallYes: number | undefined;
  kappa: number | undefined;
  disagreements: Pair[];
}

const completions: Completion[] = ['yes', 'no', 'unsure'];

export function agreement(pairs: Pair[]): Agreement {
  const matrix = {
    yes: { yes: 0, no: 0 },
    no: { yes: 0, no: 0 },
    unsure: { yes: 0, no: 0 },
  } as Agreement['matrix'];
  for (const p of pairs) matrix[p.judge][p.reference]++;
  const n = pairs.length;
  const agree = matrix.yes.yes + matrix.no.no;
  const judgeYes = matrix.yes.yes + matrix.yes.no;
  const refYes = matrix.yes.yes + matrix.no.yes + matrix.unsure.yes;
  let kappa: number | undefined;
  if (n > 0) {
    const po = agree / n;
    let pe = 0;
    for (const c of completions) {
      const judgeShare = (matrix[c].yes + matrix[c].no) / n;
      const refShare = c === 'unsure' ? 0 : (matrix.yes[c] + matrix.no[c] + matrix.unsure[c]) / n;
      pe += judgeShare * refShare;
    }
    kappa = pe === 1 ? (po === 1 ? 1 : undefined) : (po - pe) / (1 - pe);
  }
  return {
    matrix,
    n,
    accuracy: n ? agree / n : undefined,
    precisionYes: judgeYes ? matrix.yes.yes / judgeYes : undefined,
    recallYes: refYes ? matrix.yes.yes / refYes : undefined,
    kappa,
    disagreements: pairs.filter((p) => p.judge !== p.reference),
  };
}

export interface Calibration {
  runDir: string;
  tasks: number;
  vsRule: Agreement;
  /** Tasks whose rule score is strictly between 0 and 1, with the judge's verdict. */
  fractional: { taskKey: string; score: number; judge?: Completion }[];
  vsHuman?: Agreement;
  /** Judge said `unsure`, or failed (with its error): for people to review. */
  reviewQueue: { taskKey: string; reason: string; error?: string }[];
  /** Tasks left out of the comparison, with why. */
  notCompared: { taskKey: string; why: string }[];
}

function lastOf<K extends Verdict['kind']>(
  verdicts: Verdict[],
  kind: K,
  accept: (v: Extract<Verdict, { kind: K }>) => boolean = () => true,
) {
  for (let i = verdicts.length - 1; i >= 0; i--) {
    const v = verdicts[i];
    if (v.kind === kind && accept(v as Extract<Verdict, { kind: K }>))
      return v as Extract<Verdict, { kind: K }>;
  }
  return undefined;
}

/** Reads a run's verdicts and compares the judge with the rule scores and the human labels. */
export function calibrate(runDir: string): Calibration {
  const run = readRun(runDir);
  const vsRule: Pair[] = [];
  const vsHuman: Pair[] = [];
  const fractional: Calibration['fractional'] = [];
  const reviewQueue: Calibration['reviewQueue'] = [];
  const notCompared: Calibration['notCompared'] = [];
  for (const item of run.tasks) {
    const verdicts = readTaskTrajectory(runDir, item.key).verdicts;
    const session = (v: JudgeVerdict) =>
      (v.options as Record<string, unknown> | undefined)?.round === undefined;
    const lastJudge = lastOf(verdicts, 'judge', session);
    const judge: JudgeVerdict | undefined = lastOf(verdicts, 'judge', (v) => session(v) && !v.error);
    if (lastJudge?.error)
      reviewQueue.push({ taskKey: item.key, reason: 'the judge failed', error: lastJudge.error });
    else if (judge?.complete === 'unsure')
      reviewQueue.push({ taskKey: item.key, reason: judge.reason || 'the judge is unsure' });
    const rule = lastOf(verdicts, 'rule');
    const score = rule?.score ?? item.score;
    if (!judge) {
      notCompared.push({
        taskKey: item.key,
        why: lastJudge?.error ? `judge error: ${lastJudge.error}` : 'not judged',
      });
    } else if (score === undefined || !Number.isFinite(score)) {
      notCompared.push({ taskKey: item.key, why: `no rule score (state ${item.state})` });
    } else if (score >= 1) vsRule.push({ taskKey: item.key, judge: judge.complete, reference: 'yes' });
    else if (score <= 0) vsRule.push({ taskKey: item.key, judge: judge.complete, reference: 'no' });
    else fractional.push({ taskKey: item.key, score, judge: judge.complete });
    const human = lastOf(verdicts, 'human', (v) => v.complete === 'yes' || v.complete === 'no');
    if (judge && human?.complete && human.complete !== 'unsure')
      vsHuman.push({ taskKey: item.key, judge: judge.complete, reference: human.complete });
  }
  return {
    runDir,
    tasks: run.tasks.length,
    vsRule: agreement(vsRule),
    fractional,
    vsHuman: vsHuman.length ? agreement(vsHuman) : undefined,
    reviewQueue,
    notCompared,
  };
}

const pct = (x: number | undefined) => (x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | undefined) => (x === undefined ? 'n/a' : x.toFixed(3));

function agreementLines(title: string, a: Agreement): string[] {
  const w = 9;
  const cell = (s: string | number) => String(s).padStart(w);
  return [
    `${title} (${a.n} tasks)`,
    `${''.padEnd(14)}${cell('ref yes')}${cell('ref no')}`,
    ...completions.map((c) => `${`judge ${c}`.padEnd(14)}${cell(a.matrix[c].yes)}${cell(a.matrix[c].no)}`),
    `accuracy ${pct(a.accuracy)}   precision(yes) ${pct(a.precisionYes)}   recall(yes) ${pct(a.recallYes)}   Cohen's kappa ${num(a.kappa)}`,
    ...(a.disagreements.length
      ? [
          'disagreements:',
          ...a.disagreements.map((d) => `  ${d.taskKey}: judge ${d.judge}, reference ${d.reference}`),
        ]
      : []),
  ];
}

/** The calibration as text for the terminal. */
export function formatCalibration(c: Calibration): string {
  const lines = [
    `Calibration of ${c.runDir} (${c.tasks} tasks)`,
    '',
    ...agreementLines('Judge vs rule score', c.vsRule),
  ];
  if (c.fractional.length)
    lines.push(
      '',
      'fractional rule scores (not in the matrix):',
      ...c.fractional.map((f) => `  ${f.taskKey}: score ${f.score}, judge ${f.judge ?? '-'}`),
    );
  if (c.vsHuman) lines.push('', ...agreementLines('Judge vs human labels', c.vsHuman));
  if (c.reviewQueue.length)
    lines.push(
      '',
      `review queue (${c.reviewQueue.length}):`,
      ...c.reviewQueue.map((r) => `  ${r.taskKey}: ${r.reason}${r.error ? ` — ${r.error}` : ''}`),
    );
  if (c.notCompared.length)
    lines.push(
      '',
      `not compared (${c.notCompared.length}):`,
      ...c.notCompared.map((n) => `  ${n.taskKey}: ${n.why}`),
    );
  return lines.join('\n');
}
