// The dataflow pipeline's stage times (time_cost) on the bundled demo tasks with the built-in stand-in, beside a
// baseline measured in the same run — opening each app's template in GUI LibreOffice, saving and closing it, which
// is the floor of a prefill (open, read, close) and of an execution (open, steps, save, close) — and beside UFO's
// published example record (Word on Windows, GPT-4o; documents/docs/dataflow/result.md).
//   npx tsx bench/dataflow.ts [--out <folder>]
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLocalEnvironment } from '../src/main/env/local/local-environment';
import { officeGuiMissingHere } from '../src/main/env/local/testing/office-docs';
import { resolveStageModels } from '../src/main/dataflow/pipeline/models';
import { OfficeDocument } from '../src/main/dataflow/pipeline/office';
import { demoTasksDir } from '../src/main/dataflow/pipeline/report';
import { TIME_KEYS } from '../src/main/dataflow/pipeline/records';
import { runPipeline } from '../src/main/dataflow/pipeline/run';
import { projectRoot } from '../src/main/demo/paths';
import { expandPaths } from '../src/main/tasks/files';

/** UFO's published example record's time_cost (seconds). */
const UFO_EXAMPLE: Record<string, number | null> = {
  choose_template: 0.012,
  prefill: 15.649,
  instantiation_evaluation: 2.469,
  execute: 5.824,
  execute_eval: 8.702,
  total: 43.522,
};

async function main(): Promise<void> {
  if (officeGuiMissingHere) {
    process.stdout.write(`skipped: ${officeGuiMissingHere}\n`);
    return;
  }
  const i = process.argv.indexOf('--out');
  const out = i > 0 ? resolve(process.argv[i + 1]) : mkdtempSync(join(tmpdir(), 'proctor-bench-dataflow-'));
  process.stdout.write(
    `machine: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );

  // baseline: open, save, close each app's first template on one sandbox display
  const env = await createLocalEnvironment({ width: 1280, height: 800 });
  const baseline: Record<string, number> = {};
  try {
    for (const [app, file] of [
      ['writer', 'memo.odt'],
      ['calc', 'sales.xlsx'],
    ] as const) {
      const t = performance.now();
      const doc = await OfficeDocument.open(
        env,
        `/home/user/bench/${file}`,
        readFileSync(join(projectRoot, 'resources/dataflow/templates', app, file)),
      );
      await doc.save({ timeoutMs: 3_000 });
      await doc.close();
      baseline[app] = Math.round(performance.now() - t) / 1000;
    }
  } finally {
    await env.close();
  }

  const { files } = await expandPaths([demoTasksDir]);
  const started = performance.now();
  const outcomes = await runPipeline(files, {
    mode: 'dataflow',
    out,
    models: resolveStageModels({ model: 'builtin-standin' }),
    overwrite: true,
  });
  const wall = Math.round(performance.now() - started) / 1000;

  const col = (k: string) => Math.max(8, k.length);
  const row = (name: string, values: Record<string, unknown>) =>
    `${name.padEnd(36)} ${TIME_KEYS.map((k) => (typeof values[k] === 'number' ? (values[k] as number).toFixed(3) : '—').padStart(col(k))).join(' ')}`;
  const lines = [`${'time_cost (s)'.padEnd(36)} ${TIME_KEYS.map((k) => k.padStart(col(k))).join(' ')}`];
  for (const o of outcomes)
    lines.push(
      row(
        `${o.uniqueId} (${o.route?.bucket ?? 'not filed'})`,
        (o.record?.time_cost ?? {}) as Record<string, unknown>,
      ),
    );
  lines.push(row('UFO example (Word, GPT-4o)', UFO_EXAMPLE));
  process.stdout.write(
    `${lines.join('\n')}\n\nbaseline, same run: open + save + close a template: Writer ${baseline.writer.toFixed(3)} s, Calc ${baseline.calc.toFixed(3)} s\n`,
  );
  process.stdout.write(
    `demo: ${outcomes.length} tasks in ${wall.toFixed(1)} s wall (one display, started once); records under ${out}\n`,
  );
}

void main();
