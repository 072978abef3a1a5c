// A run started from the workbench finds its tasks where a user has them: the served folder, the bundled demo by
// its short name, `--tasks` folders (by their name or inside them), and any path of the local user's own machine.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoDir } from '../demo/paths';
import { resolveTaskSource, taskSources } from './task-sources';

const base = mkdtempSync(join(tmpdir(), 'proctor-sources-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const root = join(base, 'served');
const extra = join(base, 'bench-tasks');
const elsewhere = join(base, 'elsewhere');
for (const d of [join(root, 'mine'), join(extra, 'excel'), elsewhere]) mkdirSync(d, { recursive: true });
writeFileSync(join(root, 'mine', 't.json'), '{}');
writeFileSync(join(extra, 'excel', 'x.json'), '{}');
writeFileSync(join(elsewhere, 'y.json'), '{}');
symlinkSync(elsewhere, join(root, 'escape'));

describe('where a run from the workbench takes its tasks', () => {
  it('finds the served folder first, then the demo by its short name', () => {
    expect(resolveTaskSource(root, 'mine/t.json')).toBe(join(root, 'mine', 't.json'));
    expect(resolveTaskSource(root, join(root, 'mine'))).toBe(join(root, 'mine'));
    expect(resolveTaskSource(root, 'demo/terminal')).toBe(join(demoDir, 'terminal'));
    expect(resolveTaskSource(root, '/demo/terminal/')).toBe(join(demoDir, 'terminal'));
    expect(resolveTaskSource(root, 'demo')).toBe(demoDir);
    mkdirSync(join(root, 'demo'));
    try {
      expect(resolveTaskSource(root, 'demo')).toBe(join(root, 'demo')); // the user's own folder of that name wins
    } finally {
      rmSync(join(root, 'demo'), { recursive: true });
    }
  });

  it('finds --tasks folders by their name or inside them, and never leaves them', () => {
    const opts = { taskDirs: [extra] };
    expect(resolveTaskSource(root, 'bench-tasks/excel', opts)).toBe(join(extra, 'excel'));
    expect(resolveTaskSource(root, 'excel/x.json', opts)).toBe(join(extra, 'excel', 'x.json'));
    expect(resolveTaskSource(root, join(extra, 'excel'), opts)).toBe(join(extra, 'excel'));
    expect(() => resolveTaskSource(root, 'bench-tasks/../elsewhere', opts)).toThrow(/no task file or folder/);
    expect(taskSources(opts).map((s) => s.path)).toContain(basename(extra));
  });

  it('reads any absolute path for the local user only, and names where it looked', () => {
    expect(resolveTaskSource(root, join(elsewhere, 'y.json'), { localUser: true })).toBe(
      join(elsewhere, 'y.json'),
    );
    expect(() => resolveTaskSource(root, join(elsewhere, 'y.json'))).toThrow(
      /served to others: absolute paths are read only inside the served folder/,
    );
    expect(() => resolveTaskSource(root, 'escape/y.json')).toThrow(
      /no task file or folder 'escape\/y.json' in the served folder, or the bundled demo \(demo, demo\/chromium/,
    );
    expect(() => resolveTaskSource(root, 'demo/../../etc')).toThrow(/no task file or folder/);
  });

  it('offers the demo by app', () => {
    const offered = taskSources().map((s) => s.path);
    expect(offered[0]).toBe('demo');
    expect(offered).toEqual(expect.arrayContaining(['demo/terminal', 'demo/chromium', 'demo/mousepad']));
  });
});
