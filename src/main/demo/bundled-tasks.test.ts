// The bundled demo set itself: what it covers and that every task is complete (loads, has assets and an oracle).
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readOracle, oraclePath } from '../agents/oracle';
import { parseAction } from '../actions';
import { loadDemoTasks } from './demo';
import { gradingKindsOf } from './grading-kind';
import { oracleActionCount } from './selftest';
import { cutLength } from './verdict';

describe('the bundled demo tasks', async () => {
  const { tasks, problems } = await loadDemoTasks();

  it('load without problems, at least six of them, in the native shape', () => {
    expect(problems).toEqual([]);
    expect(tasks.length).toBeGreaterThanOrEqual(6);
    expect(new Set(tasks.map((t) => t.shape))).toEqual(new Set(['native']));
  });

  it('cover cli, gui and cli+gui, and file, information and execution grading', () => {
    expect(new Set(tasks.map((t) => t.interface))).toEqual(new Set(['cli', 'gui', 'cli+gui']));
    expect(new Set(tasks.flatMap(gradingKindsOf))).toEqual(new Set(['file', 'information', 'execution']));
  });

  it('use Chromium, a terminal, a text editor and SQLite', () => {
    const apps = new Set(tasks.flatMap((t) => t.relatedApps));
    for (const app of ['chromium', 'terminal', 'mousepad', 'sqlite3']) expect(apps).toContain(app);
  });

  it('each carry tags, an action number, an instruction and an oracle that a cut can shorten', () => {
    for (const t of tasks) {
      expect(t.style, t.file).toMatch(/^(verbose|abstract)$/);
      expect(t.category, t.file).toBeTruthy();
      expect(t.actionNumber, t.file).toBeGreaterThan(0);
      expect(t.instruction.length, t.file).toBeGreaterThan(40);
      expect(existsSync(oraclePath(t)), t.file).toBe(true);
      expect(readOracle(oraclePath(t)).steps.at(-1), t.file).toBe('DONE');
      expect(cutLength(oracleActionCount(t) ?? 0), t.file).toBeGreaterThan(0);
    }
  });

  it('include a browser oracle that clicks a page element and scrolls, so the replay draws pointer marks', () => {
    const kinds = (t: (typeof tasks)[number]) =>
      readOracle(oraclePath(t)).steps.flatMap((s) => {
        const parsed = parseAction('pyautogui', s as string, { bindings: {} });
        return parsed.ok ? parsed.actions.map((a) => a.type) : [];
      });
    const pointing = tasks.filter(
      (t) => t.app === 'chromium' && kinds(t).includes('click') && kinds(t).includes('scroll'),
    );
    expect(pointing.map((t) => t.id)).not.toEqual([]);
  });

  it('name only files that exist beside them', () => {
    for (const t of tasks) {
      const named = [
        ...t.setup.map((s) => s.args.local_path),
        ...t.checks.flatMap((c) =>
          Object.entries(c.args ?? {})
            .filter(([k]) => k.startsWith('local_') || k === 'eval_script')
            .map(([, v]) => v),
        ),
      ].filter((v): v is string => typeof v === 'string');
      for (const f of named) expect(existsSync(join(t.dir, f)), `${t.file} names ${f}`).toBe(true);
    }
  });

  it('link verbose and abstract counterparts both ways', () => {
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const paired = tasks.filter((t) => t.counterpart);
    expect(paired.length).toBeGreaterThanOrEqual(2);
    for (const t of paired) {
      const other = byId.get(t.counterpart!);
      expect(other, `${t.file} counterpart`).toBeDefined();
      expect(other!.counterpart).toBe(t.id);
      expect(new Set([t.style, other!.style])).toEqual(new Set(['verbose', 'abstract']));
      const [verbose, abstract] = t.style === 'verbose' ? [t, other!] : [other!, t];
      expect(
        verbose.instruction.startsWith(abstract.instruction + '\n'),
        `${verbose.file} extends ${abstract.file}`,
      ).toBe(true);
    }
  });
});
