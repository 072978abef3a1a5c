// The typed, validated messages between the engine and a display's input/capture worker.
import type { KeySpec } from './keys';

export type MouseButton = 'left' | 'right' | 'middle';
export type CaptureBackend = 'nut' | 'screenshot-desktop';
/** How the worker types characters that have no key on a US layout. */
export type UnicodeTyping = 'xdotool' | 'clipboard';

export type WorkerOp =
  | { op: 'init'; failsafe: boolean; unicode: UnicodeTyping }
  | { op: 'move'; x: number; y: number }
  | { op: 'button'; button: MouseButton; down: boolean }
  | { op: 'scroll'; dx: number; dy: number }
  | { op: 'key'; key: KeySpec; down: boolean }
  | { op: 'type'; text: string; intervalMs: number }
  | { op: 'position' }
  | { op: 'screenSize' }
  | {
      op: 'grab';
      backend: CaptureBackend;
      format: 'png' | 'jpeg';
      quality: number;
      maxWidth?: number;
      pointer?: boolean;
    }
  | { op: 'releaseAll' }
  | { op: 'abort' };

export type WorkerRequest = WorkerOp & { id: number };

export type WorkerErrorKind = 'failsafe' | 'aborted' | 'invalid' | 'failed';

export type WorkerReply =
  | { id: number; ok: true; result?: WorkerResult }
  | { id: number; ok: false; error: { kind: WorkerErrorKind; message: string } };

export type WorkerResult =
  | { kind: 'point'; x: number; y: number }
  | { kind: 'size'; width: number; height: number }
  | {
      kind: 'image';
      data: Uint8Array;
      format: 'png' | 'jpeg';
      width: number;
      height: number;
      screenWidth: number;
      screenHeight: number;
    };

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isButton = (v: unknown): v is MouseButton => v === 'left' || v === 'right' || v === 'middle';

/** Why `v` is not a valid request, or undefined when it is. */
export function requestProblem(v: unknown): string | undefined {
  if (!isObj(v)) return 'a request must be an object';
  if (!isInt(v.id)) return 'id must be an integer';
  switch (v.op) {
    case 'init':
      return typeof v.failsafe === 'boolean' && (v.unicode === 'xdotool' || v.unicode === 'clipboard')
        ? undefined
        : 'init needs failsafe and unicode';
    case 'move':
      return isInt(v.x) && isInt(v.y) ? undefined : 'move needs integer x and y';
    case 'button':
      return isButton(v.button) && typeof v.down === 'boolean' ? undefined : 'button needs button and down';
    case 'scroll':
      return isInt(v.dx) && isInt(v.dy) ? undefined : 'scroll needs integer dx and dy';
    case 'key':
      return isObj(v.key) &&
        typeof v.key.keysym === 'string' &&
        /^[A-Za-z0-9_]+$/.test(v.key.keysym) &&
        (v.key.nut === undefined || typeof v.key.nut === 'string') &&
        typeof v.down === 'boolean'
        ? undefined
        : 'key needs a key {nut?, keysym} and down';
    case 'type':
      return typeof v.text === 'string' && isNum(v.intervalMs) && v.intervalMs >= 0
        ? undefined
        : 'type needs text and intervalMs';
    case 'grab':
      return (v.backend === 'nut' || v.backend === 'screenshot-desktop') &&
        (v.format === 'png' || v.format === 'jpeg') &&
        isInt(v.quality) &&
        v.quality >= 1 &&
        v.quality <= 100 &&
        (v.maxWidth === undefined || (isInt(v.maxWidth) && v.maxWidth > 0)) &&
        (v.pointer === undefined || typeof v.pointer === 'boolean')
        ? undefined
        : 'grab needs backend, format, quality 1..100, an optional positive maxWidth and an optional boolean pointer';
    case 'position':
    case 'screenSize':
    case 'releaseAll':
    case 'abort':
      return undefined;
    default:
      return `unknown op ${JSON.stringify(v.op)}`;
  }
}

/** Why `v` is not a valid reply, or undefined when it is. */
export function replyProblem(v: unknown): string | undefined {
  if (!isObj(v) || !isInt(v.id) || typeof v.ok !== 'boolean') return 'a reply needs id and ok';
  if (v.ok === false) {
    const e = v.error;
    return isObj(e) &&
      typeof e.message === 'string' &&
      ['failsafe', 'aborted', 'invalid', 'failed'].includes(e.kind as string)
      ? undefined
      : 'an error reply needs error {kind, message}';
  }
  if (v.result === undefined) return undefined;
  const r = v.result;
  if (!isObj(r)) return 'result must be an object';
  if (r.kind === 'point') return isNum(r.x) && isNum(r.y) ? undefined : 'point needs x, y';
  if (r.kind === 'size') return isInt(r.width) && isInt(r.height) ? undefined : 'size needs width, height';
  if (r.kind === 'image')
    return r.data instanceof Uint8Array &&
      (r.format === 'png' || r.format === 'jpeg') &&
      isInt(r.width) &&
      isInt(r.height) &&
      isInt(r.screenWidth) &&
      isInt(r.screenHeight)
      ? undefined
      : 'image needs data, format and sizes';
  return `unknown result kind ${JSON.stringify(r.kind)}`;
}
