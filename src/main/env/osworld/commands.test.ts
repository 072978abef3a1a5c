// run() options → the guest command /execute gets, and /execute answers → CommandResult.
import { describe, expect, it } from 'vitest';
import { commandFor, resultOf, shQuote } from './commands';

const answer = (status: number, body: unknown) => ({
  status,
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  contentType: 'application/json',
});

describe('commandFor', () => {
  it('sends plain commands as they are: strings through the shell, argv without', () => {
    expect(commandFor('ls -l | wc -l')).toEqual({ command: 'ls -l | wc -l', shell: true });
    expect(commandFor(['ls', '-l'])).toEqual({ command: ['ls', '-l'], shell: false });
    expect(commandFor('ls -l', { shell: false })).toEqual({ command: 'ls -l', shell: false });
  });

  it('wraps cwd, env and timeout around the command', () => {
    expect(commandFor(['ls'], { cwd: '/tmp', env: { A: '1' }, timeoutMs: 2500 })).toEqual({
      command: ['sh', '-c', 'cd -- "$0" && exec "$@"', '/tmp', 'env', 'A=1', 'timeout', '-k', '5', '3', 'ls'],
      shell: false,
      timeoutSeconds: 3,
    });
    expect(commandFor('echo $HOME', { timeoutMs: 100 }).command).toEqual([
      'timeout',
      '-k',
      '5',
      '1',
      'sh',
      '-c',
      'echo $HOME',
    ]);
    expect(commandFor(['echo', "it's"], { shell: true, env: { B: 'x' } }).command).toEqual([
      'env',
      'B=x',
      'sh',
      '-c',
      "echo 'it'\\''s'",
    ]);
  });

  it('refuses what it cannot send', () => {
    expect(() => commandFor([])).toThrow(/non-empty list/);
    expect(() => commandFor('')).toThrow(/command string/);
    expect(() => commandFor(['ls'], { env: { 'A B': 'x' } })).toThrow(/bad environment variable 'A B'/);
    expect(() => commandFor(['ls'], { timeoutMs: -1 })).toThrow(/not a positive number/);
  });

  it('quotes shell words', () => {
    expect(shQuote('plain/path.txt')).toBe('plain/path.txt');
    expect(shQuote("a b'c")).toBe("'a b'\\''c'");
    expect(shQuote('')).toBe("''");
  });
});

describe('resultOf', () => {
  const S = 'http://vm:5000';
  it('maps a 200 answer, and exit 124 of a wrapped timeout to timedOut', () => {
    expect(
      resultOf(
        answer(200, { status: 'success', output: 'o', error: 'e', returncode: 2 }),
        { command: 'x', shell: true },
        S,
      ),
    ).toEqual({ stdout: 'o', stderr: 'e', exitCode: 2, timedOut: false });
    expect(
      resultOf(
        answer(200, { status: 'success', output: '', error: '', returncode: 124 }),
        { command: [], shell: false, timeoutSeconds: 1 },
        S,
      ),
    ).toMatchObject({ exitCode: null, timedOut: true });
    expect(
      resultOf(
        answer(200, { status: 'success', output: '', error: '', returncode: 124 }),
        { command: [], shell: false },
        S,
      ),
    ).toMatchObject({ exitCode: 124, timedOut: false });
  });

  it("maps the server's 500 answers: its own timeout, and a program it could not start", () => {
    expect(
      resultOf(
        answer(500, { status: 'error', message: "Command 'x' timed out after 120 seconds" }),
        { command: 'x', shell: true },
        S,
      ),
    ).toMatchObject({ exitCode: null, timedOut: true });
    expect(
      resultOf(
        answer(500, { status: 'error', message: "[Errno 2] No such file or directory: 'nope'" }),
        { command: ['nope'], shell: false },
        S,
      ),
    ).toMatchObject({ exitCode: 127, stderr: expect.stringContaining('nope') });
  });

  it('throws on answers that are not the protocol, naming server, endpoint and status', () => {
    expect(() =>
      resultOf(answer(500, '<html>Internal Server Error</html>'), { command: 'x', shell: true }, S),
    ).toThrow(
      'osworld server http://vm:5000: POST /execute answered HTTP 500 with a body that is not JSON: <html>Internal Server Error</html>',
    );
    expect(() => resultOf(answer(502, { message: 'bad gateway' }), { command: 'x', shell: true }, S)).toThrow(
      /POST \/execute answered HTTP 502: bad gateway/,
    );
  });
});
