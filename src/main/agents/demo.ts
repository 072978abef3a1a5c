// The `demo` agent: replays the latest accepted demonstration of the task (a person's run that a lead accepted,
// src/main/annotate/demonstration.ts), entry by entry as the person gave them, found in the runs below
// `--demos DIR` (default: the current folder). Entries that did not parse when recorded did nothing then and
// are passed over; when the entries end without DONE or FAIL, the agent says DONE. A demonstration given on
// another screen size has its pointer coordinates scaled to this screen.
import { acceptedDemonstrations, demonstrationEntries, type Demonstration } from '../annotate/demonstration';
import type { Observation } from '../observe/observation';
import { AgentError, type Agent, type AgentContext, type AgentInfo, type AgentTurn } from './agent';
import { parseReply } from './parse';
import { scaleActions } from '../actions/render';
import type { Action } from '../../shared/run';

export interface DemoAgentOptions {
  /** The folder whose runs hold the demonstrations; default the current folder. */
  demos?: string;
}

export class DemoAgent implements Agent {
  readonly name = 'demo';
  private demo?: Demonstration;
  private entries: string[] = [];
  private turn = 0;

  constructor(private readonly options: DemoAgentOptions = {}) {}

  info(): AgentInfo {
    return {
      agent: 'demo',
      model: 'demo',
      ...(this.demo ? { file: `${this.demo.runId}/${this.demo.taskKey}` } : {}),
    };
  }

  async start(context: AgentContext): Promise<void> {
    const folder = this.options.demos ?? process.cwd();
    const found = acceptedDemonstrations(folder, context.task.id);
    if (!found.length)
      throw new AgentError(
        `demo: task ${context.task.id} has no accepted demonstration in the runs below ${folder}; record one with --agent human, have a lead accept it, or give --demos DIR`,
      );
    this.demo = found[0];
    try {
      this.entries = demonstrationEntries(this.demo);
    } catch (error) {
      throw new AgentError(`demo: ${(error as Error).message}`);
    }
    this.turn = 0;
  }

  async next(observation: Observation): Promise<AgentTurn> {
    const demo = this.demo;
    if (!demo) throw new AgentError('demo: next() before start()');
    while (this.turn < this.entries.length) {
      const text = this.entries[this.turn++];
      const parsed = parseReply(text, demo.actionSpace, { bindings: observation.bindings ?? {} });
      if (parsed.ok)
        return {
          response: text,
          rawAction: parsed.rawAction,
          actions: this.onThisScreen(parsed.actions, observation),
        };
    }
    return { response: 'DONE', rawAction: 'DONE', actions: [{ type: 'DONE' }] };
  }

  /** The person's actions moved from the screen they acted on to this one (same size: as given). */
  private onThisScreen(actions: Action[], observation: Observation): Action[] {
    const from = this.demo?.screen;
    const shot = observation.screenshot;
    if (!from || !shot) return actions;
    const to = {
      width: Math.round(shot.width * shot.toScreen),
      height: Math.round(shot.height * shot.toScreen),
    };
    if (to.width === from.width && to.height === from.height) return actions;
    return scaleActions(actions, { x: to.width / from.width, y: to.height / from.height });
  }
}
