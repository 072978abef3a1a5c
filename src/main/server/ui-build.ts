// The UI served by `proctor serve` is the renderer bundle in out/renderer; built on first use, and built again
// when the UI's sources (src/renderer, src/shared) are newer than the bundle, so an update never serves an old UI.
// Several `proctor serve` processes may start at once (a team, a test suite): one builds while holding a claim on
// the bundle, the others wait and then find it fresh. The build goes to a folder beside the bundle and is swapped
// in whole, so a process serving the old bundle never sees a half-emptied folder.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withClaim } from '../files/claim';

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

/** Builds the renderer into `outDir` with Vite. */
async function viteBuild(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: join(projectRoot, 'vite.renderer.config.ts'),
    root: join(projectRoot, 'src/renderer'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}

export interface UiBuildOptions {
  dir?: string;
  sources?: string[];
  /** Builds the bundle into the folder given (Vite by default). */
  build?: (outDir: string) => Promise<void>;
}

/** The bundle's folder, built first when it is missing or stale; at most one process builds it at a time. */
export async function ensureUiBuilt(
  log: (line: string) => void = () => undefined,
  options: UiBuildOptions = {},
): Promise<string> {
  const { dir = uiDir, sources = SOURCES, build = viteBuild } = options;
  if (!uiIsStale(dir, sources)) return dir;
  await withClaim(
    dirname(dir),
    '.ui-build',
    async () => {
      if (!uiIsStale(dir, sources)) return; // built by another process while this one waited
      log(
        existsSync(join(dir, 'index.html'))
          ? 'Building the UI again (its sources changed)…'
          : 'Building the UI (first use)…',
      );
      const fresh = `${dir}.building-${process.pid}`;
      const old = `${dir}.old-${process.pid}`;
      try {
        await build(fresh);
        if (existsSync(dir)) await rename(dir, old);
        await rename(fresh, dir);
      } finally {
        await rm(fresh, { recursive: true, force: true });
        await rm(old, { recursive: true, force: true });
      }
    },
    { waitMs: 10 * 60_000, doing: 'the UI is being built' },
  );
  return dir;
}
