// `--stop-on-unsafe`: an agent wrapper that runs the rule detectors on each proposed turn before it is performed.
// When a detector fires on the proposed step, nothing of it is performed (the step is recorded as refused, naming
// the detector) and the task stops at the agent's next turn; the safety verdict, with the refused step as the first
// unsafe one, is handed to `onUnsafe` to be stored.
import type { SafetyVerdict, StepRecord } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { AgentOptions } from '../agents';
import {
  AgentError,
  type Agent,
  type AgentContext,
  type AgentInfo,
  type AgentTurn,
  type StepFeedback,
} from '../agents/agent';
import { appendVerdict, taskKeyOf } from '../store';
import type { Observation } from '../observe/observation';
import type { TaskInfo } from './context';
import { checkTrajectory, DETECTORS_VERSION } from './registry';

export class SafetyGuardAgent implements Agent {
  private readonly steps: StepRecord[] = [];
  /** The verdict that stopped the task, once a detector fired. */
  stopped?: SafetyVerdict;

  constructor(
    private readonly inner: Agent,
    private readonly task: TaskInfo,
    private readonly onUnsafe?: (verdict: SafetyVerdict) => void,
    /** `stop` (default): the task stops at the next turn. `continue`: the agent goes on (the workbench pauses the run instead). */
    private readonly after: 'stop' | 'continue' = 'stop',
  ) {}

  get name(): string {
    return this.inner.name;
  }

  info(): AgentInfo {
    return this.inner.info?.() ?? { agent: this.inner.name, model: this.inner.name };
  }

  start(context: AgentContext): Promise<void> {
    return this.inner.start(context);
  }

  async next(observation: Observation, step: number, feedback: StepFeedback[]): Promise<AgentTurn> {
    if (this.stopped && this.after === 'stop') {
      const f = this.stopped.firstUnsafe!;
      throw new AgentError(`stopped by --stop-on-unsafe: step ${f.step} was unsafe (${f.by}): ${f.reason}`);
    }
    const turn = await this.inner.next(observation, step, feedback);
    const proposed: StepRecord = {
      step,
      at: new Date().toISOString(),
      actions: turn.actions,
      rawAction: turn.rawAction,
      response: turn.response,
    };
    if (turn.refusal !== undefined) return turn;
    const verdict = checkTrajectory([...this.steps, proposed], this.task, {
      source: `proctor run --stop-on-unsafe (rule detectors v${DETECTORS_VERSION})`,
    });
    const fired = verdict.findings.filter((f) => f.level === 'unsafe' && f.step === step);
    if (!fired.length) {
      this.steps.push(proposed);
      return turn;
    }
    this.stopped = { ...verdict, reason: `the proposed step ${step} was not performed` };
    this.onUnsafe?.(this.stopped);
    return {
      ...turn,
      actions: [],
      refusal: `Not performed: a safety detector fired on this step (${fired.map((f) => `${f.by}: ${f.reason}`).join('; ')}). ${this.after === 'stop' ? 'The run stops here (--stop-on-unsafe).' : 'The run is paused for a person (stop on unsafe).'}`,
    };
  }

  async finish(): Promise<void> {
    await this.inner.finish?.();
  }
}

/** What a task says that the guard needs: its instruction, declaration, setup and file. */
const infoOf = (task: Task): TaskInfo => ({
  instruction: task.instruction,
  safety: task.safety,
  setup: task.setup,
  file: task.file,
});

/**
 * `proctor run --stop-on-unsafe`: a factory of guarded agents (the registered agent `name`, one per task) and,
 * after the run, `store(runDir)` appending each stopped task's safety verdict to it.
 */
export async function stopOnUnsafe(
  name: string,
  options: AgentOptions,
): Promise<{ agent: (task: Task) => Agent; store(runDir: string): number }> {
  const { createAgent } = await import('../agents');
  const stopped = new Map<string, SafetyVerdict>();
  return {
    agent: (task) =>
      new SafetyGuardAgent(createAgent(name, options), infoOf(task), (v) => stopped.set(taskKeyOf(task), v)),
    store: (runDir) => {
      for (const [key, verdict] of stopped) appendVerdict(runDir, key, verdict);
      return stopped.size;
    },
  };
}
