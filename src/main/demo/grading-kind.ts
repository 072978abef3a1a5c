// The three kinds of evaluator Spider2-V names: compare a file the agent produced, read the app's state, or run
// a script after the episode and read what it prints.
import type { Check, Task } from '../../shared/task';

export type GradingKind = 'file' | 'information' | 'execution';

const executionMetrics = new Set(['compare_script_logs']);
const executionGetters = new Set(['vm_script_output', 'vm_command_line']);
/** Getters that read a running app's state (browser through CDP / HTTP, services on localhost). */
const stateGetters = new Set([
  'active_tab_info',
  'active_url_from_accessTree',
  'validate_correct_url',
  'html_check',
  'airbyte_localhost_page',
  'superset_localhost_page',
  'metabase_question_sql',
]);
/** Metrics that read an app's stored state (a database) rather than a produced document. */
const stateMetrics = new Set(['check_local_database']);

function gettersOf(check: Check): string[] {
  const specs: unknown[] = [check.result, check.expected, check.args?.result, check.args?.expected];
  return specs
    .map((s) =>
      typeof s === 'object' && s !== null && typeof (s as { type?: unknown }).type === 'string'
        ? (s as { type: string }).type
        : undefined,
    )
    .filter((t): t is string => t !== undefined);
}

/** The kind of one check; `undefined` for an infeasible task (no checks). */
export function gradingKindOfCheck(check: Check): GradingKind {
  const getterTypes = gettersOf(check);
  if (executionMetrics.has(check.metric) || getterTypes.some((g) => executionGetters.has(g)))
    return 'execution';
  if (stateMetrics.has(check.metric) || getterTypes.some((g) => stateGetters.has(g))) return 'information';
  return 'file';
}

/** The kinds of a task's checks, in order, without repeats (a task with several metrics may mix kinds). */
export function gradingKindsOf(task: Task): GradingKind[] {
  return [...new Set(task.checks.map(gradingKindOfCheck))];
}
