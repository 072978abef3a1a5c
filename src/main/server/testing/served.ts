// A workbench served over real HTTP on 127.0.0.1 for tests: raw requests (any Host, Origin or body), and calls
// as a person of a team (the cookie a browser sends after logging in).
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Role } from '../../../shared/run';
import { addTeamMember } from '../../annotate/team';
import { createWorkbench, type Workbench } from '../../workbench/workbench';
import { startServer, type RunningServer, type ServeOptions } from '../http-server';
import { teamGate } from '../team-gate';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request to the server on `port`, exactly as given. */
export function rawRequest(port: number, path: string, opts: RawOptions = {}): Promise<RawAnswer> {
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', fail);
    req.end(opts.body);
  });
}

/** The answer to a contract call: the HTTP status and the call's result or error. */
export interface CallAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the results of every method, read field by field by tests
  result?: any;
  error?: { code: string; message: string };
}

export interface Served {
  server: RunningServer;
  workbench: Workbench;
  /** Each team member's token, by name. */
  tokens: Record<string, string>;
  raw(path: string, opts?: RawOptions): Promise<RawAnswer>;
  /** A contract call as `person` (their cookie), or with no cookie at all. */
  call(person: string | undefined, method: string, params: unknown): Promise<CallAnswer>;
  close(): Promise<void>;
}

/**
 * Serves the workbench over `root` (with a placeholder UI page), with `team` added as its people when given (the
 * team gate then guards every call). Extra server options (e.g. `token`) pass through.
 */
export async function serveForTest(
  root: string,
  team?: Record<string, Role>,
  extra: Partial<ServeOptions> = {},
): Promise<Served> {
  mkdirSync(join(root, 'ui'), { recursive: true });
  writeFileSync(join(root, 'ui', 'index.html'), '<!doctype html><title>ui</title>');
  const tokens: Record<string, string> = {};
  for (const [name, role] of Object.entries(team ?? {})) tokens[name] = await addTeamMember(root, name, role);
  const workbench = createWorkbench(root, { transport: 'http' });
  const server = await startServer({
    root,
    handlers: workbench.handlers,
    events: workbench.events,
    uiDir: join(root, 'ui'),
    port: 0,
    ...(team ? { team: teamGate(root) } : {}),
    ...extra,
  });
  const raw = (path: string, opts?: RawOptions) => rawRequest(server.port, path, opts);
  return {
    server,
    workbench,
    tokens,
    raw,
    async call(person, method, params) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (person) headers.cookie = `proctor-person-${server.port}=${tokens[person]}`;
      const r = await raw('/api/call', { method: 'POST', headers, body: JSON.stringify({ method, params }) });
      return { status: r.status, ...(JSON.parse(r.body) as Omit<CallAnswer, 'status'>) };
    },
    async close() {
      await server.close();
      await workbench.close();
    },
  };
}
