// `proctor run <tasks or split file…>`: run an agent over a set of tasks into a resumable run folder.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentOptions } from '../../agents';
import { splitOptionValues, UsageError, type CliCommand, shownPath } from '../command';
import { defaultParts } from '../../runner/parts';
import { outcomeTable, ProgressView } from '../../runner/progress';
import { resumeRun, runTasks, type RunOptions, type RunOutcome } from '../../runner/scheduler';
import { envOption } from '../env-option';
import { storableArgs } from '../../env/spec';
import { parseQueueUrl } from '../../queue/connection';
import { usageText } from '../options/help';
import { parseRunArgs, runOptions } from '../options/run-options';
import { resumedAgentOptions, resumedRunOptions } from '../options/resume';

export { agentFlagProblem, parseRunArgs, type RunFlags } from '../options/run-options';
export { resumedAgentOptions } from '../options/resume';

/** The options whose value goes only in the `--name=value` form. */
const optionalValueFlags = new Set(
  Object.entries(runOptions).flatMap(([n, s]) => (s.kind === 'optional-value' ? [`--${n}`] : [])),
);

const usage = usageText(
  `Usage: proctor run <tasks, folders or split files…> [options]
       proctor run --resume <run folder> [--parallel N] [--retry-env-errors] [--retry-grading-errors]

Runs an agent on each task (setup → observe → act … → post-setup → grade) on sandbox displays and writes a run
folder <out>/<runId>/ (manifest.json, events.jsonl, and OSWorld's result layout per task). Tasks whose needs
this machine lacks (an account, a proxy, an app) are recorded as skipped with the reason. The success rate is
over every task of the set. Ctrl-C stops cleanly; the run can then be continued with --resume.`,
  runOptions,
  `With --resume, the settings of the interrupted run (its run-plan.json: agent and its options, environment,
limits, downloads, grading profile, …) are used again; options given with --resume override them (give --env
again when its token was not stored). A queued run's workers read the same plan.

Every finished attempt gets one cause: success, agent_failure (score 0 after DONE/FAIL), step_limit,
agent_error, env_error or grading_error; and its cost: tokens in and out, model cost in USD, environment and wall
time (summary.json results.cause and results.cost).

Exit status: 0 when the run completed (whatever the tasks scored), 130 when stopped by Ctrl-C (resumable),
1 on a run-level error, 2 on a usage error.`,
);

/** The command line with a `--queue` URL's password dropped (it is stored in the manifest). */
function queueUrlShown(argv: string[]): string[] {
  return argv.map((a, i) => {
    const shown = (v: string) => {
      try {
        return parseQueueUrl(v, {}).shown;
      } catch {
        return '(unreadable queue URL)';
      }
    };
    if (argv[i - 1] === '--queue') return shown(a);
    if (a.startsWith('--queue=')) return `--queue=${shown(a.slice('--queue='.length))}`;
    return a;
  });
}

/** Files named by agent options, made absolute and checked, so a mistake shows before any task starts. */
function checkedAgentFiles(options: AgentOptions): AgentOptions {
  const out = { ...options };
  const file = (flag: string, path: string) => {
    const abs = resolve(path);
    if (!existsSync(abs) || !statSync(abs).isFile()) throw new UsageError(`${flag}: no file at ${abs}`);
    return abs;
  };
  if (typeof out.retrieval === 'string') out.retrieval = file('--retrieval', out.retrieval);
  if (out.oracleFile !== undefined) out.oracleFile = file('--oracle-file', out.oracleFile);
  if (out.demos !== undefined) {
    out.demos = resolve(out.demos);
    if (!existsSync(out.demos) || !statSync(out.demos).isDirectory())
      throw new UsageError(`--demos: no folder at ${out.demos}`);
  }
  return out;
}

