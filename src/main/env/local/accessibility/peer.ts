// Direct connections to applications: at-spi2's bridge in each application listens on a socket of its own
// (org.a11y.atspi.Application.GetApplicationBusAddress), where calls skip the accessibility bus daemon that
// otherwise relays every call and every reply. Kept between walks; an application that ends closes its socket.
// The bridge takes only connections from its own user (EXTERNAL authentication by the peer's uid): when Proctor
// runs as root and the sandbox's applications as their own user, a short-lived helper of that uid connects and
// hands the authenticated socket over (Node's IPC passes sockets), since a socket's peer credentials are those of
// the process that connected it.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Socket } from 'node:net';
import { DBusConnection } from './dbus-wire';

const pool = new Map<string, Promise<DBusConnection | undefined>>();

/** Connects the peer socket at `path` as uid `uid`, in a helper process of that user; the authenticated socket. */
const HELPER = `
const s = require('net').connect(process.env.PROCTOR_PEER_SOCKET);
let t = '';
const bail = (c) => process.exit(c);
setTimeout(() => bail(4), 3000).unref();
s.on('error', () => bail(3));
s.on('connect', () => s.write('\\0AUTH EXTERNAL ' + Buffer.from(String(process.getuid())).toString('hex') + '\\r\\n'));
s.on('data', function auth(d) {
  t += d.toString('latin1');
  if (!t.includes('\\r\\n')) return;
  s.off('data', auth);
  if (!t.startsWith('OK ')) return bail(2);
  s.pause();
  s.write('BEGIN\\r\\n', () => process.send('socket', s, () => process.exit(0)));
});
`;

function connectAs(path: string, uid: number, gid: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', HELPER], {
      uid,
      gid,
      env: { PROCTOR_PEER_SOCKET: path, ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`the helper connecting to ${path} as uid ${uid} did not answer within ${timeoutMs} ms`),
      );
    }, timeoutMs);
    child.once('message', (_m, handle) => {
      clearTimeout(timer);
      if (handle && typeof (handle as Socket).write === 'function') resolve(handle as Socket);
      else reject(new Error(`the helper connecting to ${path} sent no socket`));
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the helper connecting to ${path} as uid ${uid} exited (${code})`));
    });
  });
}

async function connectPeer(address: string): Promise<DBusConnection | undefined> {
  const path = /^unix:path=([^,;]+)/.exec(address)?.[1];
  if (!path) return undefined;
  const st = statSync(path);
  const me = process.getuid?.();
  if (me === undefined || st.uid === me || me !== 0)
    return DBusConnection.connect(address, { hello: false, timeoutMs: 2000 });
  return DBusConnection.adopt(await connectAs(path, st.uid, st.gid, 3000));
}

/**
 * The direct connection to the application whose peer address (as this host reaches it) is `address`, or
 * undefined when there is none (the bridge refused, the socket is gone): the caller then goes through the bus.
 * One attempt per address; a connection that closes is forgotten.
 */
export function peerConnection(address: string): Promise<DBusConnection | undefined> {
  let p = pool.get(address);
  if (!p) {
    p = connectPeer(address).then(
      (c) => c?.unref(),
      () => undefined,
    );
    pool.set(address, p);
    if (pool.size > 256) pool.delete(pool.keys().next().value!);
  }
  return p.then((c) => {
    if (c?.closed) {
      pool.delete(address);
      return undefined;
    }
    return c;
  });
}
