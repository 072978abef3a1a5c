// The labelled items of run folders: each task of each run with its people's labels, the judge's and the rule's
// verdicts, its settled verdict, and the agreement items and conflicts that follow.
import { relative, resolve } from 'node:path';
import type { Completion, HumanLabel, RunTaskItem } from '../../shared/run';
import { metadataFromTags } from '../../shared/breakdown';
import { listRuns, readRun } from '../store';
import { agreementFigures, agreementReport, type AgreementItem, type AgreementReport } from './figures';
import {
  currentLabels,
  currentStepMarks,
  humanLabels,
  lastSettlement,
  readVerdicts,
  ruleLabel,
  settledVerdict,
  type PersonLabel,
  type SettledVerdict,
} from './labels';
import type { Problem } from '../../shared/task';
import type { Conflict } from '../../shared/annotate';
import { safetyDisagreement, taskSafety, type TaskSafety } from './safety-labels';

export type { Conflict };

export interface LabelledItem {
  runDir: string;
  /** The run folder as the UI and `labels import` name it: relative to the root (or the current folder). */
  run: string;
  runId: string;
  taskKey: string;
  item: RunTaskItem;
  labels: HumanLabel[];
  people: PersonLabel[];
  judge?: Completion;
  rule?: Completion;
  /** Brittle-evaluator flags of the task's current rule verdict (its faithful and robust verdicts disagree). */
  brittle: string[];
  settled: SettledVerdict;
  /** People's, the rules' and the safety judge's safety verdicts, and a lead's settlement of them. */
  safety: TaskSafety;
}

/** Every task of one run folder with its labels; `base` is the folder run names are relative to. */
export function labelledItemsOf(runDir: string, base: string, problems: Problem[] = []): LabelledItem[] {
  const dir = resolve(runDir);
  const detail = readRun(dir, base);
  problems.push(...detail.problems);
  const run = relative(resolve(base), dir) || '.';
  return detail.tasks.map((item) => {
    let labels: HumanLabel[] = [];
    let brittle: string[] = [];
    let safety: TaskSafety = { people: [] };
    try {
      const verdicts = readVerdicts(dir, item.key);
      safety = taskSafety(verdicts);
      labels = humanLabels(verdicts);
      const rule = [...verdicts].reverse().find((v) => v.kind === 'rule');
      brittle = rule?.kind === 'rule' ? (rule.brittle ?? []) : [];
    } catch (e) {
      problems.push({
        file: dir,
        severity: 'warning',
        message: `labels of ${item.key} not read: ${(e as Error).message}`,
      });
    }
    return {
      runDir: dir,
      run,
      runId: detail.run.runId,
      taskKey: item.key,
      item,
      labels,
      people: currentLabels(labels),
      judge: item.judge,
      rule: ruleLabel(item.score),
      brittle,
      settled: settledVerdict(labels, item.judge, item.score),
      safety,
    };
  });
}

/** The labelled items of several run folders, or of every run below `root` when none is given. */
export function labelledItems(
  runDirs: readonly string[],
  base: string,
  problems: Problem[] = [],
): LabelledItem[] {
  const dirs = runDirs.length
    ? runDirs.map((d) => resolve(d))
    : listRuns(base)
        .filter((r) => !r.error)
        .map((r) => resolve(base, r.path));
  return dirs.flatMap((d) => labelledItemsOf(d, base, problems));
}

export function agreementItem(i: LabelledItem): AgreementItem {
  const tags = metadataFromTags(i.item.tags ?? []);
  return {
    id: `${i.run}\u0000${i.taskKey}`,
    ...(i.item.app ? { app: i.item.app } : {}),
    ...(tags.category ? { category: tags.category } : {}),
    people: Object.fromEntries(i.people.map((p) => [p.person, p.complete])),
    ...(i.judge ? { judge: i.judge } : {}),
    ...(i.rule ? { rule: i.rule } : {}),
  };
}

/** Each marked step of each item, with every person's current mark. */
function stepItems(items: readonly LabelledItem[]): AgreementItem[] {
  return items.flatMap((i) =>
    [...currentStepMarks(i.labels)].map(([step, marks]) => ({
      id: `${i.run}\u0000${i.taskKey}\u0000${step}`,
      people: Object.fromEntries([...marks].map(([person, m]) => [person, m.mark])),
    })),
  );
}

/** Each item as a safety agreement item: people's, the safety judge's and the rules' safe / unsafe / unsure. */
export function safetyAgreementItem(i: LabelledItem): AgreementItem {
  const base = agreementItem(i);
  return {
    id: base.id,
    ...(base.app ? { app: base.app } : {}),
    ...(base.category ? { category: base.category } : {}),
    people: Object.fromEntries(i.safety.people.map((p) => [p.person, p.verdict])),
    ...(i.safety.judge ? { judge: i.safety.judge } : {}),
    ...(i.safety.rule ? { rule: i.safety.rule } : {}),
  };
}

export const agreementOf = (items: readonly LabelledItem[]): AgreementReport => ({
  ...agreementReport(items.map(agreementItem)),
  steps: agreementFigures(stepItems(items)),
  safety: agreementReport(items.map(safetyAgreementItem)),
});

/**
 * Items where people disagree, or people and the rule do, or the rule's own faithful and robust verdicts do (a
 * brittle evaluator); then, apart, items whose safety verdicts disagree (why `safety`). Settled ones carry the
 * lead's settlement.
 */
export function conflictsOf(items: readonly LabelledItem[]): Conflict[] {
  const out: Conflict[] = [];
  for (const i of items) {
    const labels = new Set(i.people.map((p) => p.complete));
    let why: Conflict['why'] | undefined;
    if (labels.size > 1) why = 'people';
    else if (labels.size === 1 && i.rule && !labels.has(i.rule)) why = 'rule';
    else if (i.brittle.length) why = 'brittle';
    if (!why) continue;
    const s = lastSettlement(i.labels);
    out.push({
      run: i.run,
      runId: i.runId,
      taskKey: i.taskKey,
      why,
      people: i.people,
      ...(i.rule ? { rule: i.rule } : {}),
      ...(i.judge ? { judge: i.judge } : {}),
      ...(i.brittle.length ? { brittle: i.brittle } : {}),
      ...(s?.complete
        ? { settled: { by: s.author, complete: s.complete, reason: s.settles!.reason, at: s.at } }
        : {}),
    });
  }
  for (const i of items) {
    const safety = safetyDisagreement(i.safety);
    if (safety)
      out.push({ run: i.run, runId: i.runId, taskKey: i.taskKey, why: 'safety', people: i.people, safety });
  }
  return out;
}
