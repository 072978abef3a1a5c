// The engine's per-folder import boundaries (eslint.config.js) and its layers (src/main/layers.json) hold: ESLint,
// run through its Node API on small in-memory files placed in each folder, fails a file that crosses one and passes
// one that does not; the layers table has no cycles and matches the engine as it is.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { findCycles, importGraph } from '../../eslint-rules/import-graph.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

/** The no-restricted-imports messages ESLint gives `code` as if it were the file at `path` (below the root). */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** The proctor/engine-layers messages ESLint gives `code` as if it were the file at `path` (below the root). */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  const fatal = result.messages.filter((m) => m.fatal || m.ruleId === null);
  if (fatal.length > 0) throw new Error(fatal.map((m) => m.message).join('\n'));
  return result.messages.filter((m) => m.ruleId === 'proctor/engine-layers').map((m) => m.message);
}

interface Layers {
  folders: Record<string, string[]>;
}
const mainDir = resolve(root, 'src/main');
const layers = JSON.parse(readFileSync(resolve(mainDir, 'layers.json'), 'utf8')) as Layers;

describe('per-folder import boundaries', () => {
  it('fail a setup func that imports from env/local', async () => {
    const errors = await boundaryErrors(
      'src/main/setup/probe-func.ts',
      `import { CHROMIUM_FLAGS } from '../env/local/browser';\nexport const flags = CHROMIUM_FLAGS;\n`,
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Environment interface/);
  });

  it('fail runner/ importing demo/', async () => {
    const errors = await boundaryErrors('src/main/runner/probe.ts', `import '../demo/setup';\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/runner\/ does not import demo\//);
  });

  it('fail a getter, observe/ or runner/ importing env/local, and judge/ importing cli/', async () => {
    expect(
      await boundaryErrors(
        'src/main/evaluators/getters/probe.ts',
        `import { createLocalEnvironment } from '../../env/local';\nvoid createLocalEnvironment;\n`,
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/main/observe/probe.ts',
        `import { collectAccessibility } from '../env/local/accessibility';\nvoid collectAccessibility;\n`,
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/main/runner/probe.ts',
        `import { createLocalEnvironment } from '../env/local/local-environment';\nvoid createLocalEnvironment;\n`,
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/main/judge/probe.ts',
        `import { UsageError } from '../cli/command';\nvoid UsageError;\n`,
      ),
    ).toHaveLength(1);
  });

  it('keep the engine-wide rule in those folders', async () => {
    expect(
      await boundaryErrors('src/main/setup/probe.ts', `import { app } from 'electron';\nvoid app;\n`),
    ).toHaveLength(1);
  });

  it('pass imports through the Environment interface and the registry, and tests that build a local environment', async () => {
    expect(
      await boundaryErrors(
        'src/main/setup/probe.ts',
        `import type { Environment } from '../env/environment';\nexport type E = Environment;\n`,
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'src/main/runner/probe.ts',
        `import { createEnvironment } from '../env/kinds';\nvoid createEnvironment;\n`,
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'src/main/setup/probe.test.ts',
        `import { createShellEnvironment } from '../env/local/shell-environment';\nvoid createShellEnvironment;\n`,
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'src/main/cli/probe.ts',
        `import { createLocalEnvironment } from '../env/local';\nvoid createLocalEnvironment;\n`,
      ),
    ).toEqual([]);
  });

  it('hold in the engine as it is', async () => {
    const results = await eslint.lintFiles(
      ['src/main/setup', 'src/main/evaluators', 'src/main/observe', 'src/main/runner', 'src/main/judge'].map(
        (d) => resolve(root, d),
      ),
    );
    const crossings = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => `${r.filePath}:${m.line}: ${m.message}`),
    );
    expect(crossings).toEqual([]);
  }, 120_000);
});

describe('engine layers (src/main/layers.json, proctor/engine-layers)', () => {
  it('fail a file importing a folder its folder does not list, naming both folders and the list', async () => {
    const errors = await layerErrors(
      'src/main/store/probe.ts',
      `import { runTasks } from '../runner/scheduler';\nvoid runTasks;\n`,
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('src/main/store/ may not import src/main/runner/');
    expect(errors[0]).toContain(`[${layers.folders.store.join(', ')}]`);
    expect(errors[0]).toContain('layers.json');
  });

  it('count type imports, re-exports and dynamic imports too', async () => {
    expect(
      await layerErrors(
        'src/main/tasks/probe.ts',
        `import type { Workbench } from '../workbench/workbench';\nexport type W = Workbench;\n`,
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors('src/main/text/probe.ts', `export { formatTable } from '../report/format';\n`),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src/main/env/probe.ts',
        `export const load = () => import('../runner/scheduler');\n`,
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors('src/main/setup/probe.ts', `export type T = import('../demo/demo').DemoOptions;\n`),
    ).toHaveLength(1);
  });

  it('hold the rules the deny-list held: runner/ does not import demo/, judge/ does not import cli/', async () => {
    expect(layers.folders.runner).not.toContain('demo');
    expect(layers.folders.judge).not.toContain('cli');
    expect(await layerErrors('src/main/runner/probe.ts', `import '../demo/demo';\n`)).toHaveLength(1);
    expect(
      await layerErrors(
        'src/main/judge/probe.ts',
        `import { UsageError } from '../cli/command';\nvoid UsageError;\n`,
      ),
    ).toHaveLength(1);
  });

  it('fail a new folder with no entry, and a top-level file of src/main importing a folder', async () => {
    const unlisted = await layerErrors(
      'src/main/newfolder/probe.ts',
      `import { readRun } from '../store';\nvoid readRun;\n`,
    );
    expect(unlisted).toHaveLength(1);
    expect(unlisted[0]).toMatch(/src\/main\/newfolder\/ has no entry in src\/main\/layers\.json/);
    const base = await layerErrors(
      'src/main/probe.ts',
      `import { readRun } from './store';\nvoid readRun;\n`,
    );
    expect(base).toHaveLength(1);
    expect(base[0]).toMatch(/probe\.ts is a top-level file of src\/main/);
  });

  it('pass listed folders, the top-level base files, the own folder, src/shared and packages', async () => {
    const code = [
      `import { readRun } from '../store';`,
      `import { setupFuncs } from '../setup/funcs';`,
      `import { EnvironmentError } from '../errors';`,
      `import { sleep } from '../sleep';`,
      `import { skipReason } from './needs';`,
      `import type { Task } from '../../shared/task';`,
      `import { join } from 'node:path';`,
      `export const all = [readRun, setupFuncs, EnvironmentError, sleep, skipReason, join];`,
      `export type T = Task;`,
    ].join('\n');
    expect(layers.folders.tasks).toEqual(expect.arrayContaining(['store', 'setup']));
    expect(await layerErrors('src/main/tasks/probe.ts', code)).toEqual([]);
    expect(await layerErrors('src/main/probe.ts', `import { sleep } from './sleep';\nvoid sleep;\n`)).toEqual(
      [],
    );
  });

  it('let tests and testing/ helpers import any folder', async () => {
    expect(
      await layerErrors(
        'src/main/store/probe.test.ts',
        `import { runTasks } from '../runner/scheduler';\nvoid runTasks;\n`,
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/main/store/testing/probe.ts',
        `import { runTasks } from '../../runner/scheduler';\nvoid runTasks;\n`,
      ),
    ).toEqual([]);
  });

  it('declare a table without folder cycles, over folders that exist', () => {
    expect(findCycles(layers.folders)).toEqual([]);
    for (const [folder, uses] of Object.entries(layers.folders)) {
      expect(
        statSync(resolve(mainDir, folder), { throwIfNoEntry: false })?.isDirectory(),
        `src/main/${folder}/`,
      ).toBe(true);
      for (const used of uses)
        expect(layers.folders[used], `${folder} uses ${used}, which has no entry`).toBeDefined();
    }
  });

  it('find a cycle when one is declared', () => {
    expect(findCycles({ tasks: ['store'], store: ['agents'], agents: ['tasks'], text: [] })).toEqual([
      ['agents', 'tasks', 'store'],
    ]);
  });

  it('match the engine as it is: every folder listed, every import allowed', () => {
    const graph = importGraph(mainDir);
    const folders = [...graph.keys()].filter((u) =>
      statSync(resolve(mainDir, u), { throwIfNoEntry: false })?.isDirectory(),
    );
    expect(folders.filter((f) => layers.folders[f] === undefined)).toEqual([]);
    const crossings: string[] = [];
    for (const from of folders) {
      const { value, type } = graph.get(from)!;
      for (const [to, files] of [...value, ...type]) {
        if (!folders.includes(to) || layers.folders[from].includes(to)) continue;
        for (const file of files) crossings.push(`src/main/${file} imports ${to}/`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
