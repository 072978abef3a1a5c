// One live-event source: the store's bus carries a run's events — its steps and a workbench run's pauses and
// approvals alike — to every reader (the UI's hub, a per-run subscriber as the CLI and the queue relay are), once.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiEvents, EventName } from '../../shared/api';
import type { RunEvent } from '../../shared/run';
import { missingDemoPrograms } from '../demo/testing-env';
import { publish, subscribeRunEvents } from '../store';
import { EventHub } from './events';
import { createWorkbench } from './workbench';

const paused = (runId: string, p = true): RunEvent => ({ kind: 'run.paused', runId, paused: p });

describe('the live bus', () => {
  it("gives a per-run subscriber only its run's events, until it unsubscribes", () => {
    const mine: RunEvent[] = [];
    const all: RunEvent[] = [];
    const stopMine = subscribeRunEvents((e) => mine.push(e), { runId: 'run-a' });
    const stopAll = subscribeRunEvents((e) => all.push(e));
    publish(paused('run-a'));
    publish(paused('run-b'));
    stopMine();
    publish(paused('run-a', false));
    stopAll();
    publish(paused('run-a'));
    expect(mine).toEqual([paused('run-a')]);
    expect(all).toEqual([paused('run-a'), paused('run-b'), paused('run-a', false)]);
  });

  it('keeps delivering to the others when a subscriber throws', () => {
    const seen: RunEvent[] = [];
    const stopBad = subscribeRunEvents(() => {
      throw new Error('a UI gone away');
    });
    const stopGood = subscribeRunEvents((e) => seen.push(e));
    try {
      expect(() => publish(paused('run-c'))).not.toThrow();
      expect(seen).toEqual([paused('run-c')]);
    } finally {
      stopBad();
      stopGood();
    }
  });

  it("reaches the workbench hub's subscribers as `run` events, once each, until forwarding stops", () => {
    const hub = new EventHub();
    const got: [EventName, unknown][] = [];
    const unsubscribe = hub.subscribeAll(<E extends EventName>(event: E, payload: ApiEvents[E]) =>
      got.push([event, payload]),
    );
    const stop = hub.forwardRunEvents();
    publish(paused('run-d'));
    stop();
    publish(paused('run-d', false));
    unsubscribe();
    expect(got).toEqual([['run', paused('run-d')]]);
  });
});

const missing = missingDemoPrograms().filter((p) =>
  ['Xvfb', 'openbox', 'xdotool', 'xterm', 'sqlite3', 'dbus-daemon'].includes(p),
);
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';
const root = mkdtempSync(join(tmpdir(), 'proctor-live-events-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!!why)(`a workbench run's approvals and pauses${why}`, () => {
  it('go on the live bus: the hub and a per-run subscriber each see them once', async () => {
    cpSync(resolve(__dirname, '../../../resources/demo/terminal'), join(root, 'tasks'), { recursive: true });
    const wb = createWorkbench(root, { transport: 'ipc' });
    const onHub: RunEvent[] = [];
    const onBus: RunEvent[] = [];
    const gateKinds = new Set(['task.awaiting', 'task.resumed', 'run.paused']);
    const unsubscribeHub = wb.events.subscribeAll((event, payload) => {
      if (event === 'run' && gateKinds.has((payload as RunEvent).kind)) onHub.push(payload as RunEvent);
    });
    let stopBus: (() => void) | undefined;
    try {
      const { runId } = await wb.handlers['runs.start']({
        tasks: ['tasks'],
        agent: 'oracle',
        approveEachAction: true,
        env: 'local:1280x800',
      });
      const ownId = runId.split('/').pop()!;
      stopBus = subscribeRunEvents((e) => gateKinds.has(e.kind) && onBus.push(e), { runId: ownId });
      const end = Date.now() + 120_000;
      while (!onBus.some((e) => e.kind === 'task.awaiting')) {
        if (Date.now() > end) throw new Error('no action waited for approval within 120 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      await wb.handlers['runs.control']({ runId, action: 'pause' });
      await wb.handlers['runs.control']({ runId, action: 'stop' });
      const awaiting = onBus.filter((e) => e.kind === 'task.awaiting');
      expect(awaiting).toHaveLength(1);
      expect(onBus).toContainEqual({ kind: 'run.paused', runId: ownId, paused: true });
      // the hub saw exactly what the bus carried for this run (no second path into the hub)
      expect(onHub.filter((e) => e.runId === ownId)).toEqual(onBus);
    } finally {
      stopBus?.();
      unsubscribeHub();
      await wb.close();
    }
  }, 180_000);
});
