// The agent stage of a task: the agent is started, then each step observes the environment, asks the agent,
// performs its actions and records the step, until DONE or FAIL, the step limit, or too many refused replies.
import type { Action, StepRecord } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Agent, AgentTurn, StepFeedback } from '../agents/agent';
import type { Environment } from '../env/environment';
import { EnvironmentError } from '../errors';
import type { Observation } from '../observe/observation';
import type { TaskWriter } from '../store/run-writer';
import { envFailure, message, sleep, Stop, until, type TaskAttempt } from './attempt';
import type { Usage } from './usage';
import type { RunnerParts } from './parts';
import { DEFAULT_MAX_REFUSALS, type ObservationPlan, type StepLimits } from './task-plan';

const terminal = (a: Action) => a.type === 'DONE' || a.type === 'FAIL';

/** How the agent's steps ended: with DONE or FAIL (`lastAction`), or not (the step limit). */
export interface StepsEnd {
  finished: boolean;
  lastAction?: string;
}

/** Starts the agent on the task (kept on the attempt, to be finished at its end). */
export async function startAgent(
  a: TaskAttempt,
  agent: Agent,
  task: Task,
  env: Environment,
  plan: Pick<ObservationPlan, 'observation' | 'actionSpace'> & Pick<StepLimits, 'maxSteps'>,
): Promise<void> {
  await a.agentCall(
    () =>
      agent.start({
        task,
        instruction: task.instruction,
        actionSpace: plan.actionSpace,
        observationType: plan.observation,
        maxSteps: plan.maxSteps,
        signal: a.signal,
        environment: env,
      }),
    `agent ${agent.name} did not start`,
  );
  a.agent = agent;
}

/** What the steps share: the environment, the agent, where steps are observed and stored, and the usage. */
export interface StepContext {
  a: TaskAttempt;
  env: Environment;
  agent: Agent;
  observe: RunnerParts['observe'];
  writer: TaskWriter;
  usage: Usage;
  plan: Pick<ObservationPlan, 'observation' | 'tokenBudget'> & StepLimits;
}

/** Takes the agent's steps until it ends or a limit is reached; a Stop thrown ends the attempt. */
export async function runAgentSteps(ctx: StepContext): Promise<StepsEnd> {
  const { a, plan } = ctx;
  const feedback: StepFeedback[] = [];
  const maxRefusals = plan.maxRefusals ?? DEFAULT_MAX_REFUSALS;
  let end: StepsEnd = { finished: false };
  let refusedInARow = 0;
  a.noteIncidents(); // during setup
  for (a.step = 1; a.step <= plan.maxSteps && !end.finished; a.step++) {
    const { turn, ended } = await takeStep(ctx, a.step, feedback);
    end = ended;
    refusedInARow = turn.refusal !== undefined ? refusedInARow + 1 : 0;
    if (maxRefusals > 0 && refusedInARow >= maxRefusals && !end.finished)
      throw new Stop(
        'agent_error',
        `the agent's replies were refused ${refusedInARow} times in a row (last: ${(turn.refusal ?? '').split('\n')[0].slice(0, 200)})`,
      );
  }
  a.step = 0; // the steps are over: later incidents (postconfig, grading) are on no step
  return end;
}

