// `proctor demo`: the bundled tasks run with the oracle (each must score 1) and the noop agent (each must
// score 0), as a table with a PASS / FAIL per expectation. The oracle pass observes with Set-of-Mark, so its
// replay shows the marked elements beside the clicks, scrolls and keys the oracle performs.
import type { RunEvent } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { ObservationType } from '../observe/observation';
import { taskKeyOf } from '../store/layout';
import { loadTasks } from '../tasks/reader';
import { gradingKindsOf } from './grading-kind';
import { formatTable } from '../text/table';
import { demoTaskFiles } from './tasks';
import { runTrial } from './trials';
import { formatScore, type TrialResult } from './verdict';

export type DemoAgent = 'oracle' | 'noop';

export interface DemoOptions {
  outDir: string;
  parallel?: number;
  agents?: DemoAgent[];
  /** Folder of demo tasks; default resources/demo. */
  tasksDir?: string;
  args?: string[];
  /** Environment spec the tasks run on; default local. */
  env?: string;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** One line per finished task, for progress. */
  log?: (line: string) => void;
}

export interface DemoRow {
  key: string;
  task: Task;
  oracle?: TrialResult;
  noop?: TrialResult;
  /** Each expectation checked, with its outcome. */
  failures: string[];
  pass: boolean;
}

export interface DemoOutcome {
  rows: DemoRow[];
  runDirs: Partial<Record<DemoAgent, string>>;
  pass: boolean;
  /** Problems reading the task files (a bundled task that does not load is a failure). */
  problems: string[];
}

const expected: Record<DemoAgent, number> = { oracle: 1, noop: 0 };
/** What each pass observes: the oracle's replay is the one people open to see what Proctor records. */
export const demoObservation: Record<DemoAgent, ObservationType> = { oracle: 'som', noop: 'screenshot' };

function check(agent: DemoAgent, r: TrialResult | undefined): string | undefined {
  if (!r) return `${agent}: not run`;
  if (r.score === expected[agent] && (r.state === 'success' || r.state === 'max_steps_error'))
    return undefined;
  const why = r.error ? `: ${r.error}` : '';
  return `${agent} expected ${expected[agent]}, got ${formatScore(r.score)} (${r.state})${why}`;
}

/** Loads the demo tasks; a task file that does not load is reported, not skipped silently. */
export async function loadDemoTasks(tasksDir?: string): Promise<{ tasks: Task[]; problems: string[] }> {
  const files = await demoTaskFiles(tasksDir);
  const { tasks, problems } = await loadTasks(files);
  const errors = problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.file}${p.pointer ? `:${p.pointer}` : ''}: ${p.message}`);
  if (files.length === 0)
    errors.push(`no demo tasks under ${tasksDir ?? 'resources/demo'} (<app>/<uuid>/<uuid>.json)`);
  return { tasks, problems: errors };
}

export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  const agents = options.agents ?? ['oracle', 'noop'];
  const { tasks, problems } = await loadDemoTasks(options.tasksDir);
  const runDirs: DemoOutcome['runDirs'] = {};
  const results: Partial<Record<DemoAgent, Map<string, TrialResult>>> = {};
  for (const agent of agents) {
    if (options.signal?.aborted) break;
    options.log?.(`${agent}: running ${tasks.length} demo tasks…`);
    const trial = await runTrial(agent, tasks, {
      outDir: options.outDir,
      parallel: options.parallel,
      agent,
      agentName: agent,
      observation: demoObservation[agent],
      args: options.args,
      env: options.env,
      signal: options.signal,
      onEvent: (e) => {
        if (e.kind === 'task.finished')
          options.log?.(
            `  ${agent} ${e.taskKey}: ${e.state}, score ${formatScore(e.score)}${e.error ? ` (${e.error})` : ''}`,
          );
        options.onEvent?.(e);
      },
    });
    runDirs[agent] = trial.runDir;
    results[agent] = trial.results;
  }
  const rows = tasks.map((task): DemoRow => {
    const key = taskKeyOf(task);
    const oracle = results.oracle?.get(key);
    const noop = results.noop?.get(key);
    const failures = agents
      .map((a) => check(a, a === 'oracle' ? oracle : noop))
      .filter((f): f is string => !!f);
    return { key, task, oracle, noop, failures, pass: failures.length === 0 };
  });
  return {
    rows,
    runDirs,
    problems,
    pass: problems.length === 0 && rows.length > 0 && rows.every((r) => r.pass),
  };
}

function scoreCell(r: TrialResult | undefined): string {
  if (!r) return '-';
  return r.state === 'success' || r.state === 'max_steps_error'
    ? formatScore(r.score)
    : `${formatScore(r.score)} (${r.state})`;
}

/** The demo's table: task, app, interface, grading kind, oracle score, noop score, verdict. */
export function demoTable(rows: DemoRow[]): string {
  return formatTable(
    ['task', 'app', 'interface', 'grading', 'oracle', 'noop', 'verdict'],
    rows.map((r) => [
      `${r.task.id.slice(0, 8)}${r.task.style ? ` (${r.task.style})` : ''}`,
      r.task.app,
      r.task.interface ?? '-',
      gradingKindsOf(r.task).join('+') || '-',
      scoreCell(r.oracle),
      scoreCell(r.noop),
      r.pass ? 'PASS' : 'FAIL',
    ]),
  );
}
