// The lean D-Bus client against a real dbus-daemon: handshake and Hello, replies of every shape the walk reads
// (strings, arrays, dicts of variants, booleans, integers), error replies, hundreds of calls in flight, closing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DBusCallError, DBusClosedError, DBusConnection, splitSignature, type Variant } from './dbus-wire';

const hasDaemon = spawnSync('sh', ['-c', 'command -v dbus-daemon']).status === 0;
const BUS = ['org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus'] as const;

describe('splitSignature', () => {
  it('splits a signature into its complete types', () => {
    expect(splitSignature('ii(so)a{sv}as')).toEqual(['i', 'i', '(so)', 'a{sv}', 'as']);
    expect(splitSignature('(aiia{ss}iaiiasib)uib')).toEqual(['(aiia{ss}iaiiasib)', 'u', 'i', 'b']);
    expect(() => splitSignature('(si')).toThrow(/unclosed/);
    expect(() => splitSignature('iz')).toThrow(/unknown type 'z'/);
  });
});

describe.skipIf(!hasDaemon)('DBusConnection on a real dbus-daemon (needs dbus-daemon)', () => {
  let daemon: ChildProcess;
  let address: string;

  beforeAll(async () => {
    daemon = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    address = await new Promise<string>((resolve, reject) => {
      let out = '';
      daemon.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0].trim());
      });
      daemon.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
    });
  });

  afterAll(() => {
    daemon?.kill();
  });

  it('registers with Hello and reads strings, arrays, booleans and integers', async () => {
    const c = await DBusConnection.connect(address);
    try {
      const [id] = await c.call(...BUS, 'GetId');
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      const [names] = (await c.call(...BUS, 'ListNames')) as [string[]];
      expect(names).toContain('org.freedesktop.DBus');
      const me = names.find((n) => n.startsWith(':'))!;
      expect(await c.call(...BUS, 'NameHasOwner', 's', [me])).toEqual([true]);
      expect(await c.call(...BUS, 'NameHasOwner', 's', ['org.example.Nobody'])).toEqual([false]);
      expect(await c.call(...BUS, 'GetConnectionUnixUser', 's', [me])).toEqual([process.getuid!()]);
    } finally {
      c.close();
    }
  });

  it('reads a dict of variants (Properties.GetAll) and a single variant (Properties.Get)', async () => {
    const c = await DBusConnection.connect(address);
    try {
      const [all] = (await c.call(BUS[0], BUS[1], 'org.freedesktop.DBus.Properties', 'GetAll', 's', [
        BUS[2],
      ])) as [Record<string, Variant>];
      expect(all.Interfaces.signature).toBe('as');
      expect(Array.isArray(all.Interfaces.value)).toBe(true);
      const [one] = (await c.call(BUS[0], BUS[1], 'org.freedesktop.DBus.Properties', 'Get', 'ss', [
        BUS[2],
        'Features',
      ])) as [Variant];
      expect(one.signature).toBe('as');
      expect(one.value).toEqual(all.Features.value);
    } finally {
      c.close();
    }
  });

  it('turns an error reply into DBusCallError naming the error, and keeps answering', async () => {
    const c = await DBusConnection.connect(address);
    try {
      const e = await c.call(...BUS, 'NoSuchMethod').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(DBusCallError);
      expect((e as DBusCallError).errorName).toBe('org.freedesktop.DBus.Error.UnknownMethod');
      expect((await c.call(...BUS, 'GetId'))[0]).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      c.close();
    }
  });

  it('answers 2000 calls in flight at once, each with its own reply', async () => {
    const c = await DBusConnection.connect(address);
    try {
      const names = Array.from({ length: 2000 }, (_, i) =>
        i % 2 ? 'org.freedesktop.DBus' : `org.example.N${i}`,
      );
      const replies = await Promise.all(names.map((n) => c.call(...BUS, 'NameHasOwner', 's', [n])));
      expect(replies.map((r) => r[0])).toEqual(names.map((n) => n === 'org.freedesktop.DBus'));
    } finally {
      c.close();
    }
  });

  it('fails calls in flight and later ones once failed or closed', async () => {
    const c = await DBusConnection.connect(address);
    const inFlight = c.call(...BUS, 'ListNames');
    c.fail(new DBusClosedError('deadline'));
    await expect(inFlight).rejects.toThrow('deadline');
    await expect(c.call(...BUS, 'GetId')).rejects.toThrow('deadline');
  });

  it('names what it cannot connect to', async () => {
    await expect(DBusConnection.connect('unix:path=/nonexistent/bus')).rejects.toThrow(/ENOENT/);
    await expect(DBusConnection.connect('launchd:env=X')).rejects.toThrow(
      /no D-Bus address this client can use/,
    );
  });
});
