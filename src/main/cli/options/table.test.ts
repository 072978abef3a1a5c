// The one option parser and the help made from a table: both value forms, switches, optional values, repeatable
// options, env vars, `--`, and the usage errors (a missing value, a value to a switch, an unknown flag's nearest).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../command';
import { usageText } from './help';
import { optionTable, parseOptions } from './table';

const table = optionTable({
  model: { kind: 'string', value: 'NAME', help: 'the model' },
  steps: {
    kind: 'string',
    value: 'N',
    default: 15,
    help: 'step limit',
    parse: (v: string, flag: string) => {
      if (!/^\d+$/.test(v)) throw new UsageError(`${flag} '${v}': a whole number`);
      return Number(v);
    },
  },
  json: { kind: 'boolean', help: 'print JSON' },
  retrieval: { kind: 'optional-value', value: 'FILE', help: 'documentation', group: 'Agent options:' },
  price: { kind: 'string', value: 'M=P', repeatable: true, help: 'a price' },
  token: { kind: 'string', value: 'T', env: 'TEST_PROCTOR_TOKEN', help: 'a token' },
});

const fails = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    parseOptions(table, argv, { env });
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
};

describe('parseOptions', () => {
  it('reads both value forms, switches, optional values, lists, defaults and what was given', () => {
    const p = parseOptions(
      table,
      [
        'a',
        '--model=m',
        '--steps',
        '3',
        'b',
        '--json',
        '--retrieval',
        'c',
        '--price',
        'x=1',
        '--price=y=2',
        '--',
        '--json',
      ],
      { env: {} },
    );
    expect(p.positionals).toEqual(['a', 'b', 'c', '--json']);
    expect(p.values).toMatchObject({
      model: 'm',
      steps: 3,
      json: true,
      retrieval: true,
      price: ['x=1', 'y=2'],
    });
    expect(p.given).toEqual(['model', 'steps', 'json', 'retrieval', 'price']);
    const d = parseOptions(table, ['--retrieval=docs.md'], { env: {} });
    expect(d.values).toEqual({ retrieval: 'docs.md', steps: 15, price: [] });
    expect(d.given).toEqual(['retrieval']);
  });

  it('takes a one-letter alias where one is declared, and shows it in the help', () => {
    const t = optionTable({ output: { kind: 'string', short: 'o', value: 'FILE', help: 'the file' } });
    expect(parseOptions(t, ['-o', 'a.png'], { env: {} }).values.output).toBe('a.png');
    expect(parseOptions(t, ['--output=b.png'], { env: {} }).values.output).toBe('b.png');
    expect(() => parseOptions(t, ['-x', 'a.png'], { env: {} })).toThrow(/^unknown option '-x'/);
    expect(usageText('Usage: t', t)).toMatch(/^ {2}-o, --output FILE {5}the file$/m);
  });

  it('reads an env var when the flag is absent, the flag winning', () => {
    expect(parseOptions(table, [], { env: { TEST_PROCTOR_TOKEN: 'abc' } }).values.token).toBe('abc');
    expect(parseOptions(table, ['--token', 'x'], { env: { TEST_PROCTOR_TOKEN: 'abc' } }).values.token).toBe(
      'x',
    );
  });

  it('refuses a missing value, a value to a switch, a bad value and an unknown flag (naming the nearest)', () => {
    expect(fails(['--model'])).toBe('--model needs a value');
    expect(fails(['--model', '--json'])).toBe('--model needs a value');
    expect(fails(['--json=yes'])).toBe('--json takes no value');
    expect(fails(['--retrieval='])).toBe('--retrieval=FILE needs a file name');
    expect(fails(['--steps', 'x'])).toBe("--steps 'x': a whole number");
    expect(fails(['--modle=secret-value'])).toBe("unknown option '--modle' (closest known: '--model')");
    expect(fails(['--zzzzzzzz'])).toBe("unknown option '--zzzzzzzz'");
    expect(fails(['-x'])).toMatch(/^unknown option '-x'/);
  });

  it('makes the help from the table: signatures, defaults, groups, repeatable and env', () => {
    const help = usageText('Usage: t [options]', table, 'Exit status: 0');
    expect(help).toMatch(/^ {2}--model NAME {10}the model$/m);
    expect(help).toMatch(/^ {2}--steps N {13}step limit \(default 15\)$/m);
    expect(help).toMatch(/^Agent options:\n {2}--retrieval\[=FILE\] +documentation$/m);
    expect(help).toMatch(/--price M=P +a price \(repeatable\)/);
    expect(help).toMatch(/--token T +a token \[env TEST_PROCTOR_TOKEN\]/);
    expect(help.endsWith('\n\nExit status: 0')).toBe(true);
  });
});
