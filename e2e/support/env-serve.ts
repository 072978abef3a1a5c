// A real `proctor env serve` process for e2e tests: started with the given arguments, resolved with its address
// once it prints it; its output is kept for the failure message.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { projectRoot } from './serve';

export interface EnvServer {
  process: ChildProcess;
  url: string;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then SIGKILL a second later. */
  stop(): Promise<void>;
}

export async function startEnvServe(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<EnvServer> {
  const child = spawn(process.execPath, [resolve(projectRoot, 'bin/proctor.mjs'), 'env', 'serve', ...args], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`proctor env serve did not start:\n${out}`)), 120_000);
    child.stdout!.on('data', () => {
      const m = /env server on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.once('exit', (c) => fail(new Error(`proctor env serve exited ${c}:\n${out}`)));
  });
  return {
    process: child,
    url,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
      child.kill('SIGKILL');
    },
  };
}
