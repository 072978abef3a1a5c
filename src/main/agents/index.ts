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

/** What an agent is and holds, declared once: isolation, the workbench's agent list and validation read it. */
export interface AgentCapabilities {
  /** It holds a secret (an API key) that a task's code must not reach: the environment must isolate it. */
  holdsSecrets: boolean;
  /** It is offered in the workbench's start form (the gold agent needs a downloads folder only the CLI gives). */
  inWorkbench: boolean;
  /** One line for lists and help. */
  about: string;
}

export interface AgentKind extends AgentCapabilities {
  create: AgentFactory;
}

export const agents = new Registry<AgentKind>('agent')
  .register('llm', {
    create: (o) => {
      const resolved = resolveEndpoint({
        flags: { model: o.model, baseUrl: o.baseUrl, apiKey: o.apiKey },
        env: o.env,
        section: 'agent',
      });
      const {
        model: _model,
        baseUrl: _baseUrl,
        apiKey: _apiKey,
        env: _env,
        cut: _cut,
        oracleFile: _file,
        onWaiting: _onWaiting,
        downloads: _downloads,
        demos: _demos,
        ...llm
      } = o;
      return new LlmAgent({ ...llm, endpoint: resolved, prices: o.prices ?? resolved.prices });
    },
    holdsSecrets: true,
    inWorkbench: true,
    about: 'a model behind any OpenAI-compatible server',
  })
  .register('oracle', {
    create: (o) => new OracleAgent({ cut: o.cut, file: o.oracleFile }),
    holdsSecrets: false,
    inWorkbench: true,
    about: "the task's scripted solution (oracle.json)",
  })
  .register('noop', {
    create: () => new NoopAgent(),
    holdsSecrets: false,
    inWorkbench: true,
    about: 'does nothing (the floor every task must fail)',
  })
  .register('human', {
    create: (o) => new HumanAgent({ onWaiting: o.onWaiting }),
    holdsSecrets: false,
    inWorkbench: true,
    about: 'a person acts on the live screen',
  })
  .register('gold', {
    create: (o) => new GoldAgent({ downloads: o.downloads }),
    holdsSecrets: false,
    inWorkbench: false,
    about:
      "closes the document, puts the task's gold file in place of its result and reopens it (tasks graded against a file; the gold self-test)",
  })
  .register('demo', {
    create: (o) => new DemoAgent({ demos: o.demos }),
    holdsSecrets: false,
    inWorkbench: true,
    about: "replays a person's accepted demonstration",
  });

/** A new agent by registered name; an unknown name is an error naming the closest known one. */
export function createAgent(name: string, options: AgentOptions = {}): Agent {
  return agents.require(name).create(options);
}

/** Whether the agent named holds a secret the environment must keep from the task; an unknown name is assumed to (fails closed). */
export function agentHoldsSecrets(name: string): boolean {
  return agents.get(name)?.holdsSecrets ?? true;
}

/** The agents the workbench offers, with what each is. */
export function workbenchAgents(): { name: string; about: string; holdsSecrets: boolean }[] {
  return agents.names().flatMap((name) => {
    const k = agents.require(name);
    return k.inWorkbench ? [{ name, about: k.about, holdsSecrets: k.holdsSecrets }] : [];
  });
}

export { AgentError } from './agent';
export type { Agent, AgentContext, AgentInfo, AgentTurn, StepFeedback } from './agent';
export { HumanAgent } from './human';
export { LlmAgent } from './llm';
export { NoopAgent } from './noop';
export { OracleAgent, oraclePath, readOracle } from './oracle';
