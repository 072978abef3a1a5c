// One command-line convention for every command: `--name=value`, the same --parallel rule, and an unknown option
// answered with the closest known one — through the real `main` entry, over commands with different parsers.
import { describe, expect, it } from 'vitest';
import { main } from './main';
import { splitOptionValues, usageOptions } from './command';

async function call(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (l) => (out += l + '\n'), err: (l) => (err += l + '\n') });
  return { code, out, err };
}

describe('the command-line convention', () => {
  it('splits --name=value except for options whose value is optional, and leaves what follows -- alone', () => {
    expect(
      splitOptionValues(
        ['--model=gpt-4o', 'x', '--retrieval=docs.md', '--', '--a=b'],
        new Set(['--retrieval']),
      ),
    ).toEqual(['--model', 'gpt-4o', 'x', '--retrieval=docs.md', '--', '--a=b']);
    expect(splitOptionValues(['--options={"a":1,"b":"c=d"}'])).toEqual(['--options', '{"a":1,"b":"c=d"}']);
    const { known, optionalValue } = usageOptions('  --retrieval[=FILE]  docs\n  --model NAME  the model');
    expect(known).toEqual(['--help', '--model', '--retrieval']);
    expect([...optionalValue]).toEqual(['--retrieval']);
  });

  it("takes `--model=…` on judge as run does (judge's own parser used to refuse it)", async () => {
    // the options are read; it fails only on reaching the (missing) run folder
    await expect(call(['judge', '/nonexistent-run-folder', '--model=gpt-test'])).rejects.toThrow(
      /nonexistent-run-folder: not a run folder/,
    );
    const refused = await call(['judge', '/nonexistent-run-folder', '--modle=gpt-test']);
    expect(refused.err).toMatch(/unknown option '--modle' \(closest known: '--model'\)/);
  });

  it('answers an unknown option with the closest known one, for hand-written and parseArgs parsers alike', async () => {
    const demo = await call(['demo', '--paralel', '2']);
    expect(demo.code).toBe(2);
    expect(demo.err).toMatch(/unknown option '--paralel' \(closest known: '--parallel'\)/);
    const team = await call(['team', 'list', '--rooot', '/tmp']);
    expect(team.code).toBe(2);
    expect(team.err).toMatch(/unknown option '--rooot' \(closest known: '--root'\)/);
  });

  it('answers an unknown option of a command declared by a table with the closest, once, and its generated usage', async () => {
    for (const [argv, near] of [
      [['run', 't', '--grading-profle', 'osworld'], '--grading-profile'],
      [['report', 'x', '--resample', '200'], '--resamples'],
      [['worker', '--slot', '2'], '--slots'],
      [['eval', 'x', '--tsk', 'a/b'], '--task'],
      [['queue', 'status', '--queu', 'redis://h:1'], '--queue'],
    ] as const) {
      const r = await call([...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain(
        `unknown option '${argv.find((a) => a.startsWith('--'))}' (closest known: '${near}')\n`,
      );
      expect(r.err.match(/closest known/g)).toHaveLength(1);
      expect(r.err).toMatch(new RegExp(`^  ${near} `, 'm')); // the usage, from the table, names it
    }
  });

  it('names no option of another subcommand, and no unrelated one, as the closest known', async () => {
    // --logs is dataflow judge's; instantiate does not take it, so it is not its own "closest known" option
    const other = await call(['dataflow', 'instantiate', 'task.json', '--out', '/tmp/x', '--logs', '/tmp']);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/^proctor dataflow: unknown option '--logs'\n/);
    const unrelated = await call(['dataflow', 'instantiate', '--bogus']);
    expect(unrelated.err).toMatch(/^proctor dataflow: unknown option '--bogus'\n/);
    const typo = await call(['dataflow', 'instantiate', '--ovewrite']);
    expect(typo.err).toMatch(/unknown option '--ovewrite' \(closest known: '--overwrite'\)/);
  });

  it('allows --parallel from 1 to 64 in run, demo and selftest alike', async () => {
    for (const cmd of ['run', 'demo', 'selftest']) {
      const r = await call([cmd, ...(cmd === 'demo' ? [] : ['/nonexistent-tasks']), '--parallel', '65']);
      expect(r.code, cmd).toBe(2);
      expect(r.err, cmd).toMatch(/--parallel must be a whole number from 1 to 64, not '65'/);
    }
  });
});
