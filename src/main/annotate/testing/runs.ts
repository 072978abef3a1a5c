// Test fixtures: small OSWorld-layout result folders (<run>/<domain>/<task>/result.txt + traj.jsonl) with real
// files, so the annotation code reads them through the store's real readers.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const tempRoot = (prefix = 'proctor-annotate-') => mkdtempSync(join(tmpdir(), prefix));

/** Writes run folder `root/name` with one task per entry of `scores` (key `demo/<task>`), two steps each. */
export function osworldRun(root: string, name: string, scores: Record<string, number>): string {
  const dir = join(root, name);
  for (const [task, score] of Object.entries(scores)) {
    const t = join(dir, 'demo', task);
    mkdirSync(t, { recursive: true });
    writeFileSync(join(t, 'result.txt'), `${score}\n`);
    writeFileSync(
      join(t, 'traj.jsonl'),
      [1, 2]
        .map((n) =>
          JSON.stringify({
            step_num: n,
            action_timestamp: `20261122@10000${n}`,
            action: 'pyautogui.click(10, 20)',
            response: `step ${n}`,
            reward: 0,
            done: n === 2,
          }),
        )
        .join('\n') + '\n',
    );
  }
  return dir;
}
