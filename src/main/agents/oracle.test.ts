import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentError, type AgentTurn } from './agent';
import { createAgent } from './index';
import { contextFor, screenshotObservation, tempTask } from './testing/task-fixture';

async function play(agentOptions: Record<string, unknown>, oracle: unknown, turns = 6) {
  const task = tempTask(
    'Type hello in the address bar.',
    oracle === undefined
      ? {}
      : { 'oracle.json': typeof oracle === 'string' ? oracle : JSON.stringify(oracle) },
  );
  const agent = createAgent('oracle', agentOptions);
  await agent.start(contextFor(task));
  const obs = await screenshotObservation(64, 64);
  const out: AgentTurn[] = [];
  for (let step = 1; step <= turns; step++) {
    const turn = await agent.next(obs, step, []);
    out.push(turn);
    if (turn.actions.some((a) => a.type === 'DONE' || a.type === 'FAIL')) break;
  }
  return { task, out };
}

const list = {
  action_space: 'pyautogui',
  steps: ["pyautogui.hotkey('ctrl', 'l')", "pyautogui.write('hello')", 'DONE'],
};

describe('the oracle agent', () => {
  it('replays the action list beside the task, one entry per turn', async () => {
    const { out } = await play({}, list);
    expect(out.map((t) => t.actions)).toEqual([
      [{ type: 'hotkey', keys: ['ctrl', 'l'] }],
      [{ type: 'write', text: 'hello' }],
      [{ type: 'DONE' }],
    ]);
    expect(out[1].response).toBe("pyautogui.write('hello')");
  });

  it('keeps only the first N steps with cut, then says DONE', async () => {
    const { out } = await play({ cut: 1 }, list);
    expect(out.map((t) => t.actions[0].type)).toEqual(['hotkey', 'DONE']);
  });

  it('says DONE after a list that does not end with DONE', async () => {
    const { out } = await play({}, { steps: ["pyautogui.press('enter')"] });
    expect(out.map((t) => t.actions[0].type)).toEqual(['press', 'DONE']);
  });

  it('replays computer_13 dicts', async () => {
    const { out } = await play(
      {},
      { action_space: 'computer_13', steps: [{ action_type: 'CLICK', x: 10, y: 20 }, 'DONE'] },
    );
    expect(out[0].actions[0]).toMatchObject({ type: 'click', x: 10, y: 20 });
    expect(out[0].rawAction).toEqual({ action_type: 'CLICK', x: 10, y: 20 });
  });

  it('fails with an agent error naming the missing file', async () => {
    const task = tempTask('x');
    const agent = createAgent('oracle');
    const error = await agent.start(contextFor(task)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as Error).message).toContain(path.join(task.dir, 'oracle.json'));
  });

  it('names the JSON pointer of a bad entry', async () => {
    await expect(play({}, { steps: ['DONE', 42] })).rejects.toThrow(/\/steps\/1: must be a non-empty string/);
    await expect(play({}, { action_space: 'bash', steps: [] })).rejects.toThrow(/\/action_space: must be/);
    await expect(play({}, '{"steps": [')).rejects.toThrow(/not valid JSON/);
    await expect(play({}, { steps: ['os.system("rm -rf /")'] })).rejects.toThrow(
      /oracle\.json \/steps\/0: .*fix the action list/,
    );
  });

  it('reads another file when told to', async () => {
    const task = tempTask('x', { 'alt.json': JSON.stringify({ steps: ['FAIL'] }) });
    const agent = createAgent('oracle', { oracleFile: path.join(task.dir, 'alt.json') });
    await agent.start(contextFor(task));
    expect((await agent.next(await screenshotObservation(8, 8), 1, [])).actions).toEqual([{ type: 'FAIL' }]);
    expect(fs.existsSync(path.join(task.dir, 'oracle.json'))).toBe(false);
  });
});