export const command: CliCommand = {
  name: 'run',
  summary: 'run an agent over tasks on sandbox displays into a resumable run folder',
  usage,
  options: runOptions,
  async run(argv, io) {
    const flags = parseRunArgs(argv);
    if (flags.env !== undefined) envOption(flags.env);
    // Before anything starts: the agent's files exist; on resume, the run's own agent options come back.
    let agentOptions: AgentOptions;
    let resumed: ReturnType<typeof resumedRunOptions> | undefined;
    try {
      agentOptions = flags.resume ? resumedAgentOptions(flags.resume, flags).options : flags.agentOptions;
      if (flags.resume) resumed = resumedRunOptions(flags.resume, flags);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      io.err(`proctor run: ${(e as Error).message}`);
      return 1;
    }
    agentOptions = checkedAgentFiles(agentOptions);
    const tty = !flags.json && process.stdout.isTTY === true;
    const view = flags.json
      ? undefined
      : new ProgressView(tty ? (t) => process.stdout.write(t) : (t) => io.out(t.replace(/\n$/, '')), tty);
    const controller = new AbortController();
    let interrupts = 0;
    const onSigint = () => {
      interrupts++;
      if (interrupts === 1) {
        io.err(
          'stopping: the running tasks are cancelled and the run stays resumable (Ctrl-C again to quit now)',
        );
        controller.abort();
      } else process.exit(130);
    };
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigint);
    let outcome: RunOutcome;
    try {
      // The run's settings: from the options (a new run), or the run's stored plan with the options given now over
      // it (a resume); the new run's plan is stored with it (runner/run-plan.ts) for --resume and the queue.
      const settings = resumed ?? {
        parallel: flags.parallel,
        taskTimeoutMs: flags.taskTimeoutMs,
        ...(flags.screen ? { screen: flags.screen } : {}),
        ...(flags.env !== undefined ? { env: flags.env } : {}),
        allowUnisolated: flags.allowUnisolated,
        ...(flags.downloads !== undefined ? { downloads: flags.downloads } : {}),
        ...(flags.gradingProfile ? { gradingProfile: flags.gradingProfile } : {}),
        ...(flags.maxRefusals !== undefined ? { maxRefusals: flags.maxRefusals } : {}),
        ...(flags.prices ? { prices: flags.prices } : {}),
      };
      const common: Omit<RunOptions, 'agent'> = {
        ...settings,
        // stored as `--name value` (but `--retrieval=FILE`), the form readers of older runs' command lines expect
        args: ['run', ...storableArgs(queueUrlShown(splitOptionValues(argv, optionalValueFlags)))],
        signal: controller.signal,
        onEvent: view ? (e) => view.handle(e) : undefined,
        agentOptions: {
          ...agentOptions,
          ...(flags.model ? { model: flags.model } : {}),
          ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
          ...(settings.downloads !== undefined ? { downloads: settings.downloads } : {}),
        },
      };
      if (flags.resume) {
        outcome = await resumeRun(flags.resume, {
          ...common,
          retryEnvErrors: flags.retryEnvErrors,
          retryGradingErrors: flags.retryGradingErrors,
        });
      } else {
        const { tasks, problems } = await (await defaultParts()).loadTasks(flags.paths);
        const errors = problems.filter((p) => p.severity === 'error');
        for (const p of errors.slice(0, 20))
          io.err(
            `${shownPath(p.file, { belowOnly: true })}${p.line ? `:${p.line}:${p.col ?? 1}` : ''}${p.pointer ? ` ${p.pointer}` : ''}: ${p.message}`,
          );
        if (errors.length > 20)
          io.err(`… and ${errors.length - 20} more problems (see \`proctor validate\`)`);
        if (!tasks.length) {
          io.err('proctor run: no task could be read from the given paths');
          return 1;
        }
        if (errors.length)
          io.err(
            `${errors.length} problem(s) in the task files; running the ${tasks.length} task(s) that could be read`,
          );
        if (flags.queue) {
          const { enqueueRun } = await import('../../queue/enqueue'); // BullMQ loaded only for a queued run
          const q = await enqueueRun(
            tasks,
            {
              ...common,
              agent: flags.agent,
              model: flags.model,
              observation: flags.observation,
              actionSpace: flags.actionSpace,
              maxSteps: flags.maxSteps,
              outDir: flags.out,
              ...(flags.repeats ? { repeats: flags.repeats } : {}),
            },
            { queue: flags.queue, name: flags.name, attempts: flags.attempts },
          );
          if (flags.json) io.out(JSON.stringify(q));
          else {
            io.out(
              `run ${q.runId}: ${q.added} job(s) added${q.existing ? `, ${q.existing} already in the queue` : ''}`,
            );
            io.out(
              `run folder: ${shownPath(q.runDir, { belowOnly: true })} (workers write into it: put it on storage they all reach)`,
            );
            io.out(`start workers: npx proctor worker --queue ${parseQueueUrl(flags.queue).shown} --slots N`);
            io.out(
              `watch: npx proctor queue status --queue ${parseQueueUrl(flags.queue).shown} --run ${q.runId} --watch`,
            );
          }
          return 0;
        }
        const guard = flags.stopOnUnsafe
          ? await (
              await import('../../safety/guard')
            ).stopOnUnsafe(flags.agent, { ...common.agentOptions, model: flags.model })
          : undefined;
        outcome = await runTasks(tasks, {
          ...common,
          agent: guard?.agent ?? flags.agent,
          agentName: flags.agent,
          model: flags.model,
          observation: flags.observation,
          actionSpace: flags.actionSpace,
          maxSteps: flags.maxSteps,
          outDir: flags.out,
          ...(flags.repeats ? { repeats: flags.repeats } : {}),
        });
        guard?.store(outcome.runDir);
      }
    } catch (e) {
      io.err(`proctor run: ${(e as Error).message}`);
      return 1;
    } finally {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    }
    if (flags.json) {
      io.out(
        JSON.stringify(
          {
            runId: outcome.runId,
            runDir: outcome.runDir,
            successRate: outcome.successRate,
            counts: outcome.counts,
            cancelled: outcome.cancelled,
            tasks: outcome.tasks,
          },
          null,
          2,
        ),
      );
    } else {
      io.out('');
      for (const line of outcomeTable(outcome)) io.out(line);
      io.out('');
      io.out(`run folder: ${shownPath(outcome.runDir, { belowOnly: true })}`);
      if (outcome.retried.length)
        io.out(
          `ran again ${outcome.retried.length} attempt(s) whose cause was ${[flags.retryEnvErrors && 'env_error', flags.retryGradingErrors && 'grading_error'].filter(Boolean).join(' or ')}`,
        );
      const toRetry = outcome.tasks.filter((t) => t.cause === 'env_error' || t.cause === 'grading_error');
      if (toRetry.length) {
        const env = toRetry.filter((t) => t.cause === 'env_error').length;
        io.out(
          `${env} env_error and ${toRetry.length - env} grading_error attempt(s) are not the agent's: ${toRetry
            .slice(0, 10)
            .map((t) => t.key)
            .join(', ')}${toRetry.length > 10 ? ', …' : ''}`,
        );
        io.out(
          `  run them again: npx proctor run --resume ${shownPath(outcome.runDir, { belowOnly: true })} --retry-env-errors${toRetry.length > env ? ' --retry-grading-errors (or re-grade: npx proctor eval <run folder>)' : ''}`,
        );
      }
      if (outcome.cancelled)
        io.out(
          `stopped before the end; continue with: npx proctor run --resume ${shownPath(outcome.runDir, { belowOnly: true })}`,
        );
      io.out(
        `open it in the UI: npx proctor serve ${shownPath(flags.resume ? outcome.runDir : flags.out, { belowOnly: true })}`,
      );
    }
    return outcome.cancelled && controller.signal.aborted ? 130 : 0;
  },
};
