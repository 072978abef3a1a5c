// Commands, files and launched programs over a sandbox home: what the shell and local environments share.
// Processes start through the session's Confinement (a namespace sandbox, or the host as a fallback).
import type { ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CommandResult, RunOptions } from '../environment';
import { EnvironmentError } from '../../errors';
import type { SandboxHome } from './sandbox-home';
import { hostConfinement, type Confinement } from './confinement';

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_OUTPUT = 16 * 1024 * 1024;

export class SandboxShell {
  private readonly launched = new Set<ChildProcess>();

  constructor(
    readonly home: SandboxHome,
    /** Variables of the display the commands belong to (DISPLAY, DBUS_SESSION_BUS_ADDRESS, …); empty when headless. */
    private readonly displayEnv: Record<string, string> = {},
    readonly confinement: Confinement = hostConfinement(home),
  ) {}

  /** The environment guest commands run with: a clean one (no key of Proctor's), plus the display's. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return { ...this.confinement.baseEnv(), ...this.displayEnv, ...extra };
  }

  private argv(command: string | string[], shell: boolean | undefined): string[] {
    if (typeof command === 'string') {
      if (shell === false)
        return command
          .split(/\s+/)
          .filter(Boolean)
          .map((a) => this.confinement.rewrite(a));
      return ['/bin/sh', '-c', this.confinement.rewrite(command)];
    }
    if (!Array.isArray(command) || command.length === 0 || command.some((a) => typeof a !== 'string')) {
      throw new EnvironmentError(
        `a command must be a string or a non-empty list of strings, got ${JSON.stringify(command)}`,
      );
    }
    if (shell === true) return ['/bin/sh', '-c', this.confinement.rewrite(command.join(' '))];
    return command.map((a) => this.confinement.rewrite(a));
  }

  async run(command: string | string[], options: RunOptions = {}): Promise<CommandResult> {
    const argv = this.argv(command, options.shell);
    const file = argv[0];
    if (!this.confinement.hasProgram(file))
      return {
        stdout: '',
        stderr: `cannot run ${file}: spawn ${file} ENOENT`,
        exitCode: 127,
        timedOut: false,
      };
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise<CommandResult>((resolve) => {
      let child: ChildProcess;
      try {
        child = this.confinement.spawn(argv, {
          cwd: options.cwd,
          env: this.env(options.env),
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (e) {
        return resolve({
          stdout: '',
          stderr: `cannot run ${file}: ${(e as Error).message}`,
          exitCode: 127,
          timedOut: false,
        });
      }
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let outLen = 0;
      let errLen = 0;
      let timedOut = false;
      child.stdout!.on('data', (d: Buffer) => {
        if (outLen < MAX_OUTPUT) out.push(d);
        outLen += d.length;
      });
      child.stderr!.on('data', (d: Buffer) => {
        if (errLen < MAX_OUTPUT) err.push(d);
        errLen += d.length;
      });
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, timeoutMs);
      child.once('error', (e) => {
        clearTimeout(timer);
        resolve({ stdout: '', stderr: `cannot run ${file}: ${e.message}`, exitCode: 127, timedOut: false });
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        resolve({
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
          exitCode: code ?? (signal ? null : 0),
          timedOut,
        });
      });
    });
  }

  async putFile(guestPath: string, data: Buffer): Promise<void> {
    const host = this.home.toHost(guestPath);
    const created = await mkdir(dirname(host), { recursive: true });
    await writeFile(host, data);
    this.confinement.adopt(created ?? host);
  }

  /** Puts the host file `hostFile` at `guestPath`, moved when on the same filesystem (else copied, then removed). */
  async putFileFrom(guestPath: string, hostFile: string): Promise<void> {
    const host = this.home.toHost(guestPath);
    const created = await mkdir(dirname(host), { recursive: true });
    try {
      await rename(hostFile, host);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      await copyFile(hostFile, host);
      await rm(hostFile, { force: true });
    }
    this.confinement.adopt(created ?? host);
  }

  async getFile(guestPath: string): Promise<Buffer | undefined> {
    const host = this.home.toHost(guestPath);
    try {
      return await readFile(host);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw e;
    }
  }

  /** Starts a program detached (its own process group) and resolves once it has been spawned. */
  async launch(
    command: string[],
    options: { cwd?: string; env?: Record<string, string> } = {},
  ): Promise<void> {
    const argv = this.argv(command, false);
    if (!this.confinement.hasProgram(argv[0]))
      throw new EnvironmentError(`cannot launch ${JSON.stringify(command)}: spawn ${argv[0]} ENOENT`);
    const child = this.confinement.spawn(argv, {
      cwd: options.cwd,
      env: this.env(options.env),
      detached: true,
      stdio: 'ignore',
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (e) =>
        reject(new EnvironmentError(`cannot launch ${JSON.stringify(command)}: ${e.message}`, { cause: e })),
      );
    });
    child.unref();
    this.launched.add(child);
    child.once('exit', () => this.launched.delete(child));
  }

  /** Kills every program launched through this shell (their whole process groups). */
  async stopLaunched(): Promise<void> {
    const kids = [...this.launched];
    for (const c of kids) {
      try {
        process.kill(-c.pid!, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
    await new Promise((r) => setTimeout(r, kids.length ? 200 : 0));
    for (const c of kids) {
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    this.launched.clear();
  }
}
