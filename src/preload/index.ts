// Exposes exactly the UI⇄engine contract (src/shared/api.ts) to the renderer, nothing else.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  IpcChannel,
  type ApiEvents,
  type EventName,
  type MethodName,
  type Params,
  type ProctorClient,
  type Result,
} from '../shared/api';

const client: ProctorClient = {
  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    const reply = (await ipcRenderer.invoke(IpcChannel.call, { method, params })) as
      { ok: true; result: Result<M> } | { ok: false; error: { code: string; message: string } };
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.result;
  },
  subscribe<E extends EventName>(event: E, handler: (payload: ApiEvents[E]) => void): () => void {
    const listener = (_e: IpcRendererEvent, msg: { event: EventName; payload: unknown }) => {
      if (msg && msg.event === event) handler(msg.payload as ApiEvents[E]);
    };
    ipcRenderer.on(IpcChannel.event, listener);
    return () => ipcRenderer.off(IpcChannel.event, listener);
  },
  fileUrl(path: string): string {
    return `proctor-file://root/${path.split('/').map(encodeURIComponent).join('/')}`;
  },
};

contextBridge.exposeInMainWorld('proctor', client);
