// What an attempt's agent used: tokens as its turns report them, the cost it reports itself, and the attempt's
// cost from them (tokens priced by model, environment and wall time).
import type { AttemptCost } from '../../shared/run';
import type { Agent, AgentTurn } from '../agents/agent';
import { attemptUsd } from './pricing';
import type { CostPlan } from './task-plan';

export class Usage {
  tokens = 0;
  private tokensIn = 0;
  private tokensOut = 0;
  /** Some turn reported its tokens. */
  private counted = false;
  private agentUsd: number | undefined;

  add(turn: AgentTurn): void {
    this.tokens += (turn.tokens?.prompt ?? 0) + (turn.tokens?.completion ?? 0);
    if (turn.tokens) {
      this.counted = true;
      this.tokensIn += turn.tokens.prompt ?? 0;
      this.tokensOut += turn.tokens.completion ?? 0;
    }
    if (typeof turn.costUsd === 'number' && Number.isFinite(turn.costUsd))
      this.agentUsd = (this.agentUsd ?? 0) + turn.costUsd;
  }

  /** Tokens and model cost (agents without a model, which report no tokens, cost nothing), environment and wall time. */
  cost(agent: Agent, plan: CostPlan, time: { envMs: number; wallMs: number }): AttemptCost {
    const info = agent.info?.();
    const model = plan.model ?? (info && info.model !== info.agent ? info.model : undefined);
    const modelless = !this.counted && this.agentUsd === undefined && model === undefined;
    const out: AttemptCost = { envMs: Math.round(time.envMs), wallMs: time.wallMs };
    if (this.counted || modelless) {
      out.tokensIn = this.tokensIn;
      out.tokensOut = this.tokensOut;
    }
    const usd = modelless
      ? 0
      : this.counted
        ? attemptUsd(model, { prompt: this.tokensIn, completion: this.tokensOut }, this.agentUsd, plan.prices)
        : this.agentUsd;
    if (usd !== undefined) out.usd = usd;
    return out;
  }
}
