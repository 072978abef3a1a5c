// The input and capture worker of one X display. Runs as a child process (fork with tsx) whose DISPLAY is set;
// nut.js is imported only here, because it binds to one display per process and segfaults without one.
// Requests are validated (worker-protocol.ts); one runs at a time, except `abort`, which is answered at once
// and stops a running `type` between two keystrokes.
import { execFile, spawn } from 'node:child_process';
import Module from 'node:module';
import {
  requestProblem,
  type MouseButton,
  type UnicodeTyping,
  type WorkerOp,
  type WorkerReply,
  type WorkerRequest,
  type WorkerResult,
} from './worker-protocol';
import { charStroke, type KeySpec } from './keys';
import { paintPointer } from './pointer-arrow';
import { sleep } from '../../sleep';

if (!process.send) {
  process.stderr.write('the display worker must be started with child_process.fork\n');
  process.exit(2);
}
if (!process.env.DISPLAY) {
  process.stderr.write('the display worker needs DISPLAY\n');
  process.exit(2);
}

/**
 * nut.js loads jimp (image files, about 70 % of its import time) for features this worker never calls: grabs are
 * raw pixels, encoded with sharp. Its modules reach jimp only through TypeScript's `__importDefault(require('jimp'))`
 * and `.default`, so they get a stand-in that loads the real jimp on the first use of `.default`.
 */
function deferJimp(): void {
  const M = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const load = M._load;
  let real: { __esModule?: boolean; default?: unknown } | undefined;
  M._load = function (request, parent, isMain) {
    if (request !== 'jimp') return load.call(this, request, parent, isMain);
    return {
      __esModule: true,
      get default() {
        real ??= load.call(M, request, parent, isMain) as typeof real;
        return real?.__esModule ? real.default : real;
      },
    };
  };
}

// screenshot-desktop leaves an unhandled rejection when xrandr fails; never let that end the worker.
process.on('unhandledRejection', (e) => process.stderr.write(`worker: unhandled rejection: ${String(e)}\n`));

deferJimp();
const nut = await import('@nut-tree-fork/nut-js');
const { mouse, keyboard, screen, Button, Key } = nut;
mouse.config.autoDelayMs = 0;
mouse.config.mouseSpeed = 1e9;
keyboard.config.autoDelayMs = 0;
const sharp = (await import('sharp')).default;

