// OSWorld's time getter (family `os`): time_diff_range, the tolerance in minutes a task file states for
// compare_time_in_speedtest_results. It reads only the task's own spec.
import type { GetterSpec } from '../../../shared/task';
import { registerFamilyGetter } from '../family';

/** time_diff_range `{diff_range_in_minutes}` — the value as written (OSWorld passes it on untouched, usually a
 * string such as "60"); undefined when the spec has none (upstream logs an error and returns None). */
async function timeDiffRange(spec: GetterSpec): Promise<unknown> {
  return spec.diff_range_in_minutes ?? undefined;
}

registerFamilyGetter('os', 'time_diff_range', [], timeDiffRange);
