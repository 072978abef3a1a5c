// Reset reproducibility (cross-validation check c): setup run twice on fresh sandbox displays, first screens
// compared pixel by pixel with a tolerance and a heat map, files compared by content; a setup writing the time
// is flagged.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readTaskFile } from '../tasks';
import { checkReset, compareTrials } from './reset-check';
import { tempRoot } from './testing/runs';

const xvfb = existsSync('/usr/bin/Xvfb');

async function png(
  width: number,
  height: number,
  block?: { x: number; y: number; w: number; h: number; shade: number },
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3, 200);
  if (block)
    for (let y = block.y; y < block.y + block.h; y++)
      for (let x = block.x; x < block.x + block.w; x++)
        raw.fill(block.shade, (y * width + x) * 3, (y * width + x) * 3 + 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

describe('comparing two trials', () => {
  it('counts pixels beyond the tolerance, draws them red, and compares files', async () => {
    const same = new Map([['note.txt', 'h1']]);
    const a = { screenshot: await png(100, 50), files: same };
    const near = { screenshot: await png(100, 50, { x: 0, y: 0, w: 100, h: 50, shade: 210 }), files: same }; // within tolerance
    expect(await compareTrials(a, near)).toMatchObject({ reproducible: true, differingShare: 0 });
    const moved = {
      screenshot: await png(100, 50, { x: 10, y: 10, w: 20, h: 10, shade: 0 }),
      files: new Map([
        ['note.txt', 'h2'],
        ['new.txt', 'h3'],
      ]),
    };
    const c = await compareTrials(a, moved);
    expect(c.differingShare).toBeCloseTo(200 / 5000, 12);
    expect(c.reproducible).toBe(false);
    expect(c.files).toEqual({ added: ['new.txt'], removed: [], changed: ['note.txt'] });
    const heat = await sharp(c.heatMap).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...heat.data.subarray((y * 100 + x) * 3, (y * 100 + x) * 3 + 3)];
    expect(at(15, 15)).toEqual([255, 0, 0]);
    expect(at(50, 40)[1]).toBeGreaterThan(0); // not red
    expect(c.reason).toMatch(
      /does not reset to the same state: 4\.00% of the first screen differs; files differ: note\.txt/,
    );
  });
});

describe.skipIf(!xvfb)('setup run twice on fresh sandbox displays (needs Xvfb)', () => {
  const task = async (root: string, id: string, command: string) => {
    const dir = join(root, 'os', id);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${id}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        id,
        snapshot: 'os',
        instruction: 'look at the file',
        source: ['https://example.org'],
        related_apps: ['os'],
        tags: ['cli', 'traditional_data_processing', 'abstract'],
        action_number: 1,
        config: [{ type: 'execute', parameters: { command: ['sh', '-c', command] } }],
        evaluator: {
          func: 'exact_match',
          result: { type: 'rule', rules: { expected: 'x' } },
          expected: { type: 'rule', rules: { expected: 'x' } },
        },
      }),
    );
    const read = await readTaskFile(file);
    if (!read.task) throw new Error(read.problems.map((p) => p.message).join('; '));
    return read.task;
  };

  it('passes a setup that writes the same file, and flags one that writes the time', async () => {
    const root = tempRoot();
    const stable = await checkReset(await task(root, 'stable', 'echo hello > "$HOME/note.txt"'), {
      settleMs: 300,
    });
    expect(stable.files).toEqual({ added: [], removed: [], changed: [] });
    expect(stable.reproducible).toBe(true);
    const clock = await checkReset(await task(root, 'clock', 'date +%s%N > "$HOME/stamp.txt"'), {
      settleMs: 300,
    });
    expect(clock.reproducible).toBe(false);
    expect(clock.files.changed).toEqual(['stamp.txt']);
    expect(clock.reason).toMatch(/does not reset to the same state.*files differ: stamp\.txt/);
  }, 120_000);
});
