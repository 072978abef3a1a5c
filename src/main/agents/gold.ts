// The `gold` agent: for a task whose expected result is a file, it does what a person holding the answer would
// do — close the document, put the gold file in its place, reopen it in the application — and says DONE; the
// task's postconfig then saves it through the application and the evaluator grades it. Each of the three is one
// recorded turn. A task without a gold file (see tasks/gold.ts) is an agent error naming why.
import { readFile } from 'node:fs/promises';
import type { Action } from '../../shared/run';
import type { Environment } from '../env/environment';
import { fetchDownload } from '../downloads';
import { documentName, goldFilesOf, noGoldReason, type GoldFile } from '../tasks/gold';
import { AgentError, type Agent, type AgentContext, type AgentInfo, type AgentTurn } from './agent';

export interface GoldAgentOptions {
  /** Folder standing for the network (`--downloads`): cloud_file golds are read from it. */
  downloads?: string;
  /** How long to wait for a window to close or appear (ms). Default 60 s. */
  windowTimeoutMs?: number;
}

type Phase = 'close' | 'replace' | 'reopen' | 'done';

const POLL_MS = 250;
/** After its window appears, a document takes a moment to take keystrokes (the postconfig's Ctrl+S follows). */
const SETTLE_MS = 1000;

/** Documents LibreOffice opens, which keep a lock file beside them while open. */
const lockingDocument = /\.(xlsx|xlsm|xls|ods|csv|docx|doc|odt|rtf|pptx|ppt|odp)$/i;

/** The LibreOffice lock file beside an open document (`.~lock.<name>#`): gone once the document is closed. */
function lockFileOf(guestPath: string): string {
  const slash = guestPath.lastIndexOf('/');
  return `${guestPath.slice(0, slash + 1)}.~lock.${guestPath.slice(slash + 1)}#`;
}

async function hasWindow(env: Environment, name: string): Promise<boolean> {
  try {
    await env.activateWindow(name, { strict: false });
    return true;
  } catch {
    return false;
  }
}

