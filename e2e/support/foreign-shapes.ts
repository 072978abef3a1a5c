// Result folders in the shapes other harnesses write, for the foreign-runs e2e and the UI benchmark: OSWorld's
// `<as>/<obs>/<model>/<domain>/<task>/traj.jsonl` (one line per action, several per step_num, each with its
// screenshot_file; `{"Error": …}` lines) and Spider2-V's `results/<as>_<obs>_<model>[_rag][_ef]/<app>/<task>/`
// (trajectory.jsonl without screenshot_file, screenshots/, the runner's log with the model's replies), with a
// screen recording made by ffmpeg.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

/** One trajectory line: an action of harness step `step` (or the harness's error line). */
export type ShapeLine =
  | { step: number; action: string; response?: string; done?: boolean; mark?: { x: number; y: number } }
  | { error: string };

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** OSWorld's `%Y%m%d@%H%M%S%f` (UTC here). */
export const osworldStamp = (d: Date) =>
  `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}@${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}${pad(d.getUTCMilliseconds() * 1000, 6)}`;
/** Spider2-V's `%Y%m%d@%H%M%S`. */
const spiderStamp = (d: Date) => osworldStamp(d).slice(0, 15);

const write = (file: string, data: string | Buffer) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
};

/** A 1280×720 screenshot with a dark box where the step acts (a few hundred bytes as a 4-colour PNG). */
export async function screenPng(mark?: { x: number; y: number }, colour = '#d8dde3'): Promise<Buffer> {
  const box = mark
    ? `<rect x="${mark.x - 30}" y="${mark.y - 15}" width="60" height="30" fill="#223344"/>`
    : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="100%" height="100%" fill="${colour}"/>${box}</svg>`;
  return sharp(Buffer.from(svg)).png({ palette: true, colours: 4 }).toBuffer();
}

/** A screen recording of `seconds` (320×200, H.264, 5 fps, a key frame per second) made with ffmpeg. */
export function makeRecording(file: string, seconds: number): void {
  mkdirSync(dirname(file), { recursive: true });
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=320x200:rate=5`,
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-g',
    '5',
    '-movflags',
    '+faststart',
    file,
  ]);
}

export interface ShapeOptions {
  /** Time of the first line; each next line `gapSeconds` later. */
  start: Date;
  gapSeconds?: number;
  /** result.txt content; absent = the episode stopped before writing it. */
  result?: string;
  /** A recording.mp4 to place in the task folder (made once, copied). */
  recording?: Buffer;
  /** The screenshot of every line, when one is enough (the benchmark); else one per line with its mark. */
  png?: Buffer;
  /** Lines without action_timestamp (and screenshots named `step_<n>_<line>.png`): no time of the harness's own. */
  undated?: boolean;
}

/** An OSWorld task folder as lib_run_single writes it: traj.jsonl, step_<n>_<ts>.png after each action, result.txt. */
export async function writeOsworldTask(dir: string, lines: ShapeLine[], opts: ShapeOptions): Promise<void> {
  const out: string[] = [];
  let t = opts.start.getTime();
  for (const l of lines) {
    if ('error' in l) {
      out.push(JSON.stringify({ Error: l.error }));
      continue;
    }
    const ts = osworldStamp(new Date(t));
    t += (opts.gapSeconds ?? 2) * 1000;
    const shot = opts.undated ? `step_${l.step}_${out.length + 1}.png` : `step_${l.step}_${ts}.png`;
    write(join(dir, shot), opts.png ?? (await screenPng(l.mark)));
    out.push(
      JSON.stringify({
        step_num: l.step,
        ...(opts.undated ? {} : { action_timestamp: ts }),
        action: l.action,
        ...(l.response !== undefined ? { response: l.response } : {}),
        reward: 0,
        done: l.done ?? false,
        info: {},
        screenshot_file: shot,
      }),
    );
  }
  write(join(dir, 'traj.jsonl'), out.join('\n') + '\n');
  if (opts.result !== undefined) write(join(dir, 'result.txt'), opts.result);
  if (opts.recording) write(join(dir, 'recording.mp4'), opts.recording);
}

