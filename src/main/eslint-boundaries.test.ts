// The engine's per-folder import boundaries (eslint.config.js) hold: ESLint, run through its Node API on
// small in-memory files placed in each folder, fails a file that crosses one and passes one that does not.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { ESLint } from 'eslint';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

/** The no-restricted-imports messages ESLint gives `code` as if it were the file at `path` (below the root). */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

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
    expect(await boundaryErrors('src/main/evaluators/getters/probe.ts', `import { createLocalEnvironment } from '../../env/local';\nvoid createLocalEnvironment;\n`)).toHaveLength(1);
    expect(await boundaryErrors('src/main/observe/probe.ts', `import { collectAccessibility } from '../env/local/accessibility';\nvoid collectAccessibility;\n`)).toHaveLength(1);
    expect(await boundaryErrors('src/main/runner/probe.ts', `import { createLocalEnvironment } from '../env/local/local-environment';\nvoid createLocalEnvironment;\n`)).toHaveLength(1);
    expect(await boundaryErrors('src/main/judge/probe.ts', `import { UsageError } from '../cli/command';\nvoid UsageError;\n`)).toHaveLength(1);
  });

  it('keep the engine-wide rule in those folders', async () => {
    expect(await boundaryErrors('src/main/setup/probe.ts', `import { app } from 'electron';\nvoid app;\n`)).toHaveLength(1);
  });

  it('pass imports through the Environment interface and the registry, and tests that build a local environment', async () => {
    expect(await boundaryErrors('src/main/setup/probe.ts', `import type { Environment } from '../env/environment';\nexport type E = Environment;\n`)).toEqual([]);
    expect(await boundaryErrors('src/main/runner/probe.ts', `import { createEnvironment } from '../env/kinds';\nvoid createEnvironment;\n`)).toEqual([]);
    expect(await boundaryErrors('src/main/setup/probe.test.ts', `import { createShellEnvironment } from '../env/local/shell-environment';\nvoid createShellEnvironment;\n`)).toEqual([]);
    expect(await boundaryErrors('src/main/cli/probe.ts', `import { createLocalEnvironment } from '../env/local';\nvoid createLocalEnvironment;\n`)).toEqual([]);
  });

  it('hold in the engine as it is', async () => {
    const results = await eslint.lintFiles(['src/main/setup', 'src/main/evaluators', 'src/main/observe', 'src/main/runner', 'src/main/judge'].map((d) => resolve(root, d)));
    const crossings = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => `${r.filePath}:${m.line}: ${m.message}`));
    expect(crossings).toEqual([]);
  }, 120_000);
});
