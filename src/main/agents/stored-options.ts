// The part of an agent's options that may be written down (a run's plan) or travel (a queue job): the named
// plain settings only — never a key, the environment or a callback — with a server URL's user and password
// dropped, as plain JSON.
import type { AgentOptions } from './index';

export function storableAgentOptions<K extends keyof AgentOptions>(
  o: AgentOptions,
  keys: readonly K[],
): Pick<AgentOptions, K> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  if (typeof out.baseUrl === 'string') {
    try {
      const u = new URL(out.baseUrl);
      u.username = '';
      u.password = '';
      out.baseUrl = u.href;
    } catch {
      // not a URL: the agent reports it
    }
  }
  return JSON.parse(JSON.stringify(out)) as Pick<AgentOptions, K>;
}
