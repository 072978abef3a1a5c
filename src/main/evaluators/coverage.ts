// Which tasks of a set the registered metrics and getters can grade, which need an account, what is missing.
import type { Task } from '../../shared/task';
import { accountServiceOf, getters, metrics } from './catalog';
import { planOf, type Plan } from './grade';
import { departures, profileOf, type GradingProfile } from './profile';

export interface Coverage {
  tasks: number;
  gradable: number;
  /** Tasks that need an account, each counted once under its first service. */
  needs_account: Record<string, number>;
  /** Unregistered names, with the number of tasks naming each. */
  missing: { metrics: Record<string, number>; getters: Record<string, number> };
  /** The ids of the tasks naming each unregistered name. */
  missing_tasks: { metrics: Record<string, string[]>; getters: Record<string, string[]> };
  /** Tasks per grading profile (the benchmark each task's shape comes from). */
  profiles: Partial<Record<GradingProfile, number>>;
  /** Tasks naming a metric with a known departure from the upstream verdict under their profile, by metric. */
  departures: Record<string, number>;
}

function namesOf(plan: Plan): { metrics: string[]; getters: string[] } {
  if (plan.kind === 'combine') {
    const parts = plan.parts.map(namesOf);
    return {
      metrics: [plan.metric, ...parts.flatMap((p) => p.metrics)],
      getters: parts.flatMap((p) => p.getters),
    };
  }
  return {
    metrics: [plan.metric],
    getters: [plan.result?.type, plan.expected?.type].filter((t): t is string => !!t),
  };
}

/** The account services a task needs: its own (tags, setup) and those of the cloud getters it names. */
function accountsOf(task: Task, names: { metrics: string[]; getters: string[] }): string[] {
  const services = new Set(task.needsAccount);
  for (const n of [...names.getters, ...names.metrics]) {
    const s = accountServiceOf(n);
    if (s) services.add(s);
  }
  if (task.tags.includes('account') && services.size === 0) services.add('unknown');
  return [...services].sort();
}

/**
 * Every task lands in exactly one bucket: needs an account (any service; counted under its first), else
 * gradable (every metric and getter it names is registered; infeasible tasks need none), else it has
 * missing names. So `gradable + Σ needs_account + tasks with missing names = tasks`.
 */
export function coverageOf(tasks: Task[]): Coverage & { incomplete: string[] } {
  const cov: Coverage & { incomplete: string[] } = {
    tasks: tasks.length,
    gradable: 0,
    needs_account: {},
    missing: { metrics: {}, getters: {} },
    missing_tasks: { metrics: {}, getters: {} },
    profiles: {},
    departures: {},
    incomplete: [],
  };
  const known = departures();
  for (const task of tasks) {
    const names = task.checks.map(planOf).map(namesOf);
    const all = {
      metrics: [...new Set(names.flatMap((n) => n.metrics))],
      getters: [...new Set(names.flatMap((n) => n.getters))],
    };
    const profile = profileOf(task);
    cov.profiles[profile] = (cov.profiles[profile] ?? 0) + 1;
    for (const m of all.metrics)
      if (known.some((d) => d.metric === m && (d.profile === 'all' || d.profile === profile)))
        cov.departures[m] = (cov.departures[m] ?? 0) + 1;
    const accounts = accountsOf(task, all);
    if (accounts.length) {
      cov.needs_account[accounts[0]] = (cov.needs_account[accounts[0]] ?? 0) + 1;
      continue;
    }
    const missingMetrics = all.metrics.filter((m) => !metrics.has(m));
    const missingGetters = all.getters.filter((g) => !getters.has(g));
    for (const [kind, names] of [
      ['metrics', missingMetrics],
      ['getters', missingGetters],
    ] as const) {
      for (const n of names) {
        cov.missing[kind][n] = (cov.missing[kind][n] ?? 0) + 1;
        (cov.missing_tasks[kind][n] ??= []).push(task.id);
      }
    }
    if (missingMetrics.length || missingGetters.length || (!task.infeasible && task.checks.length === 0))
      cov.incomplete.push(task.file);
    else cov.gradable++;
  }
  return cov;
}
