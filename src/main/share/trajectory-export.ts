// `proctor export trajectory`: each task of a run (Proctor's, or a folder of OSWorld, Spider2-V, a fork or UFO
// that Proctor reads) as one JSON in the versioned schema resources/schemas/trajectory-export.schema.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { RunFormat, RunTaskItem, StepRecord, Verdict } from '../../shared/run';
import type { TaskTrajectory } from '../../shared/api';
import { costOf, type PriceTable } from '../price-table';
import { readRun, readTaskTrajectory, safeSegment } from '../store';
import { proctorVersion } from '../version';
import type {
  ExportedStep,
  ExportedVerdict,
  TrajectoryExport,
} from '../../shared/generated/trajectory-export';

export const TRAJECTORY_FORMAT = 'proctor-trajectory';
export const TRAJECTORY_VERSION = 1;

/** The export's types come from resources/schemas/trajectory-export.schema.json (npm run gen:types). */
export type {
  TrajectoryExport,
  ExportedStep,
  ExportedVerdict,
} from '../../shared/generated/trajectory-export';

function verdictOf(v: Verdict): ExportedVerdict {
  if (v.kind === 'rule')
    return {
      kind: 'rule',
      at: v.at,
      source: v.provenance?.source ?? 'run',
      score: v.score,
      ...(v.reason ? { reason: v.reason } : {}),
      ...(v.profile ? { profile: v.profile } : {}),
      metrics: v.metrics.map((m) => ({
        metric: m.metric,
        score: m.score,
        ...(m.reason ? { reason: m.reason } : {}),
        ...(m.error ? { error: m.error } : {}),
        ...(m.pointer ? { pointer: m.pointer } : {}),
      })),
    };
  if (v.kind === 'judge')
    return {
      kind: 'judge',
      at: v.at,
      source: 'judge',
      complete: v.complete,
      reason: v.reason,
      model: v.model,
    };
  if (v.kind === 'safety')
    return {
      kind: 'safety',
      at: v.at,
      source: v.provenance.source,
      ...(v.reason ? { reason: v.reason } : {}),
      ...(v.author ? { author: v.author } : {}),
      ...(v.model ? { model: v.model } : {}),
      safety: {
        verdict: v.verdict,
        by: v.by,
        categories: v.categories,
        ...(v.firstUnsafe ? { firstUnsafeStep: v.firstUnsafe.step } : {}),
      },
    };
  return {
    kind: 'human',
    at: v.at,
    source: v.source ?? 'workbench',
    author: v.author,
    ...(v.complete ? { complete: v.complete } : {}),
    ...(v.comment ? { reason: v.comment } : {}),
  };
}

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function stepOf(s: StepRecord, index: number): ExportedStep {
  return defined({
    index,
    step: s.step,
    line: s.line,
    at: s.at,
    actions: Array.isArray(s.actions) ? s.actions : [],
    rawAction: s.rawAction,
    actionText: s.actionText,
    toolAction: s.toolAction,
    feedback: s.feedback,
    error: s.error,
    done: s.done,
    observations: defined({
      before: s.observation,
      som: s.somObservation,
      after: s.screenshot,
      a11yTree: s.a11yTable,
    }),
    screen: s.screen,
    marks: s.marks,
    response: s.response,
    messages: s.model ?? (s.response ? [{ role: 'assistant' as const, text: s.response }] : []),
    tokens: s.tokens,
    timing: s.timing,
    recordingAt: s.recordingAt,
  });
}

