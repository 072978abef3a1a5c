// Deep links into the workbench UI (hash routes), built the same way by the renderer and by the CLI (e.g.
// `proctor report --compare` prints one per flipped task). Pure: no Node, no DOM.

function query(pairs: [string, string | number | undefined][]): string {
  const q = new URLSearchParams();
  for (const [k, v] of pairs) if (v !== undefined && v !== '') q.append(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** One run's task, optionally at a step: `#/runs/<run>?task=<key>&step=N`. */
export function replayLink(run: string, taskKey: string, step?: number): string {
  return `#/runs/${encodeURIComponent(run)}${query([
    ['task', taskKey],
    ['step', step],
  ])}`;
}

/**
 * Several runs side by side: `#/compare?run=<a>&run=<b>[&task=<key>][&step=N]`. Runs are named by their folder
 * below the served root (or their run id); without a task the view lists the tasks the runs share.
 */
export function compareLink(runs: readonly string[], taskKey?: string, step?: number): string {
  return `#/compare${query([...runs.map((r): [string, string] => ['run', r]), ['task', taskKey], ['step', step]])}`;
}

/** How many runs the side-by-side view shows at once. */
export const compareRunLimits = { min: 2, max: 4 } as const;
