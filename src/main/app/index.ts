// The Electron shell: one window, the IPC bridge onto src/shared/api.ts, and nothing of the engine's logic.
import { app, BrowserWindow, globalShortcut, ipcMain, protocol, session, shell } from 'electron';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IpcChannel } from '../../shared/api';
import { servedFileResponse } from '../server/served-files';
import { dispatch } from '../workbench/dispatch';
import { createWorkbench } from '../workbench/workbench';
import { appPageUrl, isAppPage } from './page-origin';

// The folder to serve: PROCTOR_ROOT, or the first argument (after the app path when run as `electron .`).
const firstArg = process.defaultApp ? 2 : 1;
const root = resolve(
  process.env.PROCTOR_ROOT ??
    process.argv.find((a, i) => i >= firstArg && !a.startsWith('-')) ??
    process.cwd(),
);
const workbench = createWorkbench(root, { transport: 'ipc' });
const windows = new Set<number>();
const here = fileURLToPath(new URL('.', import.meta.url));
const pageUrl = appPageUrl(join(here, '../renderer/index.html'), process.env.ELECTRON_RENDERER_URL);

protocol.registerSchemesAsPrivileged([
  { scheme: 'proctor-file', privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

function createWindow(): void {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Proctor',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  const id = win.webContents.id; // read now: after 'closed' the webContents is destroyed
  windows.add(id);
  win.on('closed', () => windows.delete(id));
  void win.loadURL(pageUrl);
}

/** The global "stop the agent" key: it works while an agent drives the mouse and keyboard, whatever has the focus. */
export const STOP_AGENT_KEY = 'CommandOrControl+Alt+X';

app.whenReady().then(() => {
  globalShortcut.register(STOP_AGENT_KEY, () => {
    const stopped = workbench.stopAll();
    if (stopped) console.log(`proctor: stopped ${stopped} run(s) (${STOP_AGENT_KEY})`);
  });
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [
          "default-src 'self'; img-src 'self' data: blob: proctor-file:; connect-src 'self' proctor-file:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; base-uri 'none'",
        ],
      },
    });
  });
  // The workbench needs no permission (camera, notifications, clipboard reads, …): asked or checked, all denied.
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.setDevicePermissionHandler(() => false);
  // The same rule as `proctor serve`'s /files: no hidden files, regular files below the root, at most 64 MB.
  protocol.handle('proctor-file', (request) => servedFileResponse(root, request));
  // Main listens only on its channel and only to its own windows; payloads are validated in dispatch().
  ipcMain.handle(IpcChannel.call, async (event, message: { method?: unknown; params?: unknown }) => {
    if (!windows.has(event.sender.id))
      return { ok: false, error: { code: 'forbidden', message: 'unknown sender' } };
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null || !isAppPage(frame.url, pageUrl)) {
      return { ok: false, error: { code: 'forbidden', message: 'unexpected frame' } };
    }
    return dispatch(workbench.handlers, message?.method, message?.params);
  });
  workbench.events.subscribeAll((event, payload) => {
    for (const win of BrowserWindow.getAllWindows())
      win.webContents.send(IpcChannel.event, { event, payload });
  });
  createWindow();
  app.on('activate', () => BrowserWindow.getAllWindows().length === 0 && createWindow());
});

// Every web contents (windows and any frame host): no navigation or redirect away from the app, no webviews, no
// new windows; http(s) links open in the system browser.
app.on('web-contents-created', (_e, contents) => {
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.on('will-navigate', (e) => e.preventDefault());
  contents.on('will-redirect', (e) => e.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
});
app.on('window-all-closed', () => {
  void workbench.close();
  if (process.platform !== 'darwin') app.quit();
});
app.on('will-quit', () => globalShortcut.unregisterAll());