/** One step: observe, ask the agent, perform, record. */
async function takeStep(
  ctx: StepContext,
  step: number,
  feedback: StepFeedback[],
): Promise<{ turn: AgentTurn; ended: StepsEnd }> {
  const { a, env, agent, writer } = ctx;
  const t0 = performance.now();
  const observation = await a
    .inEnv(() =>
      until(ctx.observe(env, ctx.plan.observation, { tokenBudget: ctx.plan.tokenBudget }), a.signal),
    )
    .catch((e) => {
      throw envFailure(`observation at step ${step}`, e);
    });
  const t1 = performance.now();
  const saved = await writer.saveObservation(step, {
    screenshot: observation.screenshot,
    som: observation.som?.image,
    a11yTable: observation.a11yTable,
  });
  const t2 = performance.now();
  const turn: AgentTurn = await a.agentCall(
    () => agent.next(observation, step, feedback.slice()),
    `agent ${agent.name} at step ${step}`,
  );
  const t3 = performance.now();
  ctx.usage.add(turn);
  const acted = await performTurn(a, env, turn, step, ctx.plan.waitMs ?? 1000);
  if (acted.feedback) feedback.push({ step, message: acted.feedback });
  const t4 = performance.now();
  // A step the agent has taken is recorded even when the attempt stops while its after-screenshot is taken (a
  // person pressing Stop as a refused step pauses the run): the record is kept, the stop is thrown after it.
  let stoppedDuring: unknown;
  const after =
    !acted.envError && env.capabilities.has('screenshot')
      ? await a
          .inEnv(() => until(env.screenshot(), a.signal))
          .catch((e) => {
            if (a.signal.aborted) {
              stoppedDuring = e;
              return undefined;
            }
            throw envFailure(`screenshot after step ${step}`, e);
          })
      : undefined;
  const record: StepRecord = {
    ...stepRecord(step, turn, acted, observation, saved),
    ...(turn.tokens ? { tokens: turn.tokens } : {}),
    timing: { observeMs: t1 - t0, agentMs: t3 - t2, actMs: t4 - t3, storeMs: t2 - t1 },
    done: acted.ended.finished,
  };
  a.noteIncidents();
  await writer.recordStep(record, after, {
    action: turn.rawAction ?? turn.response,
    info: acted.feedback ? { feedback: acted.feedback } : {},
  });
  if (stoppedDuring !== undefined) throw stoppedDuring;
  if (acted.envError) throw acted.envError;
  return { turn, ended: acted.ended };
}

interface Acted {
  /** The actions taken (up to and with a DONE or FAIL). */
  performed: Action[];
  feedback?: string;
  /** The environment failed performing them: the attempt ends once the step is recorded. */
  envError?: Stop;
  ended: StepsEnd;
}

/** Performs a turn's actions (a refused reply performs none); an action that fails becomes the step's feedback. */
async function performTurn(
  a: TaskAttempt,
  env: Environment,
  turn: AgentTurn,
  step: number,
  waitMs: number,
): Promise<Acted> {
  if (turn.refusal !== undefined)
    return { performed: [], feedback: turn.refusal, ended: { finished: false } };
  const end = turn.actions.findIndex(terminal);
  const performed = end >= 0 ? turn.actions.slice(0, end + 1) : turn.actions;
  const toPerform = performed.filter((x) => !terminal(x) && x.type !== 'WAIT');
  let feedback: string | undefined;
  let envError: Stop | undefined;
  try {
    for (const x of performed) {
      if (x.type === 'WAIT') await sleep(waitMs, a.signal);
    }
    if (toPerform.length) await a.inEnv(() => until(env.perform(toPerform), a.signal));
  } catch (e) {
    if (e instanceof Stop) throw e;
    if (e instanceof EnvironmentError) envError = envFailure(`performing step ${step}`, e);
    feedback = `the action failed: ${message(e)}`;
  }
  const ended =
    end >= 0 && !envError ? { finished: true, lastAction: turn.actions[end].type } : { finished: false };
  return {
    performed,
    ...(feedback !== undefined ? { feedback } : {}),
    ...(envError ? { envError } : {}),
    ended,
  };
}

/** The step's record as the agent and the observation describe it (the marks shown, the screen's size). */
function stepRecord(
  step: number,
  turn: AgentTurn,
  acted: Acted,
  observation: Observation,
  saved: Awaited<ReturnType<TaskWriter['saveObservation']>>,
): Omit<StepRecord, 'tokens' | 'timing' | 'done'> {
  const shot = observation.screenshot;
  return {
    step,
    at: new Date().toISOString(),
    response: turn.response,
    rawAction: turn.rawAction,
    actions: acted.performed,
    ...(acted.feedback ? { feedback: acted.feedback } : {}),
    ...saved,
    ...(observation.som
      ? {
          marks: observation.som.marks.map((m) => ({
            id: m.id,
            x: m.x,
            y: m.y,
            w: m.width,
            h: m.height,
            label: m.label,
          })),
        }
      : {}),
    ...(shot
      ? {
          screen: {
            width: Math.round(shot.width * shot.toScreen),
            height: Math.round(shot.height * shot.toScreen),
          },
        }
      : {}),
  };
}
