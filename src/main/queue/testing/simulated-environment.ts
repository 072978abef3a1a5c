// A test double for throughput measurements only (bench/queue.ts), never for grading tests: an environment with
// a latency model (start, per action, per screenshot, with jitter) that does nothing but wait and hand back a
// tiny fixed picture. Registered as the `simulated` environment kind by the bench process alone.
import sharp from 'sharp';
import {
  MissingCapabilityError,
  type Capability,
  type Environment,
  type Screenshot,
} from '../../env/environment';
import type { EnvironmentKind } from '../../env/registry';

export interface LatencyModel {
  startMs: number;
  actionMs: number;
  screenshotMs: number;
  /** Each wait is scaled by a factor in [1 − jitter, 1 + jitter]. */
  jitter: number;
}

export const DEFAULT_LATENCY: LatencyModel = { startMs: 100, actionMs: 40, screenshotMs: 20, jitter: 0.2 };

let picture: Promise<Buffer> | undefined;
const tinyPng = () =>
  (picture ??= sharp({ create: { width: 64, height: 40, channels: 3, background: '#336699' } })
    .png()
    .toBuffer());

export async function createSimulatedEnvironment(
  latency: LatencyModel = DEFAULT_LATENCY,
): Promise<Environment> {
  const wait = (ms: number) =>
    new Promise<void>((r) => setTimeout(r, ms * (1 + latency.jitter * (Math.random() * 2 - 1))));
  await wait(latency.startMs);
  const missing = (c: Capability): never => {
    throw new MissingCapabilityError(c, 'simulated');
  };
  const shot = async (): Promise<Screenshot> => {
    await wait(latency.screenshotMs);
    return { data: await tinyPng(), format: 'png', width: 64, height: 40, toScreen: 1 };
  };
  return {
    kind: 'simulated',
    capabilities: new Set<Capability>(['screenshot', 'input']),
    screen: async () => ({ width: 64, height: 40, scale: 1 }),
    screenshot: shot,
    accessibilityTree: async () => [],
    perform: async (actions) => {
      for (let i = 0; i < actions.length; i++) await wait(latency.actionMs);
    },
    run: async () => missing('shell'),
    putFile: async () => missing('files'),
    getFile: async () => missing('files'),
    launch: async () => missing('launch'),
    open: async () => missing('launch'),
    activateWindow: async () => missing('windows'),
    closeWindow: async () => missing('windows'),
    browserEndpoint: () => undefined,
    close: async () => undefined,
  };
}

/** `simulated` or `simulated:START,ACTION,SCREENSHOT` (ms). */
export function simulatedKind(): EnvironmentKind {
  const model = (rest: string): LatencyModel => {
    if (!rest) return DEFAULT_LATENCY;
    const n = rest.split(',').map(Number);
    if (n.length !== 3 || n.some((x) => !Number.isFinite(x) || x < 0))
      throw new Error(`simulated:${rest}: write simulated:START,ACTION,SCREENSHOT in ms`);
    return { startMs: n[0], actionMs: n[1], screenshotMs: n[2], jitter: DEFAULT_LATENCY.jitter };
  };
  return {
    summary:
      'simulated[:START,ACTION,SCREENSHOT]   a latency model only (benchmarks of throughput; never grades)',
    capabilities: { provides: ['screenshot', 'input'], runsOn: 'this-machine' },
    check: (spec) => void model(spec.rest),
    create: (spec) => createSimulatedEnvironment(model(spec.rest)),
  };
}
