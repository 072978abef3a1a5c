// The environments registry: kind → factory. A run names its machine with a spec (`local`, `local:1280x800`,
// `osworld://host:5000`, see spec.ts); the kind picks the factory here, and a new kind is one folder under
// env/ plus one line in kinds.ts. Nothing else in the engine builds an environment by name.
import { Registry } from '../registry';
import type { ActionSpace, ObservationType } from '../../shared/spaces';
import type { Capability, Environment } from './environment';
import type { EnvSpec } from './spec';

/** What the runner (or a command) asks of a factory besides the spec. */
export interface EnvironmentRequest {
  /** Worker slot (0-based) asking; local: each worker has its own sandbox display. */
  worker: number;
  /** Screen size when the spec gives none. */
  width: number;
  height: number;
  /** Host folder for the guest's home, fresh per task (kinds whose guest lives on this machine). */
  home?: string;
  /** Where notices for the person at the screen go. Default stderr. */
  notify?: (line: string) => void;
}

/**
 * What every environment of a kind can do, declared once with the kind: what reads it (the start form, a run's
 * checks, the CLI) asks the registry, never the kind's name. Observations and action spaces follow from `provides`.
 */
export interface KindCapabilities {
  /** What each of its environments has (Environment.capabilities): screenshot, input, accessibility, files, … */
  provides: readonly Capability[];
  /**
   * Where the guest runs: `this-machine` (a sandbox display here, isolated by namespaces when bubblewrap is there:
   * the kind's preflight decides) or `other-machine` (a VM or host reached over the network: isolated from here).
   */
  runsOn: 'this-machine' | 'other-machine';
  /** The spec may fix the screen size (`local:1280x800`): the size it fixes, undefined when it does not. */
  screenOf?(spec: EnvSpec): { width: number; height: number } | undefined;
}

/** A kind's capabilities as the start form and a run's checks read them. */
export interface KindCapabilitiesView {
  provides: Capability[];
  runsOn: KindCapabilities['runsOn'];
  observations: ObservationType[];
  actionSpaces: ActionSpace[];
}

export interface EnvironmentKind {
  /** One line for usage texts: the spec's form and what the kind drives. */
  summary: string;
  /** What its environments can do (see KindCapabilities): the start form, a run's checks and the CLI read it. */
  capabilities: KindCapabilities;
  /** Checks the kind's part of a spec before anything starts; throws EnvSpecError naming what is wrong. */
  check(spec: EnvSpec): void;
  /** A new environment for one task. */
  create(spec: EnvSpec, request: EnvironmentRequest): Promise<Environment>;
  /**
   * Checks once before a run starts whether this kind may carry it, e.g. a sandbox that is not isolated refuses
   * an agent holding a model key unless the person accepted that. Throws an Error saying what to do.
   */
  preflight?(spec: EnvSpec, run: RunPreflight): void;
}

/** What a kind's preflight learns about the run. */
export interface RunPreflight {
  /** The agent sends a model key somewhere (the llm agent); a sandbox it drives must not be able to read it. */
  agentHoldsSecrets: boolean;
  /** The person accepted sandboxes without namespace isolation (`--allow-unisolated`). */
  allowUnisolated: boolean;
  notify?: (line: string) => void;
  /** The run's observation and action space, when known: a kind whose environments cannot give or act on them refuses. */
  observation?: ObservationType;
  actionSpace?: ActionSpace;
}

export const environmentKinds = new Registry<EnvironmentKind>('environment kind');
