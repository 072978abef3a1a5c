// `proctor run`'s agent options: how the flags parse, what they refuse, and that they reach the model's requests.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSampling } from '../../agents/chat';
import {
  requestText,
  startScriptedOpenAIStandin,
  type ScriptedOpenAIStandin,
} from '../../agents/testing/scripted-openai-standin';
import { onPath } from '../../tasks/needs';
import { UsageError } from '../command';
import { main } from '../main';
import { parseRunArgs, resumedAgentOptions } from './run';
import { runProctor } from '../../demo/testing-env';

const projectRoot = resolve(__dirname, '../../../..');
const taskFile = join(
  projectRoot,
  'resources/demo/terminal/246ccb60-7635-46fa-a222-6f4261e826ee/246ccb60-7635-46fa-a222-6f4261e826ee.json',
);
const missing = ['Xvfb', 'openbox', 'xdotool', 'xterm', 'sqlite3', 'dbus-daemon'].filter((p) => !onPath(p));
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';

/** `node bin/proctor.mjs …` from the project root. */
const proctor = (args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000) =>
  runProctor(args, timeoutMs, env);

function usageError(argv: string[]): string {
  try {
    parseRunArgs(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('proctor run: agent options', () => {
  it('maps each llm flag onto the agent options, and gives none that were not asked for', () => {
    const f = parseRunArgs([
      'tasks/',
      '--agent',
      'llm',
      '--model',
      'm',
      '--history',
      '5',
      '--no-history-images',
      '--no-feedback',
      '--retrieval',
      '--max-image-width',
      '1280',
      '--image-format=jpeg',
      '--temperature',
      '0.2',
      '--top-p=0.75',
      '--max-tokens',
      '300',
    ]);
    expect(f.paths).toEqual(['tasks/']);
    expect(f.agentOptions).toEqual({
      historyWindow: 5,
      historyImages: false,
      executionFeedback: false,
      retrieval: true,
      image: { maxWidth: 1280, format: 'jpeg' },
      sampling: { temperature: 0.2, topP: 0.75, maxTokens: 300 },
    });
    expect(parseRunArgs(['t', '--agent', 'llm', '--retrieval=docs/guide.md']).agentOptions).toEqual({
      retrieval: 'docs/guide.md',
    });
    // `--retrieval` takes no following word: the next word is still a task path.
    expect(parseRunArgs(['--agent', 'llm', '--retrieval', 'a.json', 'b.json'])).toMatchObject({
      paths: ['a.json', 'b.json'],
      agentOptions: { retrieval: true },
    });
    expect(parseRunArgs(['t', '--agent', 'llm', '--history', '0']).agentOptions).toEqual({
      historyWindow: 0,
    });
    expect(parseRunArgs(['t']).agentOptions).toEqual({});
  });

  it('maps the oracle flags', () => {
    expect(parseRunArgs(['t', '--oracle-cut', '2', '--oracle-file', 'o.json']).agentOptions).toEqual({
      cut: 2,
      oracleFile: 'o.json',
    });
    expect(parseRunArgs(['t', '--agent', 'oracle', '--oracle-cut=0']).agentOptions).toEqual({ cut: 0 });
  });

  it('refuses out-of-range values, naming the flag and the range', () => {
    expect(usageError(['t', '--agent', 'llm', '--temperature', '3'])).toBe(
      "--temperature '3': a number from 0 to 2",
    );
    expect(usageError(['t', '--agent', 'llm', '--temperature', '-1'])).toMatch(/^--temperature '-1'/);
    expect(usageError(['t', '--agent', 'llm', '--top-p', '0'])).toMatch(
      /^--top-p '0': a number above 0, up to 1/,
    );
    expect(usageError(['t', '--agent', 'llm', '--top-p', '1.5'])).toMatch(/^--top-p '1.5'/);
    expect(usageError(['t', '--agent', 'llm', '--max-tokens', '1.5'])).toMatch(
      /^--max-tokens '1.5': output tokens/,
    );
    expect(usageError(['t', '--agent', 'llm', '--history', 'three'])).toMatch(/^--history 'three'/);
    expect(usageError(['t', '--agent', 'llm', '--max-image-width', '10'])).toMatch(/^--max-image-width '10'/);
    expect(usageError(['t', '--agent', 'llm', '--image-format', 'gif'])).toBe(
      "--image-format 'gif': use png or jpeg",
    );
    expect(usageError(['t', '--oracle-cut', '-2'])).toMatch(/^--oracle-cut '-2'/);
    expect(usageError(['t', '--agent', 'llm', '--max-tokens'])).toBe('--max-tokens needs a value');
    expect(usageError(['t', '--agent', 'llm', '--no-feedback=yes'])).toBe('--no-feedback takes no value');
  });

  it("refuses an agent's option given to another agent", () => {
    expect(usageError(['t', '--temperature', '0.1'])).toBe(
      "--temperature is an option of the llm agent, and this run's agent is oracle; add --agent llm or drop --temperature",
    );
    expect(usageError(['t', '--agent', 'llm', '--oracle-cut', '1'])).toMatch(
      /^--oracle-cut is an option of the oracle agent/,
    );
    expect(usageError(['t', '--agent', 'noop', '--no-feedback'])).toMatch(
      /^--no-feedback is an option of the llm agent/,
    );
  });

  it('never takes the API key as a flag, and never echoes it', () => {
    const secret = 'sk-never-on-the-command-line-123';
    for (const argv of [
      ['t', '--agent', 'llm', '--api-key', secret],
      ['t', '--agent', 'llm', `--api-key=${secret}`],
      ['t', `--apikey=${secret}`],
    ]) {
      const message = usageError(argv);
      expect(message).not.toContain(secret);
    }
    expect(usageError(['t', '--api-key', secret])).toMatch(
      /^--api-key: the API key is never a flag.*PROCTOR_API_KEY or OPENAI_API_KEY.*config file/,
    );
  });

  it('takes --env SPEC, refuses an unknown kind before any task starts, and keeps the spec in the manifest', async () => {
    expect(parseRunArgs(['t', '--env', 'local:1280x800']).env).toBe('local:1280x800');
    expect(parseRunArgs(['t', '--env=local']).env).toBe('local');
    expect(usageError(['t', '--env', '9x'])).toMatch(/^--env: .*starts with a kind/);
    const dir = mkdtempSync(join(tmpdir(), 'proctor-run-env-'));
    dirs.push(dir);
    const err: string[] = [];
    expect(
      await main(['run', taskFile, '--env', 'lokal', '--out', dir], {
        out: () => undefined,
        err: (l) => err.push(l),
      }),
    ).toBe(2);
    expect(err.join('\n')).toMatch(/--env: unknown environment kind 'lokal' \(closest known: 'local'\)/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(missing.length > 0)(
    `runs on the environment --env names and records it for --resume${why}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'proctor-run-env-'));
      dirs.push(dir);
      const out: string[] = [];
      const code = await main(
        ['run', taskFile, '--agent', 'noop', '--env', 'local:1024x768', '--out', dir, '--json'],
        { out: (l) => out.push(l), err: () => undefined },
      );
      expect(code).toBe(0);
      const outcome = JSON.parse(out.join('\n')) as { runDir: string; tasks: { state: string }[] };
      expect(outcome.tasks).toMatchObject([{ state: 'success' }]);
      const manifest = JSON.parse(readFileSync(join(outcome.runDir, 'manifest.json'), 'utf8')) as {
        env?: string;
        args: string[];
      };
      expect(manifest.env).toBe('local:1024x768');
      expect(manifest.args).toEqual(expect.arrayContaining(['--env', 'local:1024x768']));
      const steps = readFileSync(
        join(
          outcome.runDir,
          'pyautogui/screenshot/noop/terminal/246ccb60-7635-46fa-a222-6f4261e826ee/steps.jsonl',
        ),
        'utf8',
      );
      expect(steps).toMatch(/"screen":\{"width":1024,"height":768\}/);
    },
    120_000,
  );

  it('refuses a --retrieval or --oracle-file that is not a file before any task starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proctor-run-flags-'));
    dirs.push(dir);
    for (const argv of [
      [
        'run',
        taskFile,
        '--agent',
        'llm',
        '--model',
        'm',
        `--retrieval=${join(dir, 'nope.md')}`,
        '--out',
        dir,
      ],
      ['run', taskFile, '--oracle-file', dir, '--out', dir],
    ]) {
      const err: string[] = [];
      const code = await main(argv, { out: () => undefined, err: (l) => err.push(l) });
      expect(code).toBe(2);
      expect(err.join('\n')).toMatch(
        argv.includes('--oracle-file')
          ? `--oracle-file: no file at ${dir}`
          : `--retrieval: no file at ${join(dir, 'nope.md')}`,
      );
    }
    expect(readdirSync(dir)).toEqual([]); // no run folder was made
  });

  it('documents every agent option in `proctor run --help`, with the agent defaults', async () => {
    const { code, stdout } = await proctor(['run', '--help'], {}, 60_000);
    expect(code).toBe(0);
    for (const flag of [
      '--history N',
      '--no-history-images',
      '--no-feedback',
      '--retrieval[=FILE]',
      '--max-image-width N',
      '--image-format',
      '--temperature X',
      '--top-p X',
      '--max-tokens N',
      '--oracle-cut N',
      '--oracle-file FILE',
    ])
      expect(stdout).toContain(flag);
    expect(stdout).toMatch(/--temperature X .*\(default 0\.5\)/);
    expect(stdout).toContain(`(default ${defaultSampling.temperature})`);
    expect(stdout).toContain(`(default ${defaultSampling.topP})`);
    expect(stdout).toContain(`(default ${defaultSampling.maxTokens})`);
    expect(stdout).toMatch(/API key is never a flag: PROCTOR_API_KEY \/ OPENAI_API_KEY or the config file/);
    expect(stdout).not.toMatch(/--api-key/);
    expect(stdout).toMatch(/--env SPEC .*default local/);
    expect(stdout).toMatch(/local\[:WxH\]/);
  });

  it('on --resume, takes the agent options of the stored command line, overridden by those given now', () => {
    const dir = mkdtempSync(join(tmpdir(), 'proctor-run-flags-'));
    dirs.push(dir);
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        runId: 'r1',
        agent: 'llm',
        model: 'm',
        args: [
          'run',
          'tasks/',
          '--agent',
          'llm',
          '--model',
          'm',
          '--base-url',
          'http://127.0.0.1:9/v1',
          '--temperature',
          '0.1',
          '--max-tokens',
          '99',
          '--history',
          '1',
        ],
        tasks: [],
      }),
    );
    const now = parseRunArgs(['--resume', dir, '--max-tokens', '500', '--no-feedback']);
    expect(resumedAgentOptions(dir, now)).toEqual({
      agent: 'llm',
      options: {
        baseUrl: 'http://127.0.0.1:9/v1',
        historyWindow: 1,
        executionFeedback: false,
        sampling: { temperature: 0.1, maxTokens: 500 },
      },
    });
    // …and still refuses an option of another agent than the run's.
    expect(() => resumedAgentOptions(dir, parseRunArgs(['--resume', dir, '--oracle-cut', '1']))).toThrow(
      /--oracle-cut is an option of the oracle agent, and this run's agent is llm/,
    );
  });

  describe('through a real run', () => {
    let standin: ScriptedOpenAIStandin | undefined;
    afterAll(async () => {
      await standin?.close();
    });

    it.skipIf(missing.length > 0)(
      `sends the sampling flags, the history window and no feedback with --no-feedback; the key only from the environment${why}`,
      async () => {
        const KEY = 'sk-proctor-run-flags-KEY-0b5e55ed';
        const out = mkdtempSync(join(tmpdir(), 'proctor-run-flags-'));
        dirs.push(out);
        mkdirSync(join(out, 'results'));
        standin = await startScriptedOpenAIStandin([
          { kind: 'text', content: '```python\npyautogui.click(10,\n```' }, // malformed: refused
          { kind: 'text', content: '```python\npyautogui.moveTo(20, 20)\n```' },
          { kind: 'text', content: 'DONE' },
        ]);
        const { code, stdout, stderr } = await proctor(
          [
            'run',
            taskFile,
            '--agent',
            'llm',
            '--model',
            'standin-vlm',
            '--base-url',
            standin.baseUrl,
            '--out',
            join(out, 'results'),
            '--screen',
            '1280x800',
            '--max-steps',
            '3',
            '--json',
            '--temperature',
            '0.2',
            '--top-p',
            '0.7',
            '--max-tokens',
            '321',
            '--history',
            '1',
            '--no-feedback',
            '--max-image-width',
            '640',
          ],
          { PROCTOR_API_KEY: KEY, PROCTOR_CONFIG: join(out, 'none.json'), OPENAI_API_KEY: '' },
        );
        expect(code, `${stdout}\n${stderr}`).toBe(0);
        const outcome = JSON.parse(stdout) as { runDir: string; tasks: { state: string; score: number }[] };
        expect(outcome.tasks).toMatchObject([{ state: 'success', score: 0 }]); // finished (DONE), the file not written

        const reqs = standin.requests;
        expect(reqs).toHaveLength(3);
        for (const r of reqs) {
          expect(r.body).toMatchObject({
            model: 'standin-vlm',
            temperature: 0.2,
            top_p: 0.7,
            max_tokens: 321,
          });
          expect(r.authorization).toBe(`Bearer ${KEY}`);
        }
        // --history 1: system + one past turn (user, assistant) + the current observation.
        expect(reqs.map((r) => r.body!.messages.length)).toEqual([2, 4, 4]);
        // --no-feedback: the refusal of step 1 is not told at step 2.
        expect(requestText(reqs[1])).not.toContain('FEEDBACK');
        // --max-image-width 640: the prompt names the downscaled size.
        expect(requestText(reqs[0])).toContain('640×400');

        // The key is in no file of the run (the stored command line included).
        const files = (dir: string): string[] =>
          readdirSync(dir).flatMap((n) =>
            statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)],
          );
        const manifest = JSON.parse(readFileSync(join(outcome.runDir, 'manifest.json'), 'utf8')) as {
          args: string[];
        };
        expect(manifest.args).toContain('--temperature');
        for (const f of files(outcome.runDir)) expect(readFileSync(f).includes(KEY), f).toBe(false);
        expect(stdout + stderr).not.toContain(KEY);
      },
      180_000,
    );
  });
});
