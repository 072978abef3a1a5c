// `proctor selftest`: checks a task's grading the way a benchmark's red team would. Each task runs three
// times: with the oracle (a correct run must score 1), with the noop agent (doing nothing must score 0) and
// with the oracle cut to half of its actions (unfinished work must score less than 1). The three run
// folders and a selftest.json with the verdicts are kept under one evidence folder.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { RunEvent } from '../../shared/run';
import type { RunnerParts } from '../runner/parts';
import type { Task } from '../../shared/task';
import { OracleAgent, oraclePath, readOracle } from '../agents/oracle';
import { taskKeyOf } from '../store/layout';
import { formatTable } from '../text/table';
import { runTrial } from './trials';
import { cutLength, judgeSelfTest, type SelfTestVerdict, type TrialResult } from './verdict';

export interface SelfTestOptions {
  /** Folder in which the evidence folder `selftest-<time>` is made. */
  outDir: string;
  parallel?: number;
  args?: string[];
  /** Environment spec the trials run on; default local. */
  env?: string;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  log?: (line: string) => void;
  /** Replaces parts of the engine for every trial (e.g. grading under a profile). */
  parts?: Partial<RunnerParts>;
}

export interface SelfTestReport {
  key: string;
  file: string;
  verdict: SelfTestVerdict;
  reason: string;
  oracle: TrialResult;
  noop: TrialResult;
  cut?: TrialResult;
}

export interface SelfTestOutcome {
  /** The evidence folder: one run folder per trial and selftest.json. */
  dir: string;
  reports: SelfTestReport[];
  runDirs: { oracle: string; noop: string; cut?: string };
}

const terminalTokens = new Set(['DONE', 'FAIL']);

/** Actions of a task's oracle before its first DONE / FAIL; undefined when there is no readable oracle. */
export function oracleActionCount(task: Task): number | undefined {
  try {
    const { steps } = readOracle(oraclePath(task));
    const end = steps.findIndex((s) => typeof s === 'string' && terminalTokens.has(s.trim()));
    return end < 0 ? steps.length : end;
  } catch {
    return undefined;
  }
}

function stamp(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
}

async function evidenceDir(outDir: string): Promise<string> {
  for (let i = 1; ; i++) {
    const dir = join(outDir, `selftest-${stamp()}${i > 1 ? `-${i}` : ''}`);
    try {
      await mkdir(dir, { recursive: false });
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') await mkdir(outDir, { recursive: true });
      else if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

export async function selfTest(tasks: Task[], options: SelfTestOptions): Promise<SelfTestOutcome> {
  const dir = await evidenceDir(options.outDir);
  const common = {
    outDir: dir,
    parallel: options.parallel,
    args: options.args,
    env: options.env,
    signal: options.signal,
    onEvent: options.onEvent,
    parts: options.parts,
  };
  const log = options.log ?? (() => {});
  const progress = (trial: string) => (e: RunEvent) => {
    if (e.kind === 'task.finished') log(`  ${trial} ${e.taskKey}: ${e.state}, score ${e.score ?? '-'}`);
    options.onEvent?.(e);
  };

  log(`oracle: ${tasks.length} task(s)…`);
  const oracle = await runTrial('oracle', tasks, {
    ...common,
    agent: 'oracle',
    agentName: 'oracle',
    onEvent: progress('oracle'),
  });
  log(`noop: ${tasks.length} task(s)…`);
  const noop = await runTrial('noop', tasks, {
    ...common,
    agent: 'noop',
    agentName: 'noop',
    onEvent: progress('noop'),
  });

  const cuts = new Map<string, number>();
  for (const t of tasks) {
    const n = oracleActionCount(t);
    if (n !== undefined && cutLength(n) > 0) cuts.set(taskKeyOf(t), cutLength(n));
  }
  const cutTasks = tasks.filter((t) => cuts.has(taskKeyOf(t)));
  let cut: Awaited<ReturnType<typeof runTrial>> | undefined;
  if (cutTasks.length && !options.signal?.aborted) {
    log(`oracle cut short: ${cutTasks.length} task(s)…`);
    cut = await runTrial('cut', cutTasks, {
      ...common,
      agent: (task) => new OracleAgent({ cut: cuts.get(taskKeyOf(task)) }),
      agentName: 'oracle-cut',
      onEvent: progress('cut'),
    });
  }

  const reports = tasks.map((task): SelfTestReport => {
    const key = taskKeyOf(task);
    const o = oracle.results.get(key)!;
    const n = noop.results.get(key)!;
    const c = cut?.results.get(key);
    const cutResult = c ? { ...c, kept: cuts.get(key) } : undefined;
    const j = judgeSelfTest(o, n, cutResult);
    return {
      key,
      file: task.file,
      verdict: j.verdict,
      reason: j.reason,
      oracle: o,
      noop: n,
      ...(cutResult ? { cut: cutResult } : {}),
    };
  });
  const runDirs = { oracle: oracle.runDir, noop: noop.runDir, ...(cut ? { cut: cut.runDir } : {}) };
  const report = {
    createdAt: new Date().toISOString(),
    runs: Object.fromEntries(Object.entries(runDirs).map(([k, v]) => [k, relative(dir, v)])),
    tasks: reports,
  };
  const tmp = join(dir, '.selftest.json.tmp');
  await writeFile(tmp, JSON.stringify(report, null, 2) + '\n');
  await rename(tmp, join(dir, 'selftest.json'));
  return { dir, reports, runDirs };
}

/** One line per task: task, verdict, reason. */
export function selfTestTable(reports: SelfTestReport[]): string {
  return formatTable(
    ['task', 'verdict', 'reason'],
    reports.map((r) => [r.key, r.verdict, r.reason]),
  );
}