/** One task's trajectory in the export schema. `prices` counts cost when the run did not record one. */
export function exportTrajectory(
  runDir: string,
  traj: TaskTrajectory,
  run: {
    id: string;
    format: RunFormat;
    agent?: string;
    model?: string;
    settings?: object;
    startedAt?: string;
  },
  prices?: PriceTable,
): TrajectoryExport {
  const item: RunTaskItem = traj.item;
  const steps = traj.steps.map(stepOf);
  const withTokens = traj.steps.filter((s) => s.tokens);
  const tokens = withTokens.length
    ? withTokens.reduce(
        (t, s) => ({
          prompt: t.prompt + (s.tokens?.prompt ?? 0),
          completion: t.completion + (s.tokens?.completion ?? 0),
        }),
        { prompt: 0, completion: 0 },
      )
    : item.cost?.tokensIn !== undefined
      ? { prompt: item.cost.tokensIn, completion: item.cost.tokensOut ?? 0 }
      : null;
  const cost = item.cost?.usd ?? (tokens && run.model ? costOf(prices, run.model, tokens) : undefined);
  const verdicts = traj.verdicts.map(verdictOf);
  // A foreign folder's score comes from its result.txt, not a verdict line.
  if (!verdicts.some((v) => v.kind === 'rule') && item.score !== undefined)
    verdicts.unshift({ kind: 'rule', source: 'result.txt', score: item.score });
  return {
    format: TRAJECTORY_FORMAT,
    version: TRAJECTORY_VERSION,
    exportedAt: new Date().toISOString(),
    exportedBy: { tool: 'proctor', version: proctorVersion },
    run: defined({
      id: run.id,
      dir: resolve(runDir),
      format: run.format,
      agent: run.agent,
      model: run.model,
      settings: run.settings as Record<string, unknown> | undefined,
      startedAt: run.startedAt,
    }),
    task: defined({
      key: item.key,
      id: item.taskId,
      domain: item.domain,
      app: item.app,
      instruction: item.instruction ?? traj.task?.instruction,
      tags: item.tags,
      difficulty: item.difficulty,
      interface: item.interface,
      style: item.style,
    }),
    outcome: defined({
      state: item.state,
      score: item.score ?? null,
      outcome: item.outcome,
      error: item.error,
      steps: item.steps,
      timingMs: item.timingMs,
      recording: item.recording,
    }),
    steps,
    totals: { tokens, costUsd: cost ?? null, timingMs: item.timingMs ?? null },
    verdicts,
  };
}

export interface ExportedFile {
  run: string;
  task: string;
  file: string;
}

/**
 * Writes one JSON per task of each run into `outDir/<run id>/<domain>/<task>.json` (run ids made unique) and
 * `outDir/index.json` listing them. `tasks`: only these keys.
 */
export async function exportTrajectories(
  runDirs: string[],
  outDir: string,
  options: { prices?: PriceTable; tasks?: string[] } = {},
): Promise<ExportedFile[]> {
  const written: ExportedFile[] = [];
  const usedIds = new Set<string>();
  for (const runDir of runDirs) {
    const detail = readRun(runDir);
    let id = safeSegment(detail.run.runId || 'run');
    for (let n = 2; usedIds.has(id); n++) id = `${safeSegment(detail.run.runId || 'run')}-${n}`;
    usedIds.add(id);
    const run = {
      id: detail.run.runId,
      format: detail.run.format,
      agent: detail.run.agent,
      model: detail.run.model,
      settings: detail.run.settings,
      startedAt: detail.run.startedAt,
    };
    for (const t of detail.tasks) {
      if (options.tasks?.length && !options.tasks.includes(t.key)) continue;
      const traj = readTaskTrajectory(runDir, t.key);
      const doc = exportTrajectory(runDir, traj, run, options.prices);
      const parts = t.key.split('/').map(safeSegment);
      const file = join(id, ...parts.slice(0, -1), `${parts.at(-1)}.json`);
      await mkdir(join(outDir, file, '..'), { recursive: true });
      await writeFile(join(outDir, file), JSON.stringify(doc, null, 2) + '\n');
      written.push({ run: detail.run.runId, task: t.key, file });
    }
  }
  await mkdir(outDir, { recursive: true });
  await writeFile(
    join(outDir, 'index.json'),
    JSON.stringify(
      {
        format: `${TRAJECTORY_FORMAT}-index`,
        version: TRAJECTORY_VERSION,
        schema: 'resources/schemas/trajectory-export.schema.json',
        files: written,
      },
      null,
      2,
    ) + '\n',
  );
  return written;
}
