// Test helper: a Thunderbird profile written by Debian's Thunderbird itself. Starts `thunderbird --headless
// --marionette` on a profile folder (HOME set to the sandbox home) and drives it over Marionette — length-prefixed
// JSON over TCP (`NN:[0, id, command, params]`) — in the chrome context, where a script uses the same services
// (Services.prefs, MailServices, AddonManager) as Thunderbird's own dialogs. Thunderbird writes prefs.js,
// msgFilterRules.dat and the mail folders; the tests never write those files. Tests skip when it is absent.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { poll } from '../../env/local/testing/poll';

export const hasThunderbird = spawnSync('sh', ['-c', 'command -v thunderbird']).status === 0;

/** Prefs Thunderbird reads from user.js at start: Marionette on a port of its choosing (written to
 * MarionetteActivePort), and no first-run work. Thunderbird merges them into prefs.js when it saves. */
const startPrefs: Record<string, string | number | boolean> = {
  'marionette.port': 0,
  'mail.shell.checkDefaultClient': false,
  'mail.provider.suppress_dialog_on_startup': true,
  'datareporting.policy.dataSubmissionEnabled': false,
  'app.update.auto': false,
  'mail.rights.override': true,
};

type Reply = [number, number, { error: string; message: string } | null, { value?: unknown } | null];

/** A Marionette connection: one request at a time, answers matched by id. */
class MarionetteClient {
  private buf = Buffer.alloc(0);
  private waiting: { resolve: (msg: unknown) => void; reject: (e: Error) => void }[] = [];
  private id = 0;

  constructor(private readonly socket: Socket) {
    socket.on('data', (d) => this.receive(d));
    // a reset when Thunderbird quits ends the connection like a close does
    socket.on('error', () => socket.destroy());
    socket.on('close', () =>
      this.waiting.splice(0).forEach((w) => w.reject(new Error('Marionette closed the connection'))),
    );
  }

  private receive(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const colon = this.buf.indexOf(':');
      if (colon < 0) return;
      const n = Number(this.buf.subarray(0, colon).toString());
      if (this.buf.length < colon + 1 + n) return;
      const msg = JSON.parse(this.buf.subarray(colon + 1, colon + 1 + n).toString('utf8')) as unknown;
      this.buf = this.buf.subarray(colon + 1 + n);
      this.waiting.shift()?.resolve(msg);
    }
  }

  next(): Promise<unknown> {
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  async send(command: string, params: Record<string, unknown>): Promise<unknown> {
    const body = Buffer.from(JSON.stringify([0, ++this.id, command, params]));
    const reply = this.next();
    this.socket.write(`${body.length}:`);
    this.socket.write(body);
    const [, , error, result] = (await reply) as Reply;
    if (error) throw new Error(`Marionette ${command}: ${error.error}: ${error.message}`);
    return result?.value;
  }
}

export interface ThunderbirdSession {
  /** The profile folder Thunderbird writes. */
  profile: string;
  /** Runs `body` (the statements of an async function; `args` are `arguments[0..]`) in Thunderbird's chrome
   * context with `MailServices` in scope, and returns what it returns. */
  run(body: string, args?: unknown[]): Promise<unknown>;
  /** Asks Thunderbird to quit (it saves prefs.js) and waits for it to exit. */
  quit(): Promise<void>;
  /** Stops the process group if it is still running (after a failed test). */
  kill(): Promise<void>;
}

/** Starts Thunderbird on `profile` with `home` as HOME and connects to it over Marionette. */
export async function startThunderbird(home: string, profile: string): Promise<ThunderbirdSession> {
  mkdirSync(profile, { recursive: true });
  writeFileSync(
    join(profile, 'user.js'),
    Object.entries(startPrefs)
      .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`)
      .join(''),
  );
  const child: ChildProcess = spawn(
    'thunderbird',
    ['--headless', '--marionette', '-remote-allow-system-access', '--no-remote', '--profile', profile],
    {
      env: { ...process.env, HOME: home, MOZ_CRASHREPORTER_DISABLE: '1' },
      detached: true,
      stdio: 'ignore',
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    await exited;
  };
  try {
    const port = await poll('Thunderbird writing MarionetteActivePort', 30_000, () => {
      if (child.exitCode !== null)
        throw new Error(`thunderbird exited with code ${child.exitCode} before Marionette listened`);
      try {
        const p = Number(readFileSync(join(profile, 'MarionetteActivePort'), 'utf8').trim());
        return p > 0 ? p : undefined;
      } catch {
        return undefined;
      }
    });
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const client = new MarionetteClient(socket);
    await client.next(); // the greeting: {applicationType, marionetteProtocol}
    await client.send('WebDriver:NewSession', {});
    await client.send('Marionette:SetContext', { value: 'chrome' });
    const run = (body: string, args: unknown[] = []) =>
      client.send('WebDriver:ExecuteScript', {
        script: `const { MailServices } = ChromeUtils.importESModule("resource:///modules/MailServices.sys.mjs");\nreturn (async function () {\n${body}\n}).apply(null, arguments);`,
        args,
      });
    const quit = async () => {
      await client.send('Marionette:Quit', {});
      socket.destroy();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      await kill();
    };
    return { profile, run, quit, kill };
  } catch (e) {
    await kill();
    throw e;
  }
}