class WorkerFailure extends Error {
  constructor(
    readonly kind: 'failsafe' | 'aborted' | 'invalid' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

let failsafe = false;
let unicode: UnicodeTyping = 'xdotool';
let aborted = false;
const held = new Set<string>(); // nut Key names / keysyms currently held, released on abort
const heldButtons = new Set<MouseButton>();

const BUTTONS: Record<MouseButton, number> = {
  left: Button.LEFT,
  right: Button.RIGHT,
  middle: Button.MIDDLE,
};

function run(cmd: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      { timeout: 10_000, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err) reject(new WorkerFailure('failed', `${cmd} failed: ${stderr.trim() || err.message}`));
        else resolve(stdout);
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function checkFailsafe(): Promise<void> {
  if (!failsafe) return;
  const p = await mouse.getPosition();
  const w = await screen.width();
  const h = await screen.height();
  const corner = (p.x <= 0 || p.x >= w - 1) && (p.y <= 0 || p.y >= h - 1);
  if (corner) {
    throw new WorkerFailure(
      'failsafe',
      `the pointer is in a screen corner (${p.x}, ${p.y}): fail-safe triggered, input stopped. Move it away from the corner to go on.`,
    );
  }
}

function nutKey(name: string): number {
  const k = (Key as unknown as Record<string, number>)[name];
  if (k === undefined) throw new WorkerFailure('invalid', `nut.js has no key '${name}'`);
  return k;
}

async function key(spec: KeySpec, down: boolean): Promise<void> {
  const id = spec.nut ?? `sym:${spec.keysym}`;
  if (spec.nut) {
    if (down) await keyboard.pressKey(nutKey(spec.nut));
    else await keyboard.releaseKey(nutKey(spec.nut));
  } else {
    await run('xdotool', [down ? 'keydown' : 'keyup', '--', spec.keysym]);
  }
  if (down) held.add(id);
  else held.delete(id);
}

async function releaseAll(): Promise<void> {
  for (const id of [...held]) {
    if (id.startsWith('sym:')) await run('xdotool', ['keyup', '--', id.slice(4)]).catch(() => undefined);
    else await keyboard.releaseKey(nutKey(id)).catch(() => undefined);
  }
  held.clear();
  for (const b of [...heldButtons]) await mouse.releaseButton(BUTTONS[b]).catch(() => undefined);
  heldButtons.clear();
}

const XDOTOOL_DELAY_MS = Number(process.env.PROCTOR_XDOTOOL_DELAY_MS ?? 12);

async function typeUnicode(text: string): Promise<void> {
  if (unicode === 'clipboard') {
    // Both selections hold the text; Shift+Insert pastes CLIPBOARD in GTK and Chromium and PRIMARY in xterm.
    // xclip keeps serving a selection in the background until something else takes it.
    for (const selection of ['clipboard', 'primary']) {
      await new Promise<void>((resolve, reject) => {
        const c = spawn('xclip', ['-selection', selection, '-i'], { stdio: ['pipe', 'ignore', 'ignore'] });
        c.once('error', (e) => reject(new WorkerFailure('failed', `xclip: ${e.message}`)));
        c.once('exit', () => resolve());
        c.stdin.end(text);
      });
    }
    await keyboard.pressKey(Key.LeftShift);
    await keyboard.pressKey(Key.Insert);
    await keyboard.releaseKey(Key.Insert);
    await keyboard.releaseKey(Key.LeftShift);
    await sleep(30);
    return;
  }
  // Bind the characters to spare keycodes (both case levels) and leave them bound while they are typed, then
  // press them by keysym with xdotool (which adds Shift for the upper level). Unlike `xdotool type`, which
  // rebinds and reverts a keycode around every keystroke, the mapping does not change under a toolkit that
  // reads it late, so nothing is lost or typed in the wrong case.
  const chars = [...text];
  const slots = await spareKeycodes();
  for (let start = 0; start < chars.length;) {
    const chunk: string[] = [];
    const distinct = new Set<string>();
    while (start < chars.length) {
      const base = caseBase(chars[start]);
      if (!distinct.has(base) && distinct.size >= slots.length) break;
      distinct.add(base);
      chunk.push(chars[start++]);
    }
    await bindChars([...distinct], slots);
    await run('xdotool', ['key', '--delay', String(XDOTOOL_DELAY_MS), ...chunk.map(keysymName)]);
  }
}

let spare: number[] | undefined;
const boundTo = new Map<string, number>(); // base character → keycode, oldest first

async function spareKeycodes(): Promise<number[]> {
  if (spare) return spare;
  const map = await run('xmodmap', ['-pke']);
  spare = map
    .split('\n')
    .map((l) => /^keycode\s+(\d+)\s*=\s*$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => Number(m[1]))
    .filter((k) => k > 8);
  if (spare.length === 0)
    throw new WorkerFailure('failed', 'no spare keycode on this display to type non-ASCII characters with');
  return spare;
}

/** The lower-case form of a cased letter (the key's first level), else the character itself. */
function caseBase(ch: string): string {
  const lower = ch.toLowerCase();
  return lower !== ch && [...lower].length === 1 && lower.toUpperCase() === ch ? lower : ch;
}

function keysymName(ch: string): string {
  return 'U' + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
}

async function bindChars(bases: string[], slots: number[]): Promise<void> {
  const exprs: string[] = [];
  const wanted = new Set(bases);
  for (const base of bases) {
    if (boundTo.has(base)) {
      const k = boundTo.get(base)!;
      boundTo.delete(base);
      boundTo.set(base, k); // most recently used
      continue;
    }
    const used = new Set(boundTo.values());
    let keycode = slots.find((k) => !used.has(k));
    if (keycode === undefined) {
      const victim = [...boundTo.keys()].find((b) => !wanted.has(b))!;
      keycode = boundTo.get(victim)!;
      boundTo.delete(victim);
    }
    boundTo.set(base, keycode);
    const upper = base.toUpperCase();
    const second = upper !== base && [...upper].length === 1 ? upper : base;
    exprs.push('-e', `keycode ${keycode} = ${keysymName(base)} ${keysymName(second)}`);
  }
  if (exprs.length) await run('xmodmap', exprs);
}

/** Printable ASCII by explicit keystrokes (Shift chords for shifted symbols); other characters in runs. */
async function type(text: string, intervalMs: number): Promise<void> {
  const chars = [...text];
  let i = 0;
  while (i < chars.length) {
    if (aborted) throw new WorkerFailure('aborted', 'typing stopped by the kill switch');
    const stroke = charStroke(chars[i]);
    if (!stroke) {
      let j = i;
      while (j < chars.length && !charStroke(chars[j]) && (intervalMs === 0 || j === i)) j++;
      await typeUnicode(chars.slice(i, j).join(''));
      i = j;
    } else {
      const k = nutKey(stroke.nut);
      // One key per call: nut.js treats all but the last key of a call as modifiers, and a letter given as a
      // "modifier" to releaseKey is never released (it then auto-repeats).
      if (stroke.shift) {
        await keyboard.pressKey(Key.LeftShift);
        await keyboard.pressKey(k);
        await keyboard.releaseKey(k);
        await keyboard.releaseKey(Key.LeftShift);
      } else {
        await keyboard.pressKey(k);
        await keyboard.releaseKey(k);
      }
      i++;
    }
    if (intervalMs > 0 && i < chars.length) await sleep(intervalMs);
  }
}

/** nut.js grabs BGRA (X's byte order); sharp wants RGBA. One 32-bit pass, ~3 ms at 1920×1080. */
function bgraToRgba(img: {
  data: Buffer;
  width: number;
  height: number;
  byteWidth: number;
  channels: number;
}): Buffer {
  const out = Buffer.allocUnsafe(img.width * img.height * 4);
  const dst = new Uint32Array(out.buffer, out.byteOffset, out.length / 4);
  if (img.channels === 4 && img.byteWidth === img.width * 4 && img.data.byteOffset % 4 === 0) {
    const src = new Uint32Array(img.data.buffer, img.data.byteOffset, dst.length);
    for (let i = 0; i < dst.length; i++) {
      const p = src[i];
      dst[i] = (p & 0x0000ff00) | ((p >>> 16) & 0xff) | ((p & 0xff) << 16) | 0xff000000;
    }
    return out;
  }
  const src = img.data;
  let o = 0;
  for (let y = 0; y < img.height; y++) {
    let s = y * img.byteWidth;
    for (let x = 0; x < img.width; x++, s += img.channels) {
      out[o++] = src[s + 2];
      out[o++] = src[s + 1];
      out[o++] = src[s];
      out[o++] = 255;
    }
  }
  return out;
}

async function grab(op: Extract<WorkerOp, { op: 'grab' }>): Promise<WorkerResult> {
  let pipeline: import('sharp').Sharp;
  let screenWidth: number;
  let screenHeight: number;
  if (op.backend === 'nut') {
    const [img, at] = await Promise.all([screen.grab(), op.pointer ? mouse.getPosition() : undefined]);
    screenWidth = img.width;
    screenHeight = img.height;
    const rgba = bgraToRgba(img);
    if (at) paintPointer(rgba, img.width, img.height, at.x, at.y);
    pipeline = sharp(rgba, { raw: { width: img.width, height: img.height, channels: 4 } }).removeAlpha();
  } else {
    for (const tool of ['xrandr', 'import']) {
      await run('sh', ['-c', `command -v ${tool}`]).catch(() => {
        throw new WorkerFailure(
          'failed',
          `screenshot-desktop needs '${tool}' (${tool === 'import' ? 'ImageMagick' : 'x11-xserver-utils'}); install it or use the nut backend`,
        );
      });
    }
    // @ts-expect-error screenshot-desktop ships no types
    const mod = (await import('screenshot-desktop')) as {
      default: (o: { format: string }) => Promise<Buffer>;
    };
    const shot = mod.default;
    const png = await Promise.race([
      shot({ format: 'png' }),
      sleep(20_000).then(() => {
        throw new WorkerFailure('failed', 'screenshot-desktop did not answer within 20 s');
      }),
    ]);
    pipeline = sharp(png);
    const meta = await pipeline.metadata();
    screenWidth = meta.width!;
    screenHeight = meta.height!;
  }
  let width = screenWidth;
  let height = screenHeight;
  if (op.maxWidth && op.maxWidth < screenWidth) {
    width = op.maxWidth;
    height = Math.round((screenHeight * op.maxWidth) / screenWidth);
    pipeline = pipeline.resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
  }
  const data =
    op.format === 'png'
      ? await pipeline.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer()
      : await pipeline.jpeg({ quality: op.quality }).toBuffer();
  return {
    kind: 'image',
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    format: op.format,
    width,
    height,
    screenWidth,
    screenHeight,
  };
}

async function handle(op: WorkerOp): Promise<WorkerResult | undefined> {
  switch (op.op) {
    case 'init':
      failsafe = op.failsafe;
      unicode = op.unicode;
      return undefined;
    case 'move':
      await checkFailsafe();
      await mouse.setPosition({ x: op.x, y: op.y });
      return undefined;
    case 'button':
      await checkFailsafe();
      if (op.down) {
        await mouse.pressButton(BUTTONS[op.button]);
        heldButtons.add(op.button);
      } else {
        await mouse.releaseButton(BUTTONS[op.button]);
        heldButtons.delete(op.button);
      }
      return undefined;
    case 'scroll':
      await checkFailsafe();
      // pyautogui: positive = up / right.
      if (op.dy > 0) await mouse.scrollUp(op.dy);
      if (op.dy < 0) await mouse.scrollDown(-op.dy);
      if (op.dx > 0) await mouse.scrollRight(op.dx);
      if (op.dx < 0) await mouse.scrollLeft(-op.dx);
      return undefined;
    case 'key':
      await checkFailsafe();
      await key(op.key, op.down);
      return undefined;
    case 'type':
      await checkFailsafe();
      await type(op.text, op.intervalMs);
      return undefined;
    case 'position': {
      const p = await mouse.getPosition();
      return { kind: 'point', x: p.x, y: p.y };
    }
    case 'screenSize':
      return { kind: 'size', width: await screen.width(), height: await screen.height() };
    case 'grab':
      return grab(op);
    case 'releaseAll':
      await releaseAll();
      aborted = false;
      return undefined;
    case 'abort':
      return undefined;
  }
}

const reply = (r: WorkerReply): void => {
  process.send!(r);
};

let queue: Promise<void> = Promise.resolve();

process.on('message', (msg: unknown) => {
  const problem = requestProblem(msg);
  if (problem) {
    const id = typeof (msg as { id?: unknown })?.id === 'number' ? (msg as { id: number }).id : -1;
    reply({ id, ok: false, error: { kind: 'invalid', message: `invalid request: ${problem}` } });
    return;
  }
  const req = msg as WorkerRequest;
  if (req.op === 'abort') {
    aborted = true;
    reply({ id: req.id, ok: true });
    return;
  }
  queue = queue.then(async () => {
    if (
      aborted &&
      req.op !== 'releaseAll' &&
      req.op !== 'grab' &&
      req.op !== 'position' &&
      req.op !== 'screenSize' &&
      req.op !== 'init'
    ) {
      reply({ id: req.id, ok: false, error: { kind: 'aborted', message: 'stopped by the kill switch' } });
      return;
    }
    try {
      const result = await handle(req);
      reply({ id: req.id, ok: true, result });
    } catch (e) {
      const kind = e instanceof WorkerFailure ? e.kind : 'failed';
      reply({ id: req.id, ok: false, error: { kind, message: e instanceof Error ? e.message : String(e) } });
    }
  });
});

process.on('disconnect', () => process.exit(0));
process.send({ id: 0, ok: true } satisfies WorkerReply);
