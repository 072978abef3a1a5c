// Test helper: EPUB books written by calibre itself (Debian's `ebook-convert`), from documents LibreOffice saved.
// Conversions run at once, each with calibre's config and cache folders of its own under the test's temp folder
// (not the user's home; shared, two conversions raced to create calibre's font cache folder). Tests skip where ebook-convert is not installed.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';

/** Why calibre cannot convert here, or undefined when it can. */
export const calibreMissing: string | undefined =
  spawnSync('sh', ['-c', 'command -v ebook-convert']).status === 0
    ? undefined
    : 'ebook-convert (calibre) is not installed';

function convert(input: string, output: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'ebook-convert',
      [input, output],
      { env, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(
              `ebook-convert ${basename(input)} → ${basename(output)} failed: ${err.message}\n${`${stdout}${stderr}`.slice(-2000)}`,
            ),
          );
        else resolve();
      },
    );
  });
}

/** The environment for ebook-convert with calibre's config, cache and temp folders under `dir`. */
export function calibreEnv(dir: string): NodeJS.ProcessEnv {
  const home = join(dir, 'calibre-home');
  for (const d of ['config', 'cache', 'tmp']) mkdirSync(join(home, d), { recursive: true });
  return {
    ...process.env,
    CALIBRE_CONFIG_DIRECTORY: join(home, 'config'),
    CALIBRE_CACHE_DIRECTORY: join(home, 'cache'),
    CALIBRE_TEMP_DIR: join(home, 'tmp'),
  };
}

/** Converts each input document (name → path of a docx, odt, html …) to `<dir>/<name>.epub` with calibre, all at
 * once; the books' paths by name. */
export async function convertWithCalibre(
  dir: string,
  inputs: Record<string, string>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(inputs)) out[name] = join(dir, `${name}.epub`);
  await Promise.all(
    Object.entries(inputs).map(([name, input]) =>
      convert(input, out[name], calibreEnv(join(dir, `calibre-${name}`))),
    ),
  );
  return out;
}
