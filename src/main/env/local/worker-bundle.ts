// The display worker as one plain JavaScript file, so that each task's worker starts with Node alone instead of
// through tsx's loader (about 0.3 s of CPU per worker, measured). Built once per process with esbuild (tsx's
// own) into the user's cache folder, named by its content; nut.js and sharp stay outside the bundle, referenced
// by absolute file URL, so the file runs from that folder. Any problem → undefined: the worker runs through tsx.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Packages the worker loads at run time from node_modules (native code, or loaded lazily on purpose). */
const KEPT_OUTSIDE = /^(@nut-tree-fork\/nut-js|sharp)$/;

interface EsbuildLike {
  build(options: Record<string, unknown>): Promise<{ outputFiles?: { text: string }[] }>;
}

let built: Promise<string | undefined> | undefined;

/** The bundled worker's path for the worker source `entry` (a .ts file), or undefined when it cannot be made. */
export function bundledWorker(entry: string): Promise<string | undefined> {
  built ??= build(entry).catch(() => undefined);
  return built;
}

function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'proctor');
}

async function build(entry: string): Promise<string | undefined> {
  if (process.env.PROCTOR_WORKER_BUNDLE === '0') return undefined;
  const fromEntry = createRequire(entry);
  const esbuild = createRequire(fromEntry.resolve('tsx'))('esbuild') as EsbuildLike;
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'kept-outside',
        setup(b: {
          onResolve(
            o: { filter: RegExp },
            f: (a: { path: string }) => { path: string; external: boolean },
          ): void;
        }) {
          b.onResolve({ filter: KEPT_OUTSIDE }, (a) => ({
            path: pathToFileURL(fromEntry.resolve(a.path)).href,
            external: true,
          }));
        },
      },
    ],
  });
  const code = result.outputFiles?.[0]?.text;
  if (!code) return undefined;
  const dir = cacheDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (existsSync(file) && readFileSync(file, 'utf8') === code) return file;
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, code, { mode: 0o600 });
  renameSync(partial, file);
  return file;
}
