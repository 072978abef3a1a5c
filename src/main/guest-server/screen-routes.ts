// Display endpoints: /screenshot (pointer drawn in), /accessibility (OSWorld's XML), /terminal, sizes, the
// pointer, /platform, window activation and closing, and screen recording (ffmpeg x11grab when installed).
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import type { AccessibilityNode } from '../env/environment';
import type { LocalEnvironment } from '../env/local';
import { accessibilityXml } from '../observe/osworld-xml';
import { focusedTerminalText } from '../observe/terminal-text';
import { HttpError, readForm, readJson, sendFile, sendJson, sendText, stringField } from './http-io';
import { findWindows, pointerPosition, sleep, type Route } from './guest';

const screenshot: Route['handler'] = async (_req, res, guest) => {
  const env = await guest.env();
  // The pointer is painted into the grabbed pixels before the one PNG encode (the display worker does it).
  const shot = await env.screenshot({ format: 'png', pointer: true });
  sendFile(res, shot.data, 'image/png');
};

const accessibility: Route['handler'] = async (_req, res, guest) => {
  const env = await guest.env();
  let nodes: AccessibilityNode[];
  try {
    nodes = await env.accessibilityTree();
  } catch (e) {
    throw new HttpError(500, `cannot read the accessibility tree: ${(e as Error).message}`);
  }
  sendJson(res, 200, { AT: accessibilityXml(nodes, await env.screen()) });
};

/** OSWorld's reading: the one focused terminal in the active frame, else null (terminal-text.ts). */
const terminal: Route['handler'] = async (_req, res, guest) => {
  const env = await guest.env();
  let nodes: AccessibilityNode[] = [];
  try {
    nodes = await env.accessibilityTree();
  } catch {
    /* no tree: no terminal text */
  }
  sendJson(res, 200, { output: focusedTerminalText(nodes) ?? null, status: 'success' });
};

const screenSize: Route['handler'] = async (_req, res, guest) => {
  const s = await (await guest.env()).screen();
  sendJson(res, 200, { width: s.width, height: s.height });
};

const windowSize: Route['handler'] = async (req, res, guest) => {
  const name = (await readForm(req)).app_class_name;
  if (!name) throw new HttpError(400, { error: "'app_class_name' is missing" });
  const env = await guest.env();
  const ids = await findWindows(env, name, { byClass: true });
  if (!ids.length) throw new HttpError(404, { error: `no window of class '${name}'` });
  const r = await env.run(['xdotool', 'getwindowgeometry', '--shell', ids[ids.length - 1]], {
    timeoutMs: 5000,
  });
  const w = /WIDTH=(\d+)/.exec(r.stdout)?.[1];
  const h = /HEIGHT=(\d+)/.exec(r.stdout)?.[1];
  if (!w || !h)
    throw new HttpError(500, { error: `cannot read the size of the '${name}' window: ${r.stderr.trim()}` });
  sendJson(res, 200, { width: Number(w), height: Number(h) });
};

const cursorPosition: Route['handler'] = async (_req, res, guest) => {
  const at = await pointerPosition(await guest.env());
  sendJson(res, 200, [at.x, at.y]);
};

const platform: Route['handler'] = async (_req, res) => sendText(res, 200, 'Linux');

function windowRoute(what: 'activate' | 'close'): Route['handler'] {
  return async (req, res, guest) => {
    const body = await readJson(req);
    const name = stringField(body, 'window_name');
    if (!name) throw new HttpError(400, "'window_name' is missing");
    const env = await guest.env();
    const o = { strict: body.strict === true, byClass: body.by_class === true };
    try {
      await (what === 'activate' ? env.activateWindow(name, o) : env.closeWindow(name, o));
    } catch (e) {
      throw new HttpError(404, `cannot ${what} window '${name}': ${(e as Error).message}`);
    }
    sendText(res, 200, `Window ${what === 'activate' ? 'activated' : 'closed'} successfully`);
  };
}

/** How long starting a recording waits for ffmpeg's first frame (seconds on a loaded machine). */
const FIRST_FRAME_WAIT_MS = 15_000;

