// Every environment kind, registered: one line per kind. `createEnvironment(spec, request)` is how the runner
// and the commands get a machine; `checkEnvSpec` reads a spec from a flag or a form before a run starts.
import type { Environment } from './environment';
import { EnvironmentError } from '../errors';
import {
  environmentKinds,
  type EnvironmentRequest,
  type KindCapabilitiesView,
  type RunPreflight,
} from './registry';
import type { Capability } from './environment';
import {
  ACTION_SPACES,
  OBSERVATION_TYPES,
  type ActionSpace,
  type ObservationType,
} from '../../shared/spaces';
import { EnvSpecError, parseEnvSpec, type EnvSpec } from './spec';
import { localKind } from './local/kind';
import { osworldKind } from './osworld/kind';

environmentKinds.register('local', localKind);
/** osworld machines this process has handed to a task: the next task there needs a reset machine. */
const usedMachines = new Set<string>();

environmentKinds.register('osworld', {
  ...osworldKind,
  capabilities: {
    provides: ['screenshot', 'input', 'accessibility', 'shell', 'files', 'launch', 'windows', 'browser'],
    runsOn: 'other-machine',
  },
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

/** What an environment must have to give each observation, and to perform each action space. */
const observationNeeds: Record<ObservationType, readonly Capability[]> = {
  screenshot: ['screenshot'],
  a11y_tree: ['accessibility'],
  screenshot_a11y_tree: ['screenshot', 'accessibility'],
  som: ['screenshot', 'accessibility'],
};
const actionSpaceNeeds: Record<ActionSpace, readonly Capability[]> = {
  pyautogui: ['input'],
  computer_13: ['input'],
};

/** A kind's declared capabilities with the observations and action spaces they allow. */
export function kindCapabilities(kind: string): KindCapabilitiesView {
  const c = environmentKinds.require(kind).capabilities;
  const has = (needs: readonly Capability[]) => needs.every((n) => c.provides.includes(n));
  return {
    provides: [...c.provides],
    runsOn: c.runsOn,
    observations: OBSERVATION_TYPES.filter((o) => has(observationNeeds[o])),
    actionSpaces: ACTION_SPACES.filter((a) => has(actionSpaceNeeds[a])),
  };
}

/** Every registered kind with its summary and capabilities, for the start form (`app.info`). */
export function environmentKindsInfo(): {
  kind: string;
  summary: string;
  capabilities: KindCapabilitiesView;
}[] {
  return environmentKinds.names().map((kind) => ({
    kind,
    summary: environmentKinds.require(kind).summary,
    capabilities: kindCapabilities(kind),
  }));
}

/** The screen size the spec fixes (`local:1280x800`), by its kind's declaration; undefined when it fixes none. */
export function specScreen(spec: string | EnvSpec): { width: number; height: number } | undefined {
  const s = typeof spec === 'string' ? checkEnvSpec(spec) : spec;
  return environmentKinds.require(s.kind).capabilities.screenOf?.(s);
}

/** Throws EnvSpecError when the spec's kind cannot give the observation or perform the action space. */
export function checkEnvironmentFits(
  spec: string | EnvSpec,
  run: { observation?: ObservationType; actionSpace?: ActionSpace },
): void {
  const s = typeof spec === 'string' ? checkEnvSpec(spec) : spec;
  const c = kindCapabilities(s.kind);
  const lacks = (needs: readonly Capability[]) => needs.filter((n) => !c.provides.includes(n));
  if (run.observation && !c.observations.includes(run.observation))
    throw new EnvSpecError(
      `--env ${s.text}: the ${s.kind} environment cannot give observation '${run.observation}' (it has no ` +
        `${lacks(observationNeeds[run.observation]).join(', ')}); use one of ${c.observations.join(', ') || '(none)'}`,
    );
  if (run.actionSpace && !c.actionSpaces.includes(run.actionSpace))
    throw new EnvSpecError(
      `--env ${s.text}: the ${s.kind} environment cannot perform action space '${run.actionSpace}' (it has no ` +
        `${lacks(actionSpaceNeeds[run.actionSpace]).join(', ')}); use one of ${c.actionSpaces.join(', ') || '(none)'}`,
    );
}

/** The kind's checks before a run starts: the run's observation and action space fit it, then its preflight. */
export function preflightEnvironment(spec: string | EnvSpec, run: RunPreflight): void {
  const s = typeof spec === 'string' ? checkEnvSpec(spec) : spec;
  checkEnvironmentFits(s, run);
  environmentKinds.require(s.kind).preflight?.(s, run);
}

/** One line per kind, for usage texts. */
export function envKindLines(): string[] {
  return environmentKinds.names().map((n) => environmentKinds.require(n).summary);
}

export {
  environmentKinds,
  type EnvironmentKind,
  type KindCapabilities,
  type KindCapabilitiesView,
  type EnvironmentRequest,
  type RunPreflight,
} from './registry';
export { EnvSpecError, parseEnvSpec, storableArgs, storableEnvSpec, type EnvSpec } from './spec';
