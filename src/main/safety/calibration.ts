// Calibrating safety verdicts against people: the safety judge's and the rules' latest verdicts on each task
// compared with the people's safety labels (a lead's settling label, else the latest person's): confusion matrix,
// Cohen's kappa, and whether they name the same first unsafe step; the disagreements to review.
import type { SafetyLevel, SafetyVerdict } from '../../shared/run';
import { cohenKappa, type KappaResult } from '../annotate/agreement';
import { readRun, readTaskTrajectory } from '../store';

const LEVELS: SafetyLevel[] = ['safe', 'unsafe', 'unsure'];

export interface SafetyCalibrationSide {
  /** rows: people's verdict, columns: this side's verdict. */
  matrix: Record<SafetyLevel, Record<SafetyLevel, number>>;
  kappa: KappaResult;
  /** Of the tasks both call unsafe: how many name the same first unsafe step. */
  sameFirstStep: { agree: number; of: number };
}

export interface SafetyCalibration {
  /** Tasks with a person's safety label. */
  labelled: number;
  judge: SafetyCalibrationSide;
  rule: SafetyCalibrationSide;
  /** Where the judge or the rules disagree with people. */
  disagreements: {
    run: string;
    task: string;
    people: SafetyLevel;
    judge?: SafetyLevel;
    rule?: SafetyLevel;
    peopleStep?: number;
    judgeStep?: number;
    ruleStep?: number;
  }[];
}

const emptyMatrix = () =>
  Object.fromEntries(
    LEVELS.map((a) => [a, Object.fromEntries(LEVELS.map((b) => [b, 0]))]),
  ) as SafetyCalibrationSide['matrix'];

function side(pairs: { people: SafetyVerdict; other: SafetyVerdict }[]): SafetyCalibrationSide {
  const matrix = emptyMatrix();
  for (const p of pairs) matrix[p.people.verdict][p.other.verdict]++;
  const both = pairs.filter(
    (p) =>
      p.people.verdict === 'unsafe' &&
      p.other.verdict === 'unsafe' &&
      p.people.firstUnsafe &&
      p.other.firstUnsafe,
  );
  return {
    matrix,
    kappa: cohenKappa(pairs.map((p) => [p.people.verdict, p.other.verdict] as const)),
    sameFirstStep: {
      agree: both.filter((p) => p.people.firstUnsafe!.step === p.other.firstUnsafe!.step).length,
      of: both.length,
    },
  };
}

/** The calibration over every task of the given run folders. */
export function calibrateSafety(runDirs: readonly string[]): SafetyCalibration {
  const judgePairs: { people: SafetyVerdict; other: SafetyVerdict }[] = [];
  const rulePairs: { people: SafetyVerdict; other: SafetyVerdict }[] = [];
  const disagreements: SafetyCalibration['disagreements'] = [];
  let labelled = 0;
  for (const dir of runDirs) {
    const detail = readRun(dir);
    for (const item of detail.tasks) {
      const all = readTaskTrajectory(dir, item.key).verdicts.filter(
        (v): v is SafetyVerdict => v.kind === 'safety' && !v.error,
      );
      const humans = all.filter((v) => v.by === 'human');
      const people =
        humans.filter((v) => v.settles).at(-1) ??
        humans.filter((v) => v.provenance?.source?.includes('(lead)')).at(-1) ??
        humans.at(-1);
      if (!people) continue;
      labelled++;
      const judge = all.filter((v) => v.by === 'judge').at(-1);
      const rule = all.filter((v) => v.by === 'rule').at(-1);
      if (judge) judgePairs.push({ people, other: judge });
      if (rule) rulePairs.push({ people, other: rule });
      if ((judge && judge.verdict !== people.verdict) || (rule && rule.verdict !== people.verdict))
        disagreements.push({
          run: detail.run.runId,
          task: item.key,
          people: people.verdict,
          ...(judge ? { judge: judge.verdict } : {}),
          ...(rule ? { rule: rule.verdict } : {}),
          ...(people.firstUnsafe ? { peopleStep: people.firstUnsafe.step } : {}),
          ...(judge?.firstUnsafe ? { judgeStep: judge.firstUnsafe.step } : {}),
          ...(rule?.firstUnsafe ? { ruleStep: rule.firstUnsafe.step } : {}),
        });
    }
  }
  return { labelled, judge: side(judgePairs), rule: side(rulePairs), disagreements };
}

/** The calibration as lines for the terminal. */
export function formatSafetyCalibration(c: SafetyCalibration): string[] {
  const out = [`${c.labelled} task(s) with a person's safety label`];
  for (const [name, s] of [
    ['judge', c.judge],
    ['rules', c.rule],
  ] as const) {
    out.push(
      `${name} vs people: ${s.kappa.items} task(s), agree ${(s.kappa.observed * 100).toFixed(0)}%, kappa ${s.kappa.kappa === null ? '–' : s.kappa.kappa.toFixed(3)}; same first unsafe step ${s.sameFirstStep.agree} of ${s.sameFirstStep.of}`,
    );
    out.push(`  people \\ ${name}  ${LEVELS.map((l) => l.padStart(7)).join('')}`);
    for (const p of LEVELS)
      out.push(`  ${p.padEnd(15)} ${LEVELS.map((l) => String(s.matrix[p][l]).padStart(7)).join('')}`);
  }
  if (c.disagreements.length) out.push(`review (${c.disagreements.length}):`);
  for (const d of c.disagreements)
    out.push(
      `  ${d.run} ${d.task}: people ${d.people}${d.peopleStep ? `@${d.peopleStep}` : ''}${d.judge ? `, judge ${d.judge}${d.judgeStep ? `@${d.judgeStep}` : ''}` : ''}${d.rule ? `, rules ${d.rule}${d.ruleStep ? `@${d.ruleStep}` : ''}` : ''}`,
    );
  return out;
}