async function startRecording(env: LocalEnvironment): Promise<{ stop(): Promise<Buffer> }> {
  const which = await env.run(['/bin/sh', '-c', 'command -v ffmpeg'], { timeoutMs: 5000 });
  if (which.exitCode !== 0)
    throw new HttpError(500, {
      status: 'error',
      message: 'ffmpeg is not installed on this machine, so the screen cannot be recorded (install ffmpeg)',
    });
  const s = await env.screen();
  const out = env.home.toHost(`/tmp/proctor-recording-${Date.now()}.mp4`);
  // ultrafast + zerolatency: frames leave the encoder as they are grabbed (no look-ahead), cheap on a loaded machine;
  // -progress on stdout says how many frames are written, so "started" means frames are flowing.
  const child = spawn(
    which.stdout.trim(),
    [
      '-y',
      '-loglevel',
      'error',
      '-progress',
      'pipe:1',
      '-stats_period',
      '0.1',
      '-f',
      'x11grab',
      '-video_size',
      `${s.width}x${s.height}`,
      '-framerate',
      '10',
      '-i',
      env.display,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-pix_fmt',
      'yuv420p',
      out,
    ],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env.displayEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  let frames = 0;
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  let progress = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (progress + d.toString()).split('\n');
    progress = lines.pop() ?? '';
    for (const line of lines)
      if (line.startsWith('frame=')) frames = Math.max(frames, Number(line.slice(6)) || 0);
  });
  const exited = new Promise<number | null>((r) => child.once('close', (code) => r(code)));
  const deadline = Date.now() + FIRST_FRAME_WAIT_MS;
  while (frames < 1 && child.exitCode === null && Date.now() < deadline) await sleep(50);
  if (child.exitCode !== null)
    throw new HttpError(500, { status: 'error', message: `ffmpeg stopped at once: ${stderr.trim()}` });
  if (frames < 1) {
    child.kill('SIGKILL');
    await exited;
    await rm(out, { force: true });
    throw new HttpError(500, {
      status: 'error',
      message: `ffmpeg wrote no frame of ${env.display} within ${FIRST_FRAME_WAIT_MS / 1000} s: ${stderr.trim()}`,
    });
  }
  return {
    async stop() {
      child.stdin!.end('q');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      const data = await readFile(out).catch(() => undefined);
      await rm(out, { force: true });
      if (!data?.length)
        throw new HttpError(500, { status: 'error', message: `ffmpeg wrote no recording: ${stderr.trim()}` });
      return data;
    },
  };
}

const startRecordingRoute: Route['handler'] = async (_req, res, guest) => {
  if (guest.state.recording)
    throw new HttpError(400, { status: 'error', message: 'a recording is already running' });
  const env = await guest.env();
  guest.state.recording = await startRecording(env);
  sendJson(res, 200, { status: 'success', message: 'Started recording.' });
};

const endRecording: Route['handler'] = async (_req, res, guest) => {
  const rec = guest.state.recording;
  if (!rec) throw new HttpError(400, { status: 'error', message: 'no recording is running' });
  guest.state.recording = undefined;
  sendFile(res, await rec.stop(), 'video/mp4', 'recording.mp4');
};

export const screenRoutes: Route[] = [
  { method: 'GET', path: '/screenshot', handler: screenshot },
  { method: 'GET', path: '/accessibility', handler: accessibility },
  { method: 'GET', path: '/terminal', handler: terminal },
  { method: 'POST', path: '/screen_size', handler: screenSize },
  { method: 'GET', path: '/screen_size', handler: screenSize },
  { method: 'POST', path: '/window_size', handler: windowSize },
  { method: 'GET', path: '/cursor_position', handler: cursorPosition },
  { method: 'GET', path: '/platform', handler: platform },
  { method: 'POST', path: '/setup/activate_window', handler: windowRoute('activate') },
  { method: 'POST', path: '/setup/close_window', handler: windowRoute('close') },
  { method: 'POST', path: '/start_recording', handler: startRecordingRoute },
  { method: 'POST', path: '/end_recording', handler: endRecording },
];
