// A person between the agent and the machine, for runs started from the workbench: pause / resume, and the
// step-by-step mode in which each proposed action waits for approval before it is performed.
import type { Awaiting, RunEvent } from '../../shared/run';
import type { Agent, AgentContext, AgentInfo, AgentTurn, StepFeedback } from '../agents/agent';
import type { Observation } from '../observe/observation';
import { parseReply } from '../agents/parse';

/** A person's answer to a proposed action: perform it, refuse it, or perform their own code instead. */
export type Decision = 'approve' | 'reject' | { edit: string };

export class RunGate {
  private paused = false;
  private resumeWaiters: (() => void)[] = [];
  private readonly decisions = new Map<string, (d: Decision) => void>();
  readonly pending = new Map<string, Awaiting>();

  constructor(
    readonly approveEachAction: boolean,
    private readonly publish: (event: RunEvent) => void,
    readonly runId: () => string,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
    if (!paused) for (const w of this.resumeWaiters.splice(0)) w();
    this.publish({ kind: 'run.paused', runId: this.runId(), paused });
  }

  async whilePaused(signal: AbortSignal): Promise<void> {
    while (this.paused && !signal.aborted) {
      await new Promise<void>((resume) => {
        const onAbort = () => resume();
        this.resumeWaiters.push(() => {
          signal.removeEventListener('abort', onAbort);
          resume();
        });
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  /** Publishes what the task waits for and resolves with the person's decision (reject when the run stops). */
  ask(taskKey: string, awaiting: Awaiting, signal: AbortSignal): Promise<Decision> {
    this.pending.set(taskKey, awaiting);
    this.publish({ kind: 'task.awaiting', runId: this.runId(), taskKey, awaiting });
    return new Promise<Decision>((decided) => {
      let settled = false;
      const onAbort = () => done('reject');
      const done = (d: Decision) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        this.decisions.delete(taskKey);
        this.pending.delete(taskKey);
        this.publish({ kind: 'task.resumed', runId: this.runId(), taskKey, step: awaiting.step });
        decided(d);
      };
      this.decisions.set(taskKey, done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Announces a wait that another party ends (the human agent's entry). */
  announce(taskKey: string, awaiting: Awaiting): void {
    this.pending.set(taskKey, awaiting);
    this.publish({ kind: 'task.awaiting', runId: this.runId(), taskKey, awaiting });
  }

  settle(taskKey: string, step: number): void {
    if (this.pending.delete(taskKey))
      this.publish({ kind: 'task.resumed', runId: this.runId(), taskKey, step });
  }

  /** Approves, rejects or replaces what one task proposes at `step` (when given, it must be the step waiting). */
  decide(decision: Decision, taskKey: string, step?: number): boolean {
    const d = this.decisions.get(taskKey);
    if (!d || (step !== undefined && this.pending.get(taskKey)?.step !== step)) return false;
    d(decision);
    return true;
  }
}

/** Wraps an agent so that its turns pass the gate. `observationPath(step)` names the saved observation. */
export class GatedAgent implements Agent {
  private context?: AgentContext;
  constructor(
    private readonly inner: Agent,
    private readonly gate: RunGate,
    private readonly taskKey: string,
    private readonly observationPath: (step: number) => string | undefined,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  info(): AgentInfo {
    return this.inner.info?.() ?? { agent: this.inner.name, model: this.inner.name };
  }

  async start(context: AgentContext): Promise<void> {
    this.context = context;
    await this.inner.start(context);
  }

  async next(observation: Observation, step: number, feedback: StepFeedback[]): Promise<AgentTurn> {
    const signal = this.context?.signal ?? new AbortController().signal;
    await this.gate.whilePaused(signal);
    const screen = observation.screenshot
      ? {
          width: Math.round(observation.screenshot.width * observation.screenshot.toScreen),
          height: Math.round(observation.screenshot.height * observation.screenshot.toScreen),
        }
      : undefined;
    const human = this.inner.name === 'human';
    if (human)
      this.gate.announce(this.taskKey, {
        step,
        what: 'human',
        observation: this.observationPath(step),
        screen,
      });
    let turn: AgentTurn;
    try {
      turn = await this.inner.next(observation, step, feedback);
    } finally {
      if (human) this.gate.settle(this.taskKey, step);
    }
    if (!this.gate.approveEachAction || human || turn.actions.length === 0) return turn;
    const code = typeof turn.rawAction === 'string' ? turn.rawAction : undefined;
    const decision = await this.gate.ask(
      this.taskKey,
      {
        step,
        what: 'approval',
        observation: this.observationPath(step),
        response: turn.response,
        actions: turn.actions,
        screen,
        ...(code ? { code } : {}),
      },
      signal,
    );
    if (decision === 'approve') return turn;
    if (decision !== 'reject') {
      // The person's own code is performed instead, as the step's action (parsed as the run's action space).
      const space = this.context?.actionSpace ?? 'pyautogui';
      const parsed = parseReply(decision.edit, space, { bindings: observation.bindings ?? {} });
      if (parsed.ok)
        return {
          ...turn,
          rawAction: decision.edit,
          actions: parsed.actions,
          response: `${turn.response}\n\n[edited by a person before it was performed]\n${decision.edit}`,
        };
      return {
        ...turn,
        actions: [],
        refusal: `A person's edit of the proposed action could not be read (${parsed.message}); nothing was performed.`,
      };
    }
    return {
      ...turn,
      actions: [],
      refusal:
        'A person reviewing this run rejected the proposed action; nothing was performed. Propose a different action.',
    };
  }

  async finish(): Promise<void> {
    await this.inner.finish?.();
  }

  /** The wrapped agent, e.g. to hand the human agent a person's entry. */
  get wrapped(): Agent {
    return this.inner;
  }
}
