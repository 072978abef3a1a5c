// Test and bench fixture: a private redis-server (the Debian package) on a free 127.0.0.1 port, in a temporary
// folder, with AOF on (appendfsync always), so a restart keeps what was written. Stopped by its pid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../free-port';

export { freePort };

export const hasRedisServer = spawnSync('sh', ['-c', 'command -v redis-server']).status === 0;

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = new Socket();
    let buf = '';
    sock.setTimeout(1000, () => (sock.destroy(), resolve(false)));
    sock.on('error', () => resolve(false));
    sock.on('data', (d) => {
      buf += d.toString();
      if (buf.includes('\r\n')) {
        sock.destroy();
        resolve(buf.startsWith('+PONG'));
      }
    });
    sock.connect(port, '127.0.0.1', () => sock.write('PING\r\n'));
  });
}

export class TestRedis {
  private child?: ChildProcess;

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** A new server in a fresh temporary folder. */
  static async start(): Promise<TestRedis> {
    const r = new TestRedis(mkdtempSync(join(tmpdir(), 'proctor-redis-')), await freePort());
    await r.launch();
    return r;
  }

  private async launch(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--save',
      '',
      '--protected-mode',
      'yes',
      '--daemonize',
      'no',
      '--logfile',
      join(this.dir, 'redis.log'),
    ];
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    this.child = child;
    const end = Date.now() + 15_000;
    while (Date.now() < end) {
      if (child.exitCode !== null)
        throw new Error(`redis-server exited with ${child.exitCode} (log: ${join(this.dir, 'redis.log')})`);
      if (await ping(this.port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server on port ${this.port} did not answer within 15 s`);
  }

  /** Stops the server by its pid (SIGTERM: it finishes its AOF) and waits for it to exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    process.kill(child.pid!, signal);
    await exited;
  }

  /** Stops and starts the server on the same port and folder (the AOF brings the data back). */
  async restart(downMs = 0): Promise<void> {
    await this.stop();
    if (downMs) await new Promise((r) => setTimeout(r, downMs));
    await this.launch();
  }

  /** Stops the server and removes its folder. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
