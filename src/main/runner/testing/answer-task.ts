// A native task for runner tests: graded by compare_text_file on /home/user/answer.txt against its gold.txt
// ("answer of <id>"), so an agent that writes the right file succeeds and any other fails.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `<root>/<domain>/<id>/<id>.json` and its gold file; `fields` are added to (or replace) the task's own. */
export function writeAnswerTask(
  root: string,
  id: string,
  fields: Record<string, unknown> = {},
  domain = 'cli',
): void {
  const dir = join(root, domain, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gold.txt'), `answer of ${id}\n`);
  writeFileSync(
    join(dir, `${id}.json`),
    JSON.stringify({
      id,
      snapshot: 'os',
      instruction: `Write the answer of ${id} to ~/answer.txt`,
      source: ['https://example.org'],
      related_apps: ['os'],
      config: [],
      evaluation: {
        func: 'compare_text_file',
        arguments: { local_expected: 'gold.txt', vm_result: '/home/user/answer.txt' },
      },
      ...fields,
    }),
  );
}
