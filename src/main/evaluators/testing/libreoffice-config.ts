// Test helper: LibreOffice's user config (`registrymodifications.xcu`) written by LibreOffice itself. Debian's
// `soffice` starts headless on a fresh user profile in a temp folder, listening on a named pipe; a small Python-UNO
// script (run with Debian's /usr/bin/python3, which has python3-uno) sets the values through LibreOffice's
// configuration provider (ConfigurationUpdateAccess + commitChanges, what Tools > Options does) and terminates the
// desktop, and LibreOffice writes the file as it exits. Tests skip where soffice or python3-uno is missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const PYTHON = '/usr/bin/python3';

/** Why LibreOffice cannot write a config here, or undefined when it can. */
export const libreOfficeConfigMissing: string | undefined =
  spawnSync('sh', ['-c', 'command -v soffice']).status !== 0
    ? 'soffice is not installed'
    : spawnSync(PYTHON, ['-c', 'import uno'], { stdio: 'ignore' }).status !== 0
      ? `${PYTHON} cannot import uno (Debian's python3-uno)`
      : undefined;

/** A value a config property takes: a string, an integer (xs:int) or a boolean. */
export type ConfigValue = string | number | boolean;

/** Config node path (e.g. `/org.openoffice.Office.Impress/Misc/Start`) → property name → value. */
export type ConfigChanges = Record<string, Record<string, ConfigValue>>;

/** Connects to the LibreOffice listening at argv[1] (a UNO URL), sets argv[2] (JSON: node path → property → value)
 * through the configuration provider, commits, terminates the desktop and exits without Python's shutdown. */
const SET_CONFIG = `
import json, os, sys, time
import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException
from com.sun.star.lang import DisposedException

url, changes = sys.argv[1], json.loads(sys.argv[2])
local = uno.getComponentContext()
resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
deadline = time.time() + float(sys.argv[3])
while True:
    try:
        ctx = resolver.resolve(url)
        break
    except NoConnectException:
        if time.time() > deadline:
            sys.exit("LibreOffice did not listen at " + url)
        time.sleep(0.3)
smgr = ctx.ServiceManager
provider = smgr.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider", ctx)
for node, values in changes.items():
    arg = PropertyValue()
    arg.Name, arg.Value = "nodepath", node
    access = provider.createInstanceWithArguments("com.sun.star.configuration.ConfigurationUpdateAccess", (arg,))
    for name, value in values.items():
        access.setPropertyValue(name, value)
    access.commitChanges()
desktop = smgr.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
try:
    desktop.terminate()
except DisposedException:
    pass  # the bridge closes as LibreOffice quits
sys.stdout.flush()
# Leave at once: Python's own shutdown would tear down the UNO bridge LibreOffice has just closed, and pyuno can
# die by a signal there (seen under load as "exit null"), though everything asked was done.
os._exit(0)
`;

function checkChanges(changes: ConfigChanges): void {
  for (const [node, values] of Object.entries(changes)) {
    if (!/^(\/[\w.]+)+$/.test(node))
      throw new Error(`config node path '${node}' is not a LibreOffice node path`);
    for (const [name, v] of Object.entries(values)) {
      if (!/^\w+$/.test(name)) throw new Error(`config property '${node}/${name}' is not a property name`);
      if (typeof v === 'number' && !Number.isInteger(v))
        throw new Error(`config property '${node}/${name}': ${v} is no integer`);
    }
  }
}

function exited(
  child: ChildProcess,
  what: string,
  ms: number,
): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} did not end within ${ms} ms: ${output.slice(-2000)}`)),
      ms,
    );
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${what} could not start: ${e.message}`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * Starts LibreOffice headless on a fresh profile `<dir>/<name>`, sets `changes` through its configuration API
 * (none: LibreOffice starts and quits untouched) and waits until it has quit; the path of the
 * registrymodifications.xcu it wrote. Several calls may run at once (each has its own profile and pipe).
 */
export async function libreOfficeWritesConfig(
  dir: string,
  name: string,
  changes: ConfigChanges,
  ms = 180_000,
): Promise<string> {
  checkChanges(changes);
  const profile = join(dir, name);
  mkdirSync(profile, { recursive: true });
  const pipe = `proctor-config-${process.pid}-${name.replace(/\W/g, '')}-${Date.now()}`;
  // its own process group, so a LibreOffice that hangs is ended with all it started (soffice → oosplash → soffice.bin)
  const office = spawn(
    'soffice',
    [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      '--invisible',
      '--norestore',
      '--nologo',
      `--accept=pipe,name=${pipe};urp;`,
    ],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const officeEnd = exited(office, `LibreOffice (profile ${profile})`, ms);
  officeEnd.catch(() => undefined); // awaited below, or given up when the script fails
  try {
    const script = spawn(
      PYTHON,
      [
        '-c',
        SET_CONFIG,
        `uno:pipe,name=${pipe};urp;StarOffice.ComponentContext`,
        JSON.stringify(changes),
        String(ms / 1000),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const set = await exited(script, `the Python-UNO script setting ${JSON.stringify(changes)}`, ms);
    if (set.code !== 0)
      throw new Error(
        `the Python-UNO script setting ${JSON.stringify(changes)} failed (exit ${set.code}): ${set.output.slice(-2000)}`,
      );
    const end = await officeEnd;
    if (end.code !== 0)
      throw new Error(`LibreOffice (profile ${profile}) exited with ${end.code}: ${end.output.slice(-2000)}`);
  } catch (e) {
    if (office.exitCode === null && office.pid !== undefined) {
      try {
        process.kill(-office.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    throw e;
  }
  const xcu = join(profile, 'user', 'registrymodifications.xcu');
  if (!existsSync(xcu)) throw new Error(`LibreOffice wrote no ${xcu}`);
  return xcu;
}
