// The renderer's one door to the engine besides kept answers (use-call): changes the engine makes (a label, a
// control, a run started) with the kept answers they make old asked again, the address of a served file, and the
// live run events. Components, views and panels reach the transport only through this folder.
import type { MethodName, Params, Result } from '../../../shared/api';
import type { RunEvent } from '../../../shared/run';
import { client, readOnlySite } from '../transport';
import { refetch } from './store';

/**
 * What each change makes old (a change that answers with the new state puts it in the store itself, with putAnswer): the kept answers (by method) a view showing them asks for again once it is done.
 * A change not named here changes nothing the store keeps.
 */
export const changes: Partial<Record<MethodName, readonly MethodName[]>> = {
  'labels.add': [
    'runs.task',
    'runs.get',
    'runs.list',
    'labels.queue',
    'labels.conflicts',
    'labels.agreement',
  ],
  'labels.settle': ['runs.task', 'runs.get', 'labels.queue', 'labels.conflicts', 'labels.agreement'],
  'labels.assign': ['labels.queue', 'labels.conflicts', 'labels.agreement'],
  'runs.start': ['runs.list'],
  'runs.control': ['runs.pending', 'runs.get'],
  'runs.act': ['runs.pending'],
};

/** Asks the engine to change something; once it answers, the kept answers the change makes old are asked again. */
export async function perform<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
  const result = await client.call(method, params);
  const old = changes[method];
  if (old?.length) refetch(...old);
  return result;
}

/** The address of a file below the served root (a screenshot, a recording, a made video). */
export function fileUrl(path: string): string {
  return client.fileUrl(path);
}

/** Calls `handler` with each live run event until the returned function is called. */
export function onRunEvent(handler: (e: RunEvent) => void): () => void {
  return client.subscribe('run', handler);
}

/** Whether this page is a read-only export (no engine behind it): the UI hides what would change anything. */
export { readOnlySite };
