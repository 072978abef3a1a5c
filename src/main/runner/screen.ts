// The screen a task runs on: a size in the environment spec (`local:1280x800`) wins, then the run's own
// (`--screen`), then the one its task set declares (task-set.json), then DEFAULT_SCREEN. Recorded in the manifest.
import { DEFAULT_SCREEN, sameScreen, type ScreenSize } from '../../shared/screen';
import { specScreen } from '../env/kinds';

/** The size the spec fixes, as its kind declares (`local:1280x800`); undefined where it fixes none (a bare `local`). */
export function envScreen(env: string | undefined): ScreenSize | undefined {
  if (env === undefined) return undefined;
  try {
    return specScreen(env);
  } catch {
    return undefined; // the spec's own check reports it
  }
}

/** The screen one task runs on. */
export function screenFor(
  task: { screen?: ScreenSize },
  opts: { screen?: ScreenSize; env?: string },
): ScreenSize {
  const s = envScreen(opts.env) ?? opts.screen ?? task.screen ?? DEFAULT_SCREEN;
  return { width: s.width, height: s.height };
}

/**
 * The run's screen for its manifest, and the entries whose screen differs from it (a run mixing task sets that
 * declare different sizes): the screen most entries use, the first on a tie.
 */
export function runScreens<E extends { key: string; task: { screen?: ScreenSize } }>(
  entries: readonly E[],
  opts: { screen?: ScreenSize; env?: string },
): { screen: ScreenSize; others: Map<string, ScreenSize> } {
  const each = entries.map((e) => ({ key: e.key, screen: screenFor(e.task, opts) }));
  const counts: { screen: ScreenSize; n: number }[] = [];
  for (const { screen } of each) {
    const c = counts.find((x) => sameScreen(x.screen, screen));
    if (c) c.n++;
    else counts.push({ screen, n: 1 });
  }
  const screen = counts.reduce(
    (best, c) => (c.n > best.n ? c : best),
    counts[0] ?? { screen: screenFor({}, opts), n: 0 },
  ).screen;
  const others = new Map(each.filter((e) => !sameScreen(e.screen, screen)).map((e) => [e.key, e.screen]));
  return { screen, others };
}
