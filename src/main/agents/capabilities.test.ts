// Agents declare what they hold and where they are offered, once, in the registry: isolation and the workbench's
// start form read the declaration, not agent names.
import { describe, expect, it } from 'vitest';
import { agentHoldsSecrets, agents, workbenchAgents } from './index';

describe('agent capabilities', () => {
  it('say which agents hold a secret; an unknown name is taken to hold one (fails closed)', () => {
    expect(agents.names().filter(agentHoldsSecrets)).toEqual(['llm']);
    expect(agentHoldsSecrets('my-new-agent')).toBe(true);
  });

  it('list the agents the workbench offers, with what each is, leaving out the CLI-only gold agent', () => {
    const offered = workbenchAgents();
    expect(offered.map((a) => a.name)).toEqual(['demo', 'human', 'llm', 'noop', 'oracle']);
    for (const a of offered) expect(a.about.length).toBeGreaterThan(10);
  });
});
