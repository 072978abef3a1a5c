#!/usr/bin/env node
// The test command: typecheck, lint, formatting (prettier --check), build (Electron bundles + UI), then unit and e2e tests with vitest.
// Ends with one plain line `tests: N passed, N failed, N skipped`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';

const only = process.argv.slice(2);
const steps = [
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['lint', 'npx', ['eslint', '.', '--max-warnings', '0']],
  ['format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']],
  ['build', 'npx', ['electron-vite', 'build']],
  [
    'vitest',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'],
  ],
];

mkdirSync('test-results', { recursive: true });
let failedStep = null;
for (const [name, cmd, args] of steps) {
  if (only.length && !only.includes(name)) continue;
  const t0 = Date.now();
  process.stdout.write(`\n▶ ${name}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  process.stdout.write(
    `◀ ${name}: ${r.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`,
  );
  if (r.status !== 0 && !failedStep) failedStep = name;
  if (r.status !== 0 && name !== 'vitest') break;
}

let passed = 0,
  failed = 0,
  skipped = 0;
if (existsSync('test-results/vitest.json')) {
  const report = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'skipped' || t.status === 'pending') process.stdout.write(`skipped: ${t.fullName}\n`);
    }
  }
}
if (failedStep && failedStep !== 'vitest') failed += 1;
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failedStep ? 1 : 0);
