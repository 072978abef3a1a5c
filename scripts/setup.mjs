#!/usr/bin/env node
// Install npm packages. Electron's own binary is downloaded from GitHub (or $ELECTRON_MIRROR) by its postinstall;
// where that is unreachable (firewalls, this CI) the install would fail with npm's stack trace. So first ask
// whether the binary can be fetched at all, and when it cannot, say so in one line and install without it: the
// engine, the CLI, `proctor serve` and the tests do not need it; only the desktop window does.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

function npmCi(env, quiet = false) {
  return spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
}

function electronVersion() {
  try {
    return JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')).packages[
      'node_modules/electron'
    ]?.version;
  } catch {
    return undefined;
  }
}

/** Whether Electron's binary for this machine answers at its download address (a HEAD request, 8 s). */
async function electronReachable() {
  const version = electronVersion();
  if (!version) return { ok: true };
  const mirror = (
    process.env.ELECTRON_MIRROR ||
    process.env.npm_config_electron_mirror ||
    'https://github.com/electron/electron/releases/download/'
  ).replace(/\/?$/, '/');
  const url = `${mirror}v${version}/electron-v${version}-${process.platform}-${process.arch}.zip`;
  try {
    const res = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(8000) });
    return { ok: res.status < 400, why: `HTTP ${res.status} from ${new URL(url).host}` };
  } catch (e) {
    return { ok: false, why: `${new URL(url).host} ${e.cause?.code ?? e.message}` };
  }
}

const skipNote =
  'the CLI, `proctor serve` and the tests work without it; the desktop window (`npm start`) needs it';

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  process.exit(npmCi({}).status ?? 1);
}
const probe = await electronReachable();
if (!probe.ok) {
  console.log(
    `setup: Electron's binary cannot be downloaded here (${probe.why}); installing without it — ${skipNote}.`,
  );
  process.exit(npmCi({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }).status ?? 1);
}
// Reachable: a normal install. Should the download still fail, install without it and say so in one line; npm's
// own output is shown only when the second attempt fails too.
const first = npmCi({}, true);
if (first.status === 0) {
  process.stdout.write(first.stdout);
  process.exit(0);
}
console.log(`setup: Electron's binary could not be installed; installing without it — ${skipNote}.`);
const second = npmCi({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
if (second.status !== 0)
  process.stderr.write(`\nsetup: the first attempt said:\n${first.stdout}${first.stderr}`);
process.exit(second.status ?? 1);
