// `proctor env serve`: turns this machine's display (a sandbox display by default) into an environment that
// OSWorld's harness and Proctor's `osworld` environment drive over OSWorld's VM control protocol.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { createLocalEnvironment } from '../../env/local';
import { isLoopback, startGuestServer } from '../../guest-server';

const options = optionTable({
  display: { kind: 'string', value: ':N', help: 'serve this X display instead of a fresh sandbox display' },
  port: { kind: 'string', value: 'N', help: 'port (default 5000; 0 picks a free one)' },
  host: {
    kind: 'string',
    value: 'ADDR',
    default: '127.0.0.1',
    help: 'address to bind (default 127.0.0.1). Off loopback a bearer token is required: read from --token-file, or generated and printed once.',
  },
  'token-file': {
    kind: 'string',
    value: 'F',
    complete: 'file',
    help: 'the token (first line of F, at least 16 characters); also required on loopback when given',
  },
  width: { kind: 'string', value: 'W', help: 'width of a fresh sandbox display in pixels' },
  height: { kind: 'string', value: 'H', help: 'height of a fresh sandbox display in pixels' },
  'allow-paths': {
    kind: 'string',
    value: 'D,…',
    help: 'folders the file endpoints may use besides the guest home (/home/user) and /tmp',
  },
  downloads: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: '/setup/download_file takes files from DIR (by downloads.json, URL → file, or by name) instead of fetching them; a missing one is an error naming the URL',
  },
  log: { kind: 'boolean', help: 'print one line per request to stderr' },
});

const usage = usageText(
  `Usage: proctor env serve [--display :N] [--port 5000] [--host 127.0.0.1] [--token-file F]
                         [--width W --height H] [--allow-paths DIR,...] [--downloads DIR] [--log]

Serves OSWorld's VM control protocol (/screenshot, /execute, /accessibility, /setup/…) on a display: a fresh
sandbox display by default, or --display :N. OSWorld's \`python -c "import pyautogui; …"\` actions are parsed with
Proctor's whitelisting parser and performed natively. Proctor extensions: GET /proctor/info, POST /proctor/reset
(ends every process the episode started; fresh home and display).`,
  options,
);

export const command: CliCommand = {
  name: 'env',
  summary: "serve a display as an environment over OSWorld's VM protocol (env serve)",
  usage,
  options,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'serve')
      throw new UsageError(sub ? `unknown subcommand 'env ${sub}'` : 'give a subcommand: env serve');
    const { values, positionals } = parseOptions(options, rest);
    if (positionals.length) throw new UsageError(`unexpected '${positionals[0]}'`);
    const port = values.port === undefined ? 5000 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be 0..65535, not '${values.port}'`);
    const size = (name: string, v: string | undefined): number | undefined => {
      if (v === undefined) return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 64 || n > 8192)
        throw new UsageError(`--${name} must be a whole number of pixels from 64 to 8192`);
      return n;
    };
    const width = size('width', values.width);
    const height = size('height', values.height);
    if (values.display !== undefined && !/^:\d+(\.\d+)?$/.test(values.display))
      throw new UsageError(`--display must look like :N, got '${values.display}'`);
    if (values.display !== undefined && (width || height))
      throw new UsageError('--width/--height size a fresh sandbox display; not with --display');
    let token: string | undefined;
    if (values['token-file'] !== undefined) {
      const f = resolve(values['token-file']);
      if (!existsSync(f)) throw new UsageError(`--token-file: no file ${f}`);
      token = readFileSync(f, 'utf8').split('\n')[0].trim();
      if (token.length < 16)
        throw new UsageError(`--token-file: the token in ${f} (line 1) must be at least 16 characters`);
    }
    const allowPaths = (values['allow-paths'] ?? '')
      .split(',')
      .filter(Boolean)
      .map((p) => resolve(p));
    for (const p of allowPaths)
      if (!existsSync(p) || !statSync(p).isDirectory())
        throw new UsageError(`--allow-paths: not a folder: ${p}`);
    const downloads = values.downloads !== undefined ? resolve(values.downloads) : undefined;
    if (downloads && (!existsSync(downloads) || !statSync(downloads).isDirectory()))
      throw new UsageError(`--downloads: not a folder: ${downloads}`);
    const host = values.host;

    const server = await startGuestServer({
      createEnvironment: () =>
        createLocalEnvironment({ display: values.display, width, height, notify: io.err }),
      host,
      port,
      token,
      allowPaths,
      downloads: downloads ? { dir: downloads } : undefined,
      log: values.log ? io.err : undefined,
    });
    const env = await server.environment();
    io.out(
      `Proctor env server on ${server.url} driving display ${env.display}${values.display ? '' : ' (sandbox)'}`,
    );
    if (server.token && token === undefined) {
      io.out(`Token (printed once; send it as "Authorization: Bearer <token>"): ${server.token}`);
    } else if (server.token) io.out('A bearer token (from --token-file) is required for every request.');
    if (!isLoopback(host))
      io.err('proctor env serve: bound off loopback; anyone who holds the token controls this display');
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await server.close();
    return 0;
  },
};
