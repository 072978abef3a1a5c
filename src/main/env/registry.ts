// The environments registry: kind → factory. A run names its machine with a spec (`local`, `local:1280x800`,
// `osworld://host:5000`, see spec.ts); the kind picks the factory here, and a new kind is one folder under
// env/ plus one line in kinds.ts. Nothing else in the engine builds an environment by name.
import { Registry } from '../registry';
import type { Environment } from './environment';
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

export interface EnvironmentKind {
  /** One line for usage texts: the spec's form and what the kind drives. */
  summary: string;
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
}

export const environmentKinds = new Registry<EnvironmentKind>('environment kind');
