// `proctor run --repeats N` as a process on the bundled demo's terminal tasks (real sandbox displays, xterm,
// sqlite3, real grading): the oracle succeeds on every attempt, the noop agent fails every attempt by its own
// fault (agent_failure). And the flags of repeats, retries, refusals and prices: how they parse and what they refuse.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunTaskItem } from '../../../shared/run';
import { missingDemoPrograms, runProctor } from '../../demo/testing-env';
import type { RunManifest } from '../../store/layout';
import { UsageError } from '../command';
import { parseRunArgs } from './run';

const projectRoot = resolve(__dirname, '../../../..');
// The demo's terminal tasks (xterm + sqlite3): the subset of resources/demo quick enough to run 3 × 2 times here.
const terminalTasks = join(projectRoot, 'resources/demo/terminal');
const missing = missingDemoPrograms().filter((p) =>
  ['Xvfb', 'openbox', 'xdotool', 'xterm', 'sqlite3', 'dbus-daemon'].includes(p),
);
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function usageError(argv: string[]): string {
  try {
    parseRunArgs(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

describe('proctor run --repeats on the demo terminal tasks', () => {
  for (const [agent, cause] of [
    ['oracle', 'success'],
    ['noop', 'agent_failure'],
  ] as const) {
    it.skipIf(missing.length > 0)(
      `--agent ${agent} --repeats 3: three attempts of each task, every one ${cause}${why}`,
      async () => {
        const out = mkdtempSync(join(tmpdir(), `proctor-repeats-${agent}-`));
        dirs.push(out);
        const r = await runProctor(
          [
            'run',
            terminalTasks,
            '--agent',
            agent,
            '--repeats',
            '3',
            '--out',
            out,
            '--screen',
            '1024x768',
            '--json',
          ],
          400_000,
        );
        expect(r.code, r.stderr).toBe(0);
        const result = JSON.parse(r.stdout) as { runDir: string; tasks: RunTaskItem[] };
        expect(result.tasks).toHaveLength(9);
        const ids = [...new Set(result.tasks.map((t) => t.taskId))];
        expect(ids).toHaveLength(3);
        for (const id of ids)
          expect(result.tasks.filter((t) => t.taskId === id).map((t) => [t.key, t.attempt])).toEqual(
            [1, 2, 3].map((n) => [`terminal/${id}#${n}`, n]),
          );
        expect(result.tasks.map((t) => `${t.key} ${t.state} ${t.cause}`)).toEqual(
          result.tasks.map((t) => `${t.key} success ${cause}`),
        );
        expect(
          result.tasks.every(
            (t) =>
              t.cost?.tokensIn === 0 &&
              t.cost.usd === 0 &&
              t.cost.envMs! > 0 &&
              t.cost.wallMs! >= t.cost.envMs!,
          ),
        ).toBe(true);
        const manifest = JSON.parse(
          readFileSync(join(result.runDir, 'manifest.json'), 'utf8'),
        ) as RunManifest;
        expect(manifest).toMatchObject({ repeats: 3, args: expect.arrayContaining(['--repeats', '3']) });
      },
      420_000,
    );
  }
});

describe('proctor run: flags of repeats, retries, refusals and prices', () => {
  it('parses them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'proctor-prices-'));
    dirs.push(dir);
    const file = join(dir, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({ 'my-model': { input: 3, output: 9 }, 'gpt-4o': { input: 5, output: 5 } }),
    );
    const f = parseRunArgs([
      'tasks/',
      '--repeats',
      '5',
      '--max-refusals',
      '0',
      '--prices',
      file,
      '--price',
      'gpt-4o=2.5,10',
      '--price=other=0.1,.2',
    ]);
    expect(f).toMatchObject({ repeats: 5, maxRefusals: 0 });
    expect(f.prices).toEqual({
      'my-model': { input: 3, output: 9 },
      'gpt-4o': { input: 2.5, output: 10 },
      other: { input: 0.1, output: 0.2 },
    });
    expect(
      parseRunArgs(['--resume', 'results/x', '--retry-env-errors', '--retry-grading-errors']),
    ).toMatchObject({ retryEnvErrors: true, retryGradingErrors: true });
    expect(
      parseRunArgs(['tasks/', '--prices', join(projectRoot, 'resources/pricing.json')]).prices,
    ).toMatchObject({ 'gpt-4o*': { input: 2.5, output: 10 } });
  });

  it('refuses what cannot be meant, naming the flag', () => {
    expect(usageError(['tasks/', '--repeats', '0'])).toMatch(/--repeats '0': attempts per task/);
    expect(usageError(['tasks/', '--repeats', '2.5'])).toMatch(/--repeats/);
    expect(usageError(['tasks/', '--retry-env-errors'])).toMatch(/--retry-env-errors goes with --resume/);
    expect(usageError(['--resume', 'results/x', '--repeats', '3'])).toMatch(
      /--repeats is fixed when a run starts/,
    );
    expect(usageError(['tasks/', '--price', 'gpt-4o=2.5'])).toMatch(/--price 'gpt-4o=2.5': MODEL=IN,OUT/);
    expect(usageError(['tasks/', '--price', 'gpt-4o=-1,2'])).toMatch(/MODEL=IN,OUT/);
    const dir = mkdtempSync(join(tmpdir(), 'proctor-prices-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ 'm/x': { input: 'cheap', output: 1 } }));
    expect(usageError(['tasks/', '--prices', join(dir, 'bad.json')])).toMatch(
      /bad\.json: \/m~1x\/input: must be a non-negative number/,
    );
    expect(usageError(['tasks/', '--prices', join(dir, 'none.json')])).toMatch(/none\.json: no such file/);
  });
});
