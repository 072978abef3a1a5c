import { describe, expect, it } from 'vitest';
import { HumanAgent } from './human';
import { createAgent, agents } from './index';
import { contextFor, screenshotObservation, tempTask } from './testing/task-fixture';

describe('the human agent', () => {
  it('waits for the entry submitted from the UI, in order, including entries given before the step', async () => {
    const waited: number[] = [];
    const agent = createAgent('human', { onWaiting: (s) => waited.push(s) }) as HumanAgent;
    await agent.start(contextFor(tempTask('x')));
    const obs = await screenshotObservation(16, 16);
    agent.submit("pyautogui.press('tab')");
    expect((await agent.next(obs, 1, [])).actions).toEqual([{ type: 'press', keys: ['tab'] }]);
    const pending = agent.next(obs, 2, []);
    await new Promise((r) => setTimeout(r, 30));
    expect(agent.waitingFor).toBe(2);
    expect(waited).toEqual([2]);
    agent.submit('DONE');
    expect((await pending).actions).toEqual([{ type: 'DONE' }]);
    expect(agent.waitingFor).toBeUndefined();
  });

  it('returns a refusal for an entry that does not parse, and nothing to perform', async () => {
    const agent = new HumanAgent();
    await agent.start(contextFor(tempTask('x')));
    agent.submit('os.remove("/etc/passwd")');
    const turn = await agent.next(await screenshotObservation(16, 16), 1, []);
    expect(turn.actions).toEqual([]);
    expect(turn.refusal).toBeTruthy();
  });

  it('stops waiting when the run is stopped', async () => {
    const controller = new AbortController();
    const agent = new HumanAgent();
    await agent.start(contextFor(tempTask('x'), { signal: controller.signal }));
    const pending = agent.next(await screenshotObservation(16, 16), 1, []);
    setTimeout(() => controller.abort(new Error('run stopped')), 20);
    await expect(pending).rejects.toThrow('run stopped');
    expect(agent.waitingFor).toBeUndefined();
  });
});

describe('the noop agent and the registry', () => {
  it('noop says DONE at once', async () => {
    const agent = createAgent('noop');
    await agent.start(contextFor(tempTask('x')));
    expect((await agent.next(await screenshotObservation(8, 8), 1, [])).actions).toEqual([{ type: 'DONE' }]);
  });

  it('knows the six agents and names the closest for a typo', () => {
    expect(agents.names()).toEqual(['demo', 'gold', 'human', 'llm', 'noop', 'oracle']);
    expect(() => createAgent('orcale')).toThrow(/unknown agent 'orcale' \(closest known: 'oracle'\)/);
  });
});
