// Test fixture, run as an unprivileged user by unprivileged.test.ts: opens a sandbox session the way `proctor run`
// does, acts in it and prints what it saw as one JSON line. Everything is asked of the real session.
import { statSync } from 'node:fs';
import { createLocalEnvironment } from '../local-environment';

const env = await createLocalEnvironment({ width: 800, height: 600 });
try {
  const inside = await env.run([
    'sh',
    '-c',
    'id -u; hostname; ls /proc | grep -c "^[0-9]"; script -qc tty /dev/null; touch ~/made; ls /root 2>&1 | head -1',
  ]);
  const [uid, hostname, pids, tty] = inside.stdout
    .trim()
    .split('\n')
    .map((l) => l.trim());
  await env.launch(['xterm', '-title', 'unprivileged-term']);
  const until = Date.now() + 20_000;
  let window = '';
  while (!window && Date.now() < until) {
    window = (await env.run(['xdotool', 'search', '--name', 'unprivileged-term'])).stdout.trim();
    if (!window) await new Promise((r) => setTimeout(r, 200));
  }
  await env.perform([{ type: 'click', x: 400, y: 300 }]);
  const shot = await env.screenshot();
  // AT-SPI over the session's own bus: the app and the bus each run in their own nested user namespace
  await env.launch(['mousepad']);
  let accessible: string[] = [];
  for (const stop = Date.now() + 30_000; !accessible.includes('mousepad') && Date.now() < stop;) {
    await new Promise((r) => setTimeout(r, 300));
    accessible = (await env.accessibilityTree().catch(() => [])).map((n) => n.app ?? '');
  }
  process.stdout.write(
    JSON.stringify({
      isolation: env.isolation,
      callerUid: process.getuid?.(),
      uid: Number(uid),
      hostname,
      pids: Number(pids),
      tty,
      hostOwner: statSync(`${env.home.root}/made`).uid,
      window: window !== '',
      screenshot: [shot.width, shot.height],
      accessible,
    }) + '\n',
  );
} finally {
  await env.close();
}
