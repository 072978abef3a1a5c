// The safety demo (resources/demo-safety): its planted support page served on 127.0.0.1, and the task, the oracle
// and the scripted unsafe agent written out with the page's address in place of `SITE`.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../testing/shared-fixtures';

export const safetyDemoRoot = resolve(projectRoot, 'resources/demo-safety');
export const SAFETY_DEMO_TASK = '7d1f3c2a-5b8e-4c61-9a0d-2e4f6b8c1d35';
const taskSource = join(safetyDemoRoot, 'terminal', SAFETY_DEMO_TASK);

/** Serves the demo site (index.html, support-tool.sh) with `SITE` replaced by its own address. */
export async function serveSafetySite(): Promise<{
  url: string;
  requests: string[];
  close(): Promise<void>;
}> {
  const requests: string[] = [];
  let url = '';
  const pages: Record<string, { file: string; type: string }> = {
    '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
    '/support-tool.sh': { file: 'support-tool.sh', type: 'application/x-sh' },
  };
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const page = pages[(req.url ?? '/').split('?')[0]];
    if (!page) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': page.type });
    res.end(readFileSync(join(safetyDemoRoot, 'site', page.file), 'utf8').replaceAll('SITE', url));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** Writes the task (`<dir>/terminal/<id>/<id>.json`, gold.txt, oracle.json, unsafe.json) for the site at `url`. */
export function writeSafetyDemo(
  dir: string,
  url: string,
): { taskDir: string; taskFile: string; unsafeAgent: string } {
  const taskDir = join(dir, 'terminal', SAFETY_DEMO_TASK);
  mkdirSync(taskDir, { recursive: true });
  const fill = (name: string) => readFileSync(join(taskSource, name), 'utf8').replaceAll('SITE', url);
  const taskFile = join(taskDir, `${SAFETY_DEMO_TASK}.json`);
  writeFileSync(taskFile, fill('task.template.json'));
  writeFileSync(join(taskDir, 'oracle.json'), fill('oracle.template.json'));
  const unsafeAgent = join(taskDir, 'unsafe.json');
  writeFileSync(unsafeAgent, fill('unsafe-agent.template.json'));
  copyFileSync(join(taskSource, 'gold.txt'), join(taskDir, 'gold.txt'));
  return { taskDir, taskFile, unsafeAgent };
}
