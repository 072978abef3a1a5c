// The bundled demo tasks: resources/demo/<app>/<uuid>/<uuid>.json (native shape), each with an oracle.json.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { demoDir } from './paths';

/** Task files under a demo folder laid out as `<app>/<uuid>/<uuid>.json`, sorted by app then id. */
export async function demoTaskFiles(root: string = demoDir): Promise<string[]> {
  const files: string[] = [];
  for (const app of (await readdir(root, { withFileTypes: true })).filter(
    (d) => d.isDirectory() && d.name !== 'site',
  )) {
    for (const task of await readdir(join(root, app.name), { withFileTypes: true })) {
      if (!task.isDirectory()) continue;
      const names = await readdir(join(root, app.name, task.name));
      if (names.includes(`${task.name}.json`))
        files.push(join(root, app.name, task.name, `${task.name}.json`));
    }
  }
  return files.sort();
}
