// The `osworld` environment kind for the environments registry: `osworld://HOST[:PORT][?token=…&browser=…]`.
// Shaped like the registry's EnvironmentKind (summary, check, create) without importing it, so that wiring
// it in is one `register('osworld', osworldKind)` line; the spec is read from its text.
import { createOsworldEnvironment, type OsworldEnvironment } from './osworld-environment';
import { parseOsworldSpec } from './spec';

export const osworldKind = {
  summary:
    "osworld://HOST[:PORT][?token=T]   a machine over OSWorld's VM control protocol (an OSWorld or Spider2-V VM, or proctor env serve)",
  /** Throws OsworldSpecError naming what is wrong with the spec. */
  check(spec: { text: string }): void {
    parseOsworldSpec(spec.text);
  },
  /** Waits for the server's readiness probe, then talks to it; the machine is the operator's. */
  create(spec: { text: string }): Promise<OsworldEnvironment> {
    const s = parseOsworldSpec(spec.text);
    return createOsworldEnvironment({
      host: s.host,
      port: s.port,
      token: s.token,
      browserEndpoint: s.browserEndpoint,
    });
  },
};
