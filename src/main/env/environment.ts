// The Environment interface: everything the engine does to a machine passes through it. Each kind (local:
// a sandbox display, env/local; remote ones over OSWorld's VM control protocol) implements it and registers
// a factory in the environments registry (registry.ts, kinds.ts). Setup funcs, getters and observation use
// only these methods and capabilities; lint keeps them out of env/local.
import type { Action } from '../../shared/run';

export type Capability =
  'screenshot' | 'input' | 'accessibility' | 'shell' | 'files' | 'launch' | 'windows' | 'browser';

export interface ScreenInfo {
  /** Screen size in physical pixels; action coordinates refer to these. */
  width: number;
  height: number;
  /** Device scale factor (physical / logical pixels). */
  scale: number;
}

export interface Screenshot {
  data: Buffer;
  format: 'png' | 'jpeg';
  width: number;
  height: number;
  /** Factor from image pixels back to screen pixels (1 unless resized). */
  toScreen: number;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
}

/** An accessibility node in screen coordinates, from CDP (Chromium) or AT-SPI (native apps). */
export interface AccessibilityNode {
  role: string;
  name: string;
  text?: string;
  className?: string;
  description?: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** State names such as `showing`, `visible`, `enabled`, `editable`, `focusable`. */
  states: string[];
  /** Which source the node came from, e.g. `cdp` or `atspi`, and the app. */
  source?: string;
  app?: string;
  children?: AccessibilityNode[];
}

export interface RunOptions {
  timeoutMs?: number;
  cwd?: string;
  /** Run through `sh -c` (string commands); default true for strings, false for argv arrays. */
  shell?: boolean;
  env?: Record<string, string>;
}

export interface Environment {
  readonly kind: string;
  readonly capabilities: ReadonlySet<Capability>;
  screen(): Promise<ScreenInfo>;
  /**
   * The screen as an image. `pointer`: with the mouse pointer drawn in (as OSWorld's /screenshot shows it);
   * kinds whose screenshots already show it ignore it.
   */
  screenshot(options?: {
    format?: 'png' | 'jpeg';
    quality?: number;
    maxWidth?: number;
    pointer?: boolean;
  }): Promise<Screenshot>;
  accessibilityTree(): Promise<AccessibilityNode[]>;
  /** Performs the actions in order; throws a typed error (see errors.ts) when it cannot. */
  perform(actions: Action[]): Promise<void>;
  run(command: string | string[], options?: RunOptions): Promise<CommandResult>;
  /** Writes a file at a guest path (e.g. `/home/user/Desktop/x.csv`). */
  putFile(guestPath: string, data: Buffer): Promise<void>;
  /** Reads a file at a guest path; `undefined` when it does not exist. */
  getFile(guestPath: string): Promise<Buffer | undefined>;
  /** Starts a program and does not wait for it. */
  launch(command: string[], options?: { cwd?: string }): Promise<void>;
  /** Opens a file or URL with its default program. */
  open(target: string): Promise<void>;
  /** `byClass`: match the window class (WM_CLASS) instead of the title. */
  activateWindow(title: string, options?: { strict?: boolean; byClass?: boolean }): Promise<void>;
  closeWindow(title: string, options?: { strict?: boolean; byClass?: boolean }): Promise<void>;
  /**
   * Titles of the visible top-level windows (any order), for setup's checks: an `open` step's window appeared,
   * a strict `activate_window`'s exact title exists. Kinds that cannot list windows leave it out; setup then
   * records that the check could not be made.
   */
  windowTitles?(): Promise<string[]>;
  /**
   * The Chrome DevTools endpoint of the browser the environment started, if any, as this host reaches it
   * (local: http://127.0.0.1:PORT; a remote kind: the guest's port as it forwards it).
   */
  browserEndpoint(): string | undefined;
  setBrowserEndpoint?(endpoint: string): void;
  /**
   * Starts the environment's browser with a DevTools endpoint, showing `urls` (the first in front, the others
   * as tabs), records the endpoint (browserEndpoint()) and returns it. Kinds without capability `browser`
   * leave it out; callers then throw MissingCapabilityError('browser').
   */
  launchBrowser?(urls: string[], options?: { signal?: AbortSignal }): Promise<string>;
  /**
   * For environments whose guest paths live elsewhere on the host (the local sandbox home): rewrites guest
   * `/home/user` and `/tmp` paths inside script or command text to where they really are. Absent = identity.
   */
  rewriteGuestPaths?(text: string): string;
  /**
   * What the environment went through on its own since the last call (e.g. its display worker crashed and was
   * restarted), oldest first; the step loop records each as a `task.incident` event. Absent = nothing to report.
   */
  incidents?(): EnvironmentIncident[];
  close(): Promise<void>;
}

export interface EnvironmentIncident {
  at: string;
  /** A short name, e.g. `worker.restarted`. */
  incident: string;
  message: string;
}

/** Thrown when a task needs a capability the environment lacks. */
export class MissingCapabilityError extends Error {
  constructor(
    readonly capability: Capability,
    readonly environment: string,
  ) {
    super(`the ${environment} environment cannot '${capability}'`);
  }
}
