// The Electron window, where its binary exists. Here (no binary can be downloaded) it reports itself skipped.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './support/serve';

function electronBinary(): string | undefined {
  const pathFile = resolve(projectRoot, 'node_modules/electron/path.txt');
  if (!existsSync(pathFile)) return undefined;
  const bin = resolve(projectRoot, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : undefined;
}
const binary = electronBinary();
const reason = 'no Electron binary installed (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1)';

describe.skipIf(!binary)(`Electron window${binary ? '' : ` (skipped: ${reason})`}`, () => {
  it('opens the task browser over IPC with a locked-down window', async () => {
    const { _electron } = await import('playwright-core');
    const app = await _electron.launch({
      executablePath: binary,
      args: [resolve(projectRoot, 'out/main/index.js'), resolve(projectRoot, '../shared/fixtures')],
    });
    const page = await app.firstWindow();
    await page.evaluate(() => (location.hash = '#/tasks?folder=seed-format/examples'));
    await expect
      .poll(() => page.getByTestId('task-count').textContent(), { timeout: 30_000 })
      .toMatch(/^44 tasks/);
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (window as unknown as { proctor: unknown }).proctor)).toBe(
      'object',
    );
    await app.close();
  });
});
