// The `local` environment kind: `local` or `local:WIDTHxHEIGHT`, a sandbox display on this machine per task.
import type { EnvironmentKind } from '../registry';
import { EnvSpecError, type EnvSpec } from '../spec';
import { createLocalEnvironment } from './local-environment';
import { isolationSupport, warnIfUnisolated } from './confinement';

/** The screen size a `local:WxH` spec asks for; undefined for a bare `local`. */
export function localScreen(spec: EnvSpec): { width: number; height: number } | undefined {
  if (spec.url)
    throw new EnvSpecError(
      `'${spec.text}': the local environment takes no URL; write local or local:1280x800`,
    );
  if (spec.rest === '') return undefined;
  const m = /^(\d{3,5})x(\d{3,5})$/.exec(spec.rest);
  if (!m)
    throw new EnvSpecError(
      `'${spec.text}': the local environment takes a screen size WIDTHxHEIGHT, e.g. local:1280x800`,
    );
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < 320 || height < 200 || width > 8192 || height > 8192)
    throw new EnvSpecError(`'${spec.text}': a screen from 320x200 to 8192x8192`);
  return { width, height };
}

export const localKind: EnvironmentKind = {
  summary: 'local[:WxH]   a sandbox X display on this machine, one per task (WxH pixels when given)',
  capabilities: {
    provides: ['screenshot', 'input', 'accessibility', 'shell', 'files', 'launch', 'windows', 'browser'],
    runsOn: 'this-machine',
    screenOf: localScreen,
  },
  check(spec) {
    localScreen(spec);
  },
  preflight(_spec, run) {
    const isolation = isolationSupport();
    if (isolation.available) return;
    warnIfUnisolated(run.notify);
    if (run.agentHoldsSecrets && !run.allowUnisolated) {
      throw new Error(
        `refusing to give a model key to an agent on a sandbox that is not isolated (${isolation.reason}): apps and shells ` +
          `the agent drives could read it. Install bubblewrap, or pass --allow-unisolated to accept the risk.`,
      );
    }
  },
  create(spec, request) {
    const screen = localScreen(spec) ?? { width: request.width, height: request.height };
    return createLocalEnvironment({ ...screen, home: request.home, notify: request.notify });
  },
};
