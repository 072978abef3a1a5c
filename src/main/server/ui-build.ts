// The UI served by `proctor serve` is the renderer bundle in out/renderer; built on first use, and built again
// when the UI's sources (src/renderer, src/shared) are newer than the bundle, so an update never serves an old UI.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const uiDir = join(projectRoot, 'out', 'renderer');
const SOURCES = ['src/renderer', 'src/shared', 'vite.renderer.config.ts'].map((p) => join(projectRoot, p));

/** The newest modification time under `path` (0 when it does not exist). */
function newest(path: string): number {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let t = st.mtimeMs;
  for (const e of readdirSync(path)) if (e !== 'node_modules') t = Math.max(t, newest(join(path, e)));
  return t;
}

/** Whether the bundle is missing or older than its sources (sources absent, e.g. a packaged app: never stale). */
export function uiIsStale(dir = uiDir, sources = SOURCES): boolean {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return sources.some((s) => newest(s) > built);
}

export async function ensureUiBuilt(log: (line: string) => void = () => undefined): Promise<string> {
  if (!uiIsStale()) return uiDir;
  log(existsSync(join(uiDir, 'index.html')) ? 'Building the UI again (its sources changed)…' : 'Building the UI (first use)…');
  const { build } = await import('vite');
  await build({ configFile: join(projectRoot, 'vite.renderer.config.ts'), root: join(projectRoot, 'src/renderer'), logLevel: 'warn' });
  return uiDir;
}