async function until(what: () => Promise<boolean>, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await what()) return true;
    if (Date.now() >= end || signal.aborted) return false;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export class GoldAgent implements Agent {
  readonly name = 'gold';
  private files: GoldFile[] = [];
  /** Guest paths whose document was open in a window after setup (those are closed and reopened). */
  private open = new Set<string>();
  private phase: Phase = 'close';
  private env?: Environment;
  private signal: AbortSignal = new AbortController().signal;
  private taskFile = '';

  constructor(private readonly options: GoldAgentOptions = {}) {}

  info(): AgentInfo {
    return {
      agent: 'gold',
      model: 'gold',
      ...(this.files.length ? { files: this.files.map((f) => f.guestPath) } : {}),
    };
  }

  async start(context: AgentContext): Promise<void> {
    const why = noGoldReason(context.task);
    if (why)
      throw new AgentError(
        `gold: ${context.task.file}: ${why}; the gold oracle needs a task whose expected result is a file`,
      );
    if (!context.environment)
      throw new AgentError(
        'gold: the runner gave no environment; the gold oracle acts on the machine itself',
      );
    this.files = goldFilesOf(context.task);
    this.env = context.environment;
    this.signal = context.signal;
    this.taskFile = context.task.file;
    this.phase = 'close';
    this.open.clear();
    // A document the task's setup opens is reopened even when no window showed it: the postconfig expects one.
    const opened = new Set(context.task.setup.filter((s) => s.func === 'open').map((s) => s.args.path));
    this.reopenAlways = new Set(this.files.map((f) => f.guestPath).filter((p) => opened.has(p)));
  }

  private reopenAlways = new Set<string>();

  private get timeout(): number {
    return this.options.windowTimeoutMs ?? 60_000;
  }

  async next(): Promise<AgentTurn> {
    const env = this.env;
    if (!env) throw new AgentError('gold: next() before start()');
    switch (this.phase) {
      case 'close':
        return this.close(env);
      case 'replace':
        return this.replace(env);
      case 'reopen':
        return this.reopen(env);
      default:
        return { response: 'DONE', rawAction: 'DONE', actions: [{ type: 'DONE' }] };
    }
  }

  /** Turn 1: bring each open document's window to the front and close it (Alt+F4, the window manager's close). */
  private async close(env: Environment): Promise<AgentTurn> {
    this.phase = 'replace';
    const names: string[] = [];
    for (const f of this.files) {
      const name = documentName(f.guestPath);
      if (this.open.has(f.guestPath) || !(await hasWindow(env, name))) continue;
      this.open.add(f.guestPath);
      names.push(name);
    }
    if (!names.length)
      return {
        response: `gold: no window shows ${this.files.map((f) => documentName(f.guestPath)).join(', ')}; nothing to close`,
        rawAction: { gold: 'close', windows: [] },
        actions: [],
      };
    // The window just activated is the last one; one document at a time keeps the keystroke on the right window.
    const actions: Action[] = [{ type: 'hotkey', keys: ['alt', 'f4'] }];
    if (names.length > 1) {
      for (const name of names.slice(0, -1)) await env.closeWindow(name, { strict: false });
      await env.activateWindow(names[names.length - 1], { strict: false });
    }
    return {
      response: `gold: close the window of ${names.join(', ')}`,
      rawAction: { gold: 'close', windows: names },
      actions,
    };
  }

  /** Turn 2: once the documents are closed, write each gold file over its guest file. */
  private async replace(env: Environment): Promise<AgentTurn> {
    this.phase = 'reopen';
    for (const path of this.open) {
      const name = documentName(path);
      const isClosed = async () =>
        !(await hasWindow(env, name)) && (await env.getFile(lockFileOf(path))) === undefined;
      // Alt+F4 can be lost (pressed before the window had the keyboard, on a loaded machine): as a person would,
      // ask the window to close once more — politely, through the window manager — before waiting the rest.
      let closed = await until(isClosed, Math.min(5000, this.timeout), this.signal);
      if (!closed && (await hasWindow(env, name))) {
        await env.closeWindow(name, { strict: false }).catch(() => undefined);
        closed = await until(isClosed, this.timeout, this.signal);
      }
      if (!closed)
        throw new AgentError(
          `gold: the window of ${name} did not close within ${Math.round(this.timeout / 1000)} s (a dialog may be asking to save); the gold file was not put in place`,
        );
    }
    const done: string[] = [];
    for (const f of this.files) {
      const data = await this.goldBytes(f);
      await env.putFile(f.guestPath, data);
      const back = await env.getFile(f.guestPath);
      if (!back || back.length !== data.length)
        throw new AgentError(
          `gold: writing ${f.guestPath} on the machine left ${back ? `${back.length} bytes` : 'no file'}, not the gold's ${data.length}`,
        );
      done.push(`${f.source.kind === 'local' ? f.source.path : f.source.url} → ${f.guestPath}`);
    }
    return {
      response: `gold: put the gold file in place: ${done.join('; ')}`,
      rawAction: {
        gold: 'replace',
        files: this.files.map((f) => ({
          from: f.source.kind === 'local' ? f.source.path : f.source.url,
          to: f.guestPath,
        })),
      },
      actions: [],
    };
  }

  /** Turn 3: open each closed document (and each the setup opens) as a person would, wait for its window, DONE. */
  private async reopen(env: Environment): Promise<AgentTurn> {
    this.phase = 'done';
    const names: string[] = [];
    const paths = [...new Set([...this.open, ...this.reopenAlways])];
    for (const path of paths) {
      const name = documentName(path);
      await env.open(path);
      if (!(await until(() => hasWindow(env, name), this.timeout, this.signal)))
        throw new AgentError(
          `gold: no window showing ${name} appeared within ${Math.round(this.timeout / 1000)} s of opening ${path}: the environment has no application that opens it`,
        );
      // LibreOffice writes its lock file once the document is loaded: only then does it take the postconfig's keys.
      if (
        lockingDocument.test(path) &&
        !(await until(
          async () => (await env.getFile(lockFileOf(path))) !== undefined,
          this.timeout,
          this.signal,
        ))
      )
        throw new AgentError(
          `gold: ${name} shows a window but LibreOffice never finished loading it (no lock file ${lockFileOf(path)} within ${Math.round(this.timeout / 1000)} s)`,
        );
      names.push(name);
    }
    if (names.length) await new Promise((r) => setTimeout(r, SETTLE_MS));
    const response = names.length ? `gold: reopen ${names.join(', ')}; DONE` : 'gold: DONE';
    return { response, rawAction: { gold: 'reopen', files: paths }, actions: [{ type: 'DONE' }] };
  }

  private async goldBytes(f: GoldFile): Promise<Buffer> {
    if (f.source.kind === 'url') {
      try {
        return await fetchDownload(f.source.url, { downloads: this.options.downloads, signal: this.signal });
      } catch (e) {
        throw new AgentError(`gold: ${this.taskFile} ${f.pointer}/expected: ${(e as Error).message}`);
      }
    }
    try {
      return await readFile(f.source.path);
    } catch (e) {
      throw new AgentError(
        `gold: ${this.taskFile} ${f.pointer}/expected: the gold file ${f.source.path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); put it beside the task`,
      );
    }
  }
}
