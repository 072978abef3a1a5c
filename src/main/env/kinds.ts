// Every environment kind, registered: one line per kind. `createEnvironment(spec, request)` is how the runner
// and the commands get a machine; `checkEnvSpec` reads a spec from a flag or a form before a run starts.
import type { Environment } from './environment';
import { EnvironmentError } from '../errors';
import { environmentKinds, type EnvironmentRequest, type RunPreflight } from './registry';
import { EnvSpecError, parseEnvSpec, type EnvSpec } from './spec';
import { localKind } from './local/kind';
import { osworldKind } from './osworld/kind';

environmentKinds.register('local', localKind);
/** osworld machines this process has handed to a task: the next task there needs a reset machine. */
const usedMachines = new Set<string>();

environmentKinds.register('osworld', {
  ...osworldKind,
  async create(spec) {
    const env = await osworldKind.create(spec);
    if (usedMachines.has(env.url)) {
      // Tasks start from the machine's initial state: Proctor's own server resets it; a VM's operator must.
      if (env.canReset) await env.reset();
      else {
        await env.close();
        throw new EnvironmentError(
          `the osworld machine ${env.url} already ran a task and cannot reset itself (no POST /proctor/reset): restore its VM snapshot, or run one task per machine`,
        );
      }
    }
    usedMachines.add(env.url);
    return env;
  },
  check(spec) {
    try {
      osworldKind.check(spec);
    } catch (e) {
      throw new EnvSpecError((e as Error).message);
    }
  },
});

export const DEFAULT_ENV_SPEC = 'local';

/** The spec read and checked by its kind; an unknown kind names the closest known one. */
export function checkEnvSpec(text: string): EnvSpec {
  const spec = parseEnvSpec(text);
  const kind = environmentKinds.get(spec.kind);
  if (!kind)
    throw new EnvSpecError(
      `${environmentKinds.unknownMessage(spec.kind)}; known kinds: ${environmentKinds.names().join(', ')}`,
    );
  kind.check(spec);
  return spec;
}

/** A new environment of the spec's kind. */
export function createEnvironment(spec: string | EnvSpec, request: EnvironmentRequest): Promise<Environment> {
  const s = typeof spec === 'string' ? checkEnvSpec(spec) : spec;
  return environmentKinds.require(s.kind).create(s, request);
}

/** The kind's checks before a run starts (see EnvironmentKind.preflight). */
export function preflightEnvironment(spec: string | EnvSpec, run: RunPreflight): void {
  const s = typeof spec === 'string' ? checkEnvSpec(spec) : spec;
  environmentKinds.require(s.kind).preflight?.(s, run);
}

/** One line per kind, for usage texts. */
export function envKindLines(): string[] {
  return environmentKinds.names().map((n) => environmentKinds.require(n).summary);
}

export {
  environmentKinds,
  type EnvironmentKind,
  type EnvironmentRequest,
  type RunPreflight,
} from './registry';
export { EnvSpecError, parseEnvSpec, storableArgs, storableEnvSpec, type EnvSpec } from './spec';
