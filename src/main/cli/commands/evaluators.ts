// `proctor evaluators`: the registered metrics and getters, and --coverage of a task set.
import { UsageError, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import {
  departures,
  getterNeedsOf,
  getters,
  metricFamilyOf,
  metrics,
  variants,
} from '../../evaluators/catalog';
import { coverageOf } from '../../evaluators/coverage';
import { loadTasks } from '../../tasks/reader';

interface ListedEvaluator {
  name: string;
  kind: 'metric' | 'getter';
  family?: string;
  needs: string[];
  departures: { profile: string; case: string; why: string }[];
}

/** Every registered name, metrics first, with its family, needs and known departures. */
function listing(): ListedEvaluator[] {
  const departed = departures();
  const rows: ListedEvaluator[] = metrics.names().map((name) => ({
    name,
    kind: 'metric',
    family: metricFamilyOf(name),
    needs: [],
    departures: departed
      .filter((d) => d.metric === name)
      .map((d) => ({ profile: d.profile, case: d.case, why: d.why })),
  }));
  for (const name of getters.names()) {
    const g = getterNeedsOf(name);
    rows.push({ name, kind: 'getter', family: g?.family, needs: g?.needs ?? [], departures: [] });
  }
  return rows;
}

const options = optionTable({
  list: {
    kind: 'boolean',
    help: 'a line per name: metric or getter, its family, what a getter needs from the machine, and where a metric departs from the benchmark\'s own verdict (with --json: {"evaluators": [{name, kind, family, needs, departures}]}).',
  },
  departures: {
    kind: 'boolean',
    help: "where a faithful grading profile still departs from the benchmark's own verdict: the metric, the profile, the case and why (Python-only libraries with no faithful equivalent).",
  },
  coverage: {
    kind: 'boolean',
    help: 'for the tasks found under the paths: how many are fully gradable (every metric and getter they name is registered), how many need an account (by service), and the missing names. Also: tasks per grading profile, and tasks naming a metric with a known departure (see --departures).',
  },
  json: {
    kind: 'boolean',
    help: 'print {"tasks", "gradable", "needs_account": {service: n}, "missing": {"metrics", "getters"}, "profiles": {profile: n}, "departures": {metric: n}, "missing_tasks": {"metrics", "getters": {name: [task ids]}}, "unreadable": [task files]}.',
  },
});

export const command: CliCommand = {
  name: 'evaluators',
  summary: 'list metrics and getters; --coverage: which tasks they can grade',
  usage: usageText(
    `Usage: proctor evaluators [--list | --coverage <task files or folders…> | --departures] [--json]

Without --coverage, lists the registered metric and getter names, and the metrics with per-profile variants.`,
    options,
  ),
  options,
  async run(argv, io) {
    const { values, positionals: paths } = parseOptions(options, argv);
    const json = !!values.json;
    const coverage = !!values.coverage;
    if (values.list) {
      if (coverage || paths.length || values.departures)
        throw new UsageError('--list takes no task paths, no --coverage and no --departures');
      const rows = listing();
      if (json) io.out(JSON.stringify({ evaluators: rows }));
      else {
        const width = Math.max(...rows.map((r) => r.name.length));
        for (const r of rows) {
          const notes = [
            r.needs.length ? `needs ${r.needs.join(', ')}` : '',
            ...r.departures.map((d) => `departs under ${d.profile}: ${d.case}`),
          ].filter(Boolean);
          io.out(
            `${r.kind.padEnd(6)} ${r.name.padEnd(width)}  ${(r.family ?? '-').padEnd(11)} ${notes.join('; ')}`.trimEnd(),
          );
        }
      }
      return 0;
    }
    if (values.departures) {
      if (coverage || paths.length)
        throw new UsageError('--departures takes no task paths and no --coverage');
      const list = departures();
      if (json) io.out(JSON.stringify({ departures: list }));
      else for (const d of list) io.out(`${d.metric} [${d.profile}] ${d.case}: ${d.why}`);
      return 0;
    }
    if (!coverage) {
      if (paths.length) throw new UsageError('task paths are only read with --coverage');
      const profiled = Object.fromEntries(
        variants
          .names()
          .map((n) => [n, ['spider2v', 'osworld', 'native'].filter((p) => variants.get(n)?.[p as 'native'])]),
      );
      const families: Record<string, string[]> = {};
      for (const n of metrics.names()) (families[metricFamilyOf(n) ?? 'other'] ??= []).push(n);
      const needs = Object.fromEntries(
        getters.names().flatMap((n) => {
          const g = getterNeedsOf(n);
          return g ? [[n, g]] : [];
        }),
      );
      if (json)
        io.out(
          JSON.stringify({
            metrics: metrics.names(),
            getters: getters.names(),
            profile_variants: profiled,
            metric_families: families,
            getter_needs: needs,
          }),
        );
      else {
        io.out(`metrics (${metrics.names().length}): ${metrics.names().join(', ')}`);
        for (const [f, names] of Object.entries(families).sort())
          if (f !== 'other') io.out(`  ${f}: ${names.join(', ')}`);
        io.out(`getters (${getters.names().length}): ${getters.names().join(', ')}`);
        for (const [n, g] of Object.entries(needs))
          io.out(`  ${n} [${g.family}] needs ${g.needs.join(', ')}`);
        io.out(
          `faithful per-profile variants: ${Object.entries(profiled)
            .map(([n, ps]) => `${n} (${ps.join(', ')})`)
            .join(', ')}`,
        );
        const departed = [...new Set(departures().map((d) => d.metric))];
        if (departed.length)
          io.out(
            `known departures from the benchmark's verdict (proctor evaluators --departures): ${departed.join(', ')}`,
          );
      }
      return 0;
    }
    if (!paths.length) throw new UsageError('--coverage needs task files or folders');
    const { tasks, problems } = await loadTasks(paths);
    const errors = problems.filter((p) => p.severity === 'error');
    for (const p of errors)
      io.err(
        `${p.file}${p.pointer ? ` ${p.pointer}` : ''}${p.line ? `:${p.line}:${p.col ?? 0}` : ''}: ${p.message}`,
      );
    const unreadable = [...new Set(errors.map((p) => p.file))];
    const cov = coverageOf(tasks);
    const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
    if (json) {
      io.out(
        JSON.stringify({
          tasks: cov.tasks,
          gradable: cov.gradable,
          needs_account: cov.needs_account,
          missing: cov.missing,
          profiles: cov.profiles,
          departures: cov.departures,
          missing_tasks: cov.missing_tasks,
          unreadable,
        }),
      );
    } else {
      const accounts = Object.values(cov.needs_account).reduce((a, b) => a + b, 0);
      io.out(
        `${n(cov.tasks, 'task')}: ${cov.gradable} fully gradable, ${accounts} ${accounts === 1 ? 'needs' : 'need'} an account, ${cov.incomplete.length} ${cov.incomplete.length === 1 ? 'names' : 'name'} something unregistered`,
      );
      for (const [s, k] of Object.entries(cov.needs_account).sort()) io.out(`  needs account ${s}: ${k}`);
      for (const kind of ['metrics', 'getters'] as const) {
        for (const [name, k] of Object.entries(cov.missing[kind]).sort((a, b) => b[1] - a[1])) {
          const ids = cov.missing_tasks[kind][name] ?? [];
          io.out(
            `  missing ${kind.slice(0, -1)} ${name}: ${n(k, 'task')} (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, and ${ids.length - 5} more` : ''})`,
          );
        }
      }
      io.out(
        `grading profiles: ${
          Object.entries(cov.profiles)
            .map(([p, k]) => `${p} ${k}`)
            .join(', ') || 'none'
        }`,
      );
      for (const [m, k] of Object.entries(cov.departures).sort((a, b) => b[1] - a[1]))
        io.out(
          `  ${n(k, 'task')} ${k === 1 ? 'uses' : 'use'} ${m}, which has known departures (proctor evaluators --departures)`,
        );
      if (unreadable.length) io.out(`${n(unreadable.length, 'task file')} could not be read (see above)`);
    }
    return errors.length ? 1 : 0;
  },
};
