// `proctor safety <run-dirs…> [--json]`: the safety rule detectors over every task of runs Proctor reads (its
// own, OSWorld's and forks' folders of computer-use agents, Spider2-V's, UFO's): safe / unsafe / unsure, the
// categories, the first unsafe step and the detector that marked it; appended to each task's verdicts.jsonl.
import type { SafetyVerdict } from '../../../shared/run';
import type { Problem, Task } from '../../../shared/task';
import { UsageError, shownPath, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { runDirsOf } from '../../report';
import { checkRun, type RunSafetyResult } from '../../safety/check-run';
import { safetyDetectors } from '../../safety/registry';
import { loadTasks } from '../../tasks';
import { resolveEndpoint } from '../../agents/endpoint';
import type { SafetyJudgeOptions } from '../../safety/judge';
import { calibrateSafety, formatSafetyCalibration } from '../../safety/calibration';

const options = optionTable({
  json: {
    kind: 'boolean',
    help: '[{"run", "format", "tasks": [{"task", "verdict", "categories", "firstUnsafe", "findings"}]}]',
  },
  tasks: {
    kind: 'string',
    value: 'PATH',
    repeatable: true,
    help: 'task files, folders or split files to take declarations and instructions from (repeatable)',
  },
  detectors: { kind: 'string', value: 'L', help: 'only these detectors (comma-separated names; see --list)' },
  'no-write': { kind: 'boolean', help: 'print only; store nothing' },
  list: { kind: 'boolean', help: 'the registered detectors with their category and description' },
  judge: {
    kind: 'boolean',
    help: 'also ask the safety judge (any OpenAI-compatible server; key, model and base URL as for `proctor judge`), shown the trajectory, what the rules flagged and the screenshots around those steps; its verdict (verdict, categories, first unsafe step, reason) is stored beside',
  },
  calibrate: {
    kind: 'boolean',
    help: "the stored judge and rule safety verdicts against people's safety labels: confusion matrix, Cohen's kappa, same first unsafe step, the disagreements (also `proctor judge --calibrate --safety`); nothing is run or stored",
  },
  model: { kind: 'string', value: 'M', help: "the judge's model" },
  'base-url': { kind: 'string', value: 'URL', help: "the judge's server" },
});

const usage = usageText(
  `Usage: proctor safety <run-dir>… [--json] [--tasks PATH]… [--detectors a,b] [--no-write] [--list]
                      [--judge [--model M] [--base-url URL]]
       proctor safety --calibrate <run-dir>… [--json]

Runs the safety rule detectors over every task of the runs (a folder above runs stands for each run below
it, as in report): safe / unsafe / unsure, the categories violated (code_from_task, secret_exposure,
destructive, injection_compliance, forbidden_by_task), the first unsafe step and the detector that marked it.
Each verdict is appended to the task's verdicts.jsonl (with its provenance) unless --no-write; a task whose
latest rule verdict says the same is left as it is.
A task's \`safety\` declaration (forbidden actions, secrets, allowed hosts, its folders) comes from the task
file a Proctor run names, or from --tasks for other harnesses' runs (matched by task id or scenario name).`,
  options,
);

const where = (v: SafetyVerdict) =>
  v.firstUnsafe
    ? ` — step ${v.firstUnsafe.step}${v.firstUnsafe.line !== undefined ? ` (line ${v.firstUnsafe.line})` : ''} by ${v.firstUnsafe.by}: ${v.firstUnsafe.reason}`
    : '';

export const command: CliCommand = {
  name: 'safety',
  summary:
    'safety verdicts of runs by the rule detectors: safe / unsafe / unsure, categories, first unsafe step',
  usage,
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    if (values.list) {
      for (const name of safetyDetectors.names()) {
        const d = safetyDetectors.require(name);
        io.out(
          `${name.padEnd(22)} ${d.category.padEnd(21)} ${d.needs ? `(needs safety.${d.needs}) ` : ''}${d.description}`,
        );
      }
      return 0;
    }
    if (!positionals.length) throw new UsageError('give at least one run folder');
    if (values.calibrate) {
      let dirs: string[];
      try {
        dirs = positionals.flatMap(runDirsOf);
      } catch (e) {
        io.err(`proctor safety: ${(e as Error).message}`);
        return 1;
      }
      const c = calibrateSafety(dirs);
      if (values.json) io.out(JSON.stringify(c, null, 2));
      else for (const line of formatSafetyCalibration(c)) io.out(line);
      return 0;
    }
    const detectors = values.detectors
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const d of detectors ?? [])
      if (!safetyDetectors.has(d)) throw new UsageError(`--detectors: ${safetyDetectors.unknownMessage(d)}`);
    const problems: Problem[] = [];
    let tasks: Task[] = [];
    if (values.tasks?.length) {
      const loaded = await loadTasks(values.tasks);
      tasks = loaded.tasks;
      problems.push(...loaded.problems.filter((p) => p.severity === 'error'));
      if (!tasks.length) throw new UsageError(`--tasks: no task files in ${values.tasks.join(', ')}`);
    }
    let runDirs: string[];
    try {
      runDirs = positionals.flatMap(runDirsOf);
    } catch (e) {
      io.err(`proctor safety: ${(e as Error).message}`);
      return 1;
    }
    if ((values.model || values['base-url']) && !values.judge)
      throw new UsageError("--model and --base-url are the judge's: add --judge");
    let judge: SafetyJudgeOptions | undefined;
    if (values.judge) {
      const endpoint = resolveEndpoint({
        flags: { model: values.model, baseUrl: values['base-url'] },
        section: 'judge',
      });
      io.err(
        `safety judge: ${endpoint.endpoint.model} at ${endpoint.endpoint.baseUrl} (key ${endpoint.endpoint.apiKey ? `from ${endpoint.sources.apiKey}` : 'not set'})`,
      );
      judge = { endpoint, log: (line) => io.err(line) };
    }
    const write = !values['no-write'];
    const results: RunSafetyResult[] = [];
    let written = 0;
    for (const dir of runDirs) {
      let result: RunSafetyResult;
      try {
        result = await checkRun(dir, { tasks, detectors, write, judge });
      } catch (e) {
        io.err(`proctor safety: ${shownPath(dir)}: ${(e as Error).message}`);
        return 1;
      }
      written += result.tasks.filter((t) => t.stored).length;
      results.push(result);
      problems.push(...result.problems);
    }
    if (values.json) {
      io.out(
        JSON.stringify(
          results.map((r) => ({
            run: r.runDir,
            format: r.format,
            completedAndSafe: r.tasks.filter((t) => t.verdict.verdict === 'safe' && (t.score ?? 0) >= 1)
              .length,
            tasks: r.tasks.map((t) => ({
              task: t.taskKey,
              steps: t.steps,
              score: t.score ?? null,
              verdict: t.verdict.verdict,
              categories: t.verdict.categories,
              firstUnsafe: t.verdict.firstUnsafe ?? null,
              findings: t.verdict.findings,
              detectors: t.verdict.detectors,
              taskFile: t.taskFile ?? null,
              ...(t.judge
                ? {
                    judge: {
                      verdict: t.judge.verdict,
                      categories: t.judge.categories,
                      firstUnsafe: t.judge.firstUnsafe ?? null,
                      reason: t.judge.reason ?? null,
                      error: t.judge.error ?? null,
                      model: t.judge.model,
                    },
                  }
                : {}),
            })),
          })),
          null,
          2,
        ),
      );
    } else {
      for (const r of results) {
        const n = (v: string) => r.tasks.filter((t) => t.verdict.verdict === v).length;
        const completedSafe = r.tasks.filter(
          (t) => t.verdict.verdict === 'safe' && (t.score ?? 0) >= 1,
        ).length;
        io.out(
          `${shownPath(r.runDir)} (${r.format}): ${r.tasks.length} task(s), ${n('safe')} safe, ${n('unsafe')} unsafe, ${n('unsure')} unsure; ` +
            `completed and safe ${r.tasks.length ? ((100 * completedSafe) / r.tasks.length).toFixed(1) : '0.0'}% (${completedSafe} of ${r.tasks.length})`,
        );
        for (const t of r.tasks) {
          const v = t.verdict;
          io.out(
            `  ${v.verdict.padEnd(6)} ${t.taskKey}${v.categories.length ? ` [${v.categories.join(', ')}]` : ''}${where(v)}`,
          );
          if (t.judge)
            io.out(
              `         judge: ${t.judge.error ? `error — ${t.judge.error}` : `${t.judge.verdict}${t.judge.categories.length ? ` [${t.judge.categories.join(', ')}]` : ''}${where(t.judge)}`}`,
            );
        }
      }
      io.out(
        write ? `${written} verdict(s) appended to the tasks' verdicts.jsonl` : 'nothing stored (--no-write)',
      );
    }
    for (const p of problems.slice(0, 20))
      io.err(`${shownPath(p.file)}${p.pointer ? ` ${p.pointer}` : ''}: ${p.message}`);
    // A judge that gave no verdict is a failure to report (the rules' verdicts stand and are stored).
    return results.some((r) => r.tasks.some((t) => t.judge?.error)) ? 1 : 0;
  },
};
