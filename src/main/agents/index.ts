// The agents registry: name → factory. `createAgent('llm', {model, baseUrl})` is how the runner and the CLI get
// an agent; new agents register here without touching the step loop.
import { Registry } from '../registry';
import type { Agent } from './agent';
import { resolveEndpoint } from './endpoint';
import { HumanAgent, type HumanAgentOptions } from './human';
import { LlmAgent, type LlmAgentOptions } from './llm';
import { NoopAgent } from './noop';
import { OracleAgent } from './oracle';
import { GoldAgent } from './gold';
import { DemoAgent } from './demo';

/** Every agent's options in one bag: the llm agent's own (less its resolved endpoint), where its model is, and the rest. */
export type AgentOptions = Omit<LlmAgentOptions, 'endpoint'> & {
  // llm: where the model is (flags; else env PROCTOR_*/OPENAI_*, else the config file)
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  /** Environment to read PROCTOR_API_KEY etc. from; default process.env. */
  env?: NodeJS.ProcessEnv;
  // oracle
  cut?: number;
  oracleFile?: string;
  // gold: cloud_file golds come from the downloads folder
  downloads?: string;
  // demo: the folder whose runs hold accepted demonstrations
  demos?: string;
  // human
  onWaiting?: HumanAgentOptions['onWaiting'];
};

export type AgentFactory = (options: AgentOptions) => Agent;

export const agents = new Registry<AgentFactory>('agent')
  .register('llm', (o) => {
    const resolved = resolveEndpoint({ flags: { model: o.model, baseUrl: o.baseUrl, apiKey: o.apiKey }, env: o.env, section: 'agent' });
    const { model: _model, baseUrl: _baseUrl, apiKey: _apiKey, env: _env, cut: _cut, oracleFile: _file, onWaiting: _onWaiting, downloads: _downloads, demos: _demos, ...llm } = o;
    return new LlmAgent({ ...llm, endpoint: resolved, prices: o.prices ?? resolved.prices });
  })
  .register('oracle', (o) => new OracleAgent({ cut: o.cut, file: o.oracleFile }))
  .register('noop', () => new NoopAgent())
  .register('human', (o) => new HumanAgent({ onWaiting: o.onWaiting }))
  .register('gold', (o) => new GoldAgent({ downloads: o.downloads }))
  .register('demo', (o) => new DemoAgent({ demos: o.demos }));

/** A new agent by registered name; an unknown name is an error naming the closest known one. */
export function createAgent(name: string, options: AgentOptions = {}): Agent {
  return agents.require(name)(options);
}

export { AgentError } from './agent';
export type { Agent, AgentContext, AgentInfo, AgentTurn, StepFeedback } from './agent';
export { HumanAgent } from './human';
export { LlmAgent } from './llm';
export { NoopAgent } from './noop';
export { OracleAgent, oraclePath, readOracle } from './oracle';
