// The `oracle` agent: replays a task's known-good action list, so a task's setup and evaluator can be checked
// without a model.
//
// The list lives beside the task file, in `oracle.json`:
//   {"action_space": "pyautogui", "steps": ["pyautogui.hotkey('ctrl', 'l')", "pyautogui.write('hello')", "DONE"]}
// Each entry is one turn: pyautogui code (several lines allowed) or WAIT / DONE / FAIL; with
// "action_space": "computer_13" the entries are action dicts ({"action_type": "CLICK", "x": 10, "y": 20}).
// When the list ends without DONE or FAIL, the oracle says DONE after its last entry.
import fs from 'node:fs';
import path from 'node:path';
import type { Action } from '../../shared/run';
import type { Task } from '../../shared/task';
import { parseAction } from '../actions';
import type { Observation } from '../observe/observation';
import { AgentError, type Agent, type AgentContext, type AgentInfo, type AgentTurn } from './agent';
import type { ActionSpace } from '../../shared/spaces';

export const oracleFileName = 'oracle.json';

export interface OracleScript {
  file: string;
  actionSpace: ActionSpace;
  steps: (string | Record<string, unknown>)[];
}

export interface OracleOptions {
  /** Keep only the first N steps, then say DONE (for self-tests of evaluators: a cut run must score 0). */
  cut?: number;
  /** Read this file instead of `oracle.json` beside the task. */
  file?: string;
}

export function oraclePath(task: Pick<Task, 'dir'>): string {
  return path.join(task.dir, oracleFileName);
}

const tokens = new Set(['WAIT', 'DONE', 'FAIL']);

/** Reads and checks an oracle file; errors name the file and the JSON pointer. */
export function readOracle(file: string): OracleScript {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new AgentError(
        `oracle: no action list at ${file}; write one (see src/main/agents/oracle.ts) or use another agent`,
      );
    }
    throw new AgentError(`oracle: cannot read ${file} (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AgentError(`oracle: ${file} is not valid JSON (${(error as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new AgentError(`oracle: ${file} /: must be an object {action_space, steps}`);
  const o = json as Record<string, unknown>;
  const space = o.action_space ?? 'pyautogui';
  if (space !== 'pyautogui' && space !== 'computer_13') {
    throw new AgentError(
      `oracle: ${file} /action_space: must be "pyautogui" or "computer_13", not ${JSON.stringify(space)}`,
    );
  }
  if (!Array.isArray(o.steps)) throw new AgentError(`oracle: ${file} /steps: must be a list of actions`);
  o.steps.forEach((entry, i) => {
    const okString = typeof entry === 'string' && entry.trim() !== '';
    const okDict =
      space === 'computer_13' && typeof entry === 'object' && entry !== null && !Array.isArray(entry);
    if (!okString && !okDict) {
      const expected =
        space === 'computer_13'
          ? 'an action dict or WAIT / DONE / FAIL'
          : 'a non-empty string of pyautogui code or WAIT / DONE / FAIL';
      throw new AgentError(`oracle: ${file} /steps/${i}: must be ${expected}`);
    }
  });
  return { file, actionSpace: space, steps: o.steps as OracleScript['steps'] };
}

export class OracleAgent implements Agent {
  readonly name = 'oracle';
  private script?: OracleScript;
  private turn = 0;

  constructor(private readonly options: OracleOptions = {}) {
    if (options.cut !== undefined && (!Number.isInteger(options.cut) || options.cut < 0)) {
      throw new AgentError(`oracle: cut must be a whole number ≥ 0, not ${options.cut}`);
    }
  }

  info(): AgentInfo {
    return { agent: 'oracle', model: 'oracle', cut: this.options.cut, file: this.script?.file };
  }

  async start(context: AgentContext): Promise<void> {
    this.script = readOracle(this.options.file ?? oraclePath(context.task));
    this.turn = 0;
  }

  async next(observation: Observation): Promise<AgentTurn> {
    const script = this.script;
    if (!script) throw new AgentError('oracle: next() before start()');
    const index = this.turn++;
    const limit = Math.min(script.steps.length, this.options.cut ?? Infinity);
    if (index >= limit) return { response: 'DONE', rawAction: 'DONE', actions: [{ type: 'DONE' }] };
    const entry = script.steps[index];
    const text = typeof entry === 'string' ? entry.trim() : JSON.stringify(entry);
    if (tokens.has(text))
      return { response: text, rawAction: text, actions: [{ type: text as 'WAIT' | 'DONE' | 'FAIL' }] };
    const outcome = parseAction(script.actionSpace, typeof entry === 'string' ? text : entry, {
      bindings: observation.bindings ?? {},
    });
    if (!outcome.ok) {
      throw new AgentError(
        `oracle: ${script.file} /steps/${index}: ${outcome.error.message}; fix the action list`,
      );
    }
    const actions: Action[] = outcome.actions;
    return { response: text, rawAction: entry, actions };
  }
}
