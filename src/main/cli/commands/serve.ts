// `proctor serve [--port N] [--host 127.0.0.1] [--token] <folder>`: the workbench UI in a browser.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { isLoopback, startServer } from '../../server/http-server';
import { teamGate } from '../../server/team-gate';
import { readTeam } from '../../annotate/team';
import { ensureUiBuilt } from '../../server/ui-build';
import { createWorkbench } from '../../workbench/workbench';

const options = optionTable({
  port: {
    kind: 'string',
    value: 'N',
    default: 7878,
    help: 'port (default 7878; 0 picks a free one)',
    parse: (v: string) => {
      const port = Number(v);
      if (!/^\d+$/.test(v) || port > 65535) throw new UsageError(`bad --port '${v}'`);
      return port;
    },
  },
  host: {
    kind: 'string',
    value: 'ADDR',
    default: '127.0.0.1',
    help: 'address to bind (default 127.0.0.1). Bound elsewhere, a random token is printed and required.',
  },
  token: { kind: 'boolean', help: 'require a token even on loopback' },
  tasks: {
    kind: 'string',
    value: 'DIR',
    repeatable: true,
    complete: 'dir',
    help: 'a folder of tasks runs may be started on, besides the served folder and the bundled demo (`demo`, `demo/terminal`); repeatable. Served on loopback without a team, any path you can read may be given too.',
  },
});

export const command: CliCommand = {
  name: 'serve',
  summary: 'serve the workbench UI for a folder of tasks and runs over HTTP',
  usage: usageText(
    `Usage: proctor serve [--port N] [--host ADDR] [--token] [--tasks DIR]… [folder]

Serves the workbench UI and its API for <folder> (default: the current folder).`,
    options,
  ),
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    if (positionals.length > 1) throw new UsageError('give one folder');
    const root = resolve(positionals[0] ?? '.');
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`not a folder: ${root}`);
    const port = values.port;
    const uiDir = await ensureUiBuilt((line) => io.err(line));
    const taskDirs = values.tasks.map((d) => resolve(d));
    for (const d of taskDirs)
      if (!existsSync(d) || !statSync(d).isDirectory()) throw new UsageError(`--tasks: not a folder: ${d}`);
    const host = values.host;
    // Only the person at this machine uses a loopback server without a team: their own paths may be read.
    const localUser = isLoopback(host) && !values.token && !readTeam(root);
    const workbench = createWorkbench(root, { transport: 'http', taskDirs, localUser });
    const server = await startServer({
      root,
      handlers: workbench.handlers,
      events: workbench.events,
      uiDir,
      port,
      host,
      token: values.token,
      team: teamGate(root),
    });
    io.out(`Proctor is serving ${root}`);
    const team = readTeam(root);
    if (team)
      io.out(
        `Team of ${team.people.length}: each person logs in at /login with their token (proctor team add)`,
      );
    io.out(`Open ${server.url}`);
    for (const other of server.urls.slice(1)) io.out(`  or ${other}`);
    if (server.token)
      io.out(
        '(the first page load trades the token in that address for a cookie; scripts send it as Authorization: Bearer)',
      );
    await new Promise<void>((done) => {
      const stop = () => done();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    await workbench.close();
    return 0;
  },
};