/**
 * A Spider2-V task folder: trajectory.jsonl (no screenshot_file), screenshots/step_<n>_<ts>.png (what the agent
 * saw), the runner's log with one `RESPONSE:` per model reply (per step), result.txt.
 */
export async function writeSpider2vTask(
  dir: string,
  lines: ShapeLine[],
  opts: ShapeOptions & { instruction?: string },
): Promise<void> {
  const out: string[] = [];
  const log: string[] = [];
  const logTime = (d: Date) =>
    `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)},${pad(d.getUTCMilliseconds(), 3)}`;
  log.push(
    `[${logTime(opts.start)} INFO lib_run_single/12-MainProcess]: [Instruction]: ${opts.instruction ?? 'Do the task.'}`,
  );
  let t = opts.start.getTime();
  let lastStep: number | undefined;
  for (const l of lines) {
    if ('error' in l) {
      out.push(JSON.stringify({ Error: l.error }));
      continue;
    }
    const d = new Date(t);
    const ts = spiderStamp(d);
    t += (opts.gapSeconds ?? 2) * 1000;
    if (l.step !== lastStep && l.response !== undefined)
      log.push(
        `[${logTime(new Date(d.getTime() - 500))} INFO agent/200-MainProcess]: RESPONSE: ${l.response}`,
      );
    lastStep = l.step;
    write(
      join(dir, 'screenshots', `step_${l.step}_${ts}.png`),
      opts.png ?? (await screenPng(l.mark, '#e3ddd8')),
    );
    out.push(
      JSON.stringify({
        step_num: l.step,
        action_timestamp: ts,
        action: l.action,
        reward: 0,
        done: l.done ?? false,
        info: { error: '', output: '', returncode: 0, status: 'success' },
      }),
    );
  }
  write(join(dir, 'trajectory.jsonl'), out.join('\n') + '\n');
  const stamp = opts.start.toISOString().slice(0, 19).replace(/[T:]/g, '-');
  write(join(dir, `result-${stamp}.log`), log.join('\n') + '\n');
  if (opts.result !== undefined) write(join(dir, 'result.txt'), opts.result);
  if (opts.recording) write(join(dir, 'recording.mp4'), opts.recording);
}

/**
 * An OSWorld output top folder of `runs` runs (one dated folder each, `traces/<day>/pyautogui/screenshot/<model>/`)
 * with `tasks` tasks of `steps` harness steps of `linesPerStep` lines each: the benchmark's load.
 */
export async function writeOsworldTop(
  top: string,
  o: { runs: number; tasks: number; steps: number; linesPerStep: number },
): Promise<string[]> {
  const png = await screenPng({ x: 640, y: 360 });
  const runs: string[] = [];
  for (let r = 0; r < o.runs; r++) {
    const day = new Date(Date.UTC(2025, 0, 1 + r, 9, 0, 0));
    const run = join(
      'traces',
      `${osworldStamp(day).slice(0, 8)}-1`,
      'pyautogui',
      'screenshot',
      r % 2 ? 'gpt-4o' : 'claude-3-7-sonnet-20250219',
    );
    runs.push(run);
    for (let k = 0; k < o.tasks; k++) {
      const lines: ShapeLine[] = [];
      for (let s = 1; s <= o.steps; s++)
        for (let j = 0; j < o.linesPerStep; j++) {
          const x = 100 + ((s * 137 + j * 31) % 1000);
          const y = 80 + ((s * 89 + j * 17) % 560);
          lines.push({
            step: s,
            action: j % 2 ? 'pyautogui.click()' : `pyautogui.moveTo(${x}, ${y})`,
            response: `Step ${s}: move to (${x}, ${y}) and click.`,
            done: s === o.steps && j === o.linesPerStep - 1,
          });
        }
      await writeOsworldTask(join(top, run, 'chrome', `task-${pad(k + 1, 3)}`), lines, {
        start: day,
        result: r % 3 ? '0.0\n' : '1.0\n',
        png,
      });
    }
  }
  return runs;
}
