// A headless environment: shell and files over a sandbox home, no display. For getters, setup funcs that need
// no screen, and CLI-interface tasks.
import { removeTree } from '../remove-tree';
import { MissingCapabilityError, type Capability, type Environment } from '../environment';
import { launchChromium } from './browser';
import { SandboxHome } from './sandbox-home';
import { SandboxShell } from './sandbox-shell';

export interface ShellEnvironment extends Environment {
  readonly kind: 'shell';
  /** The sandbox home the guest's `/home/user` maps to. */
  readonly home: SandboxHome;
}

export interface ShellEnvironmentOptions {
  /** Host folder to use as the guest's home; default: a fresh temp folder, removed on close(). */
  home?: string;
  /** Keep a fresh home folder after close(). Default false. */
  keepHome?: boolean;
}

export async function createShellEnvironment(opts: ShellEnvironmentOptions = {}): Promise<ShellEnvironment> {
  const home = opts.home ? SandboxHome.at(opts.home) : SandboxHome.create();
  const owned = !opts.home && !opts.keepHome;
  const shell = new SandboxShell(home);
  let endpoint: string | undefined;
  const missing = (c: Capability): never => {
    throw new MissingCapabilityError(c, 'shell');
  };
  const env: ShellEnvironment = {
    kind: 'shell',
    home,
    capabilities: new Set<Capability>(['shell', 'files', 'launch', 'browser']),
    screen: async () => missing('screenshot'),
    screenshot: async () => missing('screenshot'),
    accessibilityTree: async () => [],
    perform: async (actions) => (actions.length ? missing('input') : undefined),
    run: (command, options) => shell.run(command, options),
    putFile: (p, data) => shell.putFile(p, data),
    getFile: (p) => shell.getFile(p),
    launch: (command, options) => shell.launch(command, options),
    open: async () => missing('windows'),
    activateWindow: async () => missing('windows'),
    closeWindow: async () => missing('windows'),
    rewriteGuestPaths: (text) => home.rewriteCommand(text),
    browserEndpoint: () => endpoint,
    setBrowserEndpoint: (e) => {
      endpoint = e;
    },
    // A headless Chromium: no display to show it on.
    launchBrowser: (urls, o) => launchChromium(env, urls, { headless: true, signal: o?.signal }),
    close: async () => {
      await shell.stopLaunched();
      if (owned) await removeTree(home.root);
    },
  };
  return env;
}
