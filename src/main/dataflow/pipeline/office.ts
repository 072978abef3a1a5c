// A document open in GUI LibreOffice on the sandbox display for one stage: put it in the sandbox home, open it
// (soffice --nologo --writer|--calc on the prepared profile), wait for its window, settle its geometry, read its
// controls, save it (Ctrl+S, waiting for the file to change) and close it.
import { posix } from 'node:path';
import type { AccessibilityNode, Environment } from '../../env/environment';
import {
  officeWindowTitle,
  settleWindowGeometry,
  titlePattern,
  waitForWindowTitle,
  windowTitles,
} from '../../env/local/openers';
import { controlList, type Control } from './controls';

export type OfficeEnv = Pick<
  Environment,
  | 'perform'
  | 'run'
  | 'putFile'
  | 'getFile'
  | 'open'
  | 'closeWindow'
  | 'accessibilityTree'
  | 'screenshot'
  | 'screen'
>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface WindowBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class OfficeDocument {
  private constructor(
    readonly env: OfficeEnv,
    /** Guest path of the open document. */
    readonly guestPath: string,
    /** Its window title (`memo.odt - LibreOffice Writer`). */
    readonly title: string,
    readonly window: WindowBox,
  ) {}

  /** Puts `bytes` at guest `guestPath`, opens it and waits until its controls can be read. */
  static async open(
    env: OfficeEnv,
    guestPath: string,
    bytes: Buffer,
    o: { timeoutMs?: number } = {},
  ): Promise<OfficeDocument> {
    const title = officeWindowTitle(guestPath);
    if (!title)
      throw new Error(
        `${guestPath}: LibreOffice does not open this type of file (use .odt, .docx, .xlsx, .ods, .odp, .pptx)`,
      );
    await env.putFile(guestPath, bytes);
    await env.open(guestPath);
    await waitForWindowTitle(env, title, { timeoutMs: o.timeoutMs ?? 60_000 });
    await settleWindowGeometry(env, title);
    const window = await windowBox(env, title);
    const doc = new OfficeDocument(env, guestPath, title, window);
    // LibreOffice builds its accessibility objects after the window shows: wait for the document's content
    const end = Date.now() + 15_000;
    while (Date.now() < end) {
      const controls = await doc.controls();
      if (
        controls.some((c) => c.role.startsWith('document')) &&
        controls.some((c) => c.role === 'toggle-button' || c.role === 'push-button')
      )
        break;
      await sleep(300);
    }
    // only once the document is laid out do pointer events over it correct the boxes (see sweep)
    await sweep(env, window);
    return doc;
  }

  /** Moves the pointer over the window again (before reading controls to act on): see sweep. */
  async settle(): Promise<void> {
    await sweep(this.env, this.window, { toolbars: false });
  }

  /** The accessibility tree of the screen (LibreOffice's window). */
  async tree(): Promise<AccessibilityNode[]> {
    return this.env.accessibilityTree();
  }

  /** The numbered control list of the screen. */
  async controls(tree?: AccessibilityNode[]): Promise<Control[]> {
    const screen = await this.env.screen();
    return controlList(tree ?? (await this.tree()), screen);
  }

  /** Saves in place with Ctrl+S (the profile turns off the keep-format question) and waits for the file to change. */
  async save(o: { timeoutMs?: number } = {}): Promise<Buffer> {
    const before = await this.env.getFile(this.guestPath);
    await this.env.perform([{ type: 'hotkey', keys: ['ctrl', 's'] }]);
    const end = Date.now() + (o.timeoutMs ?? 20_000);
    for (;;) {
      await sleep(250);
      const now = await this.env.getFile(this.guestPath);
      if (now && before && !now.equals(before)) {
        // LibreOffice writes through a temporary file and renames it: read again once it has settled
        await sleep(250);
        return (await this.env.getFile(this.guestPath)) ?? now;
      }
      if (Date.now() > end) {
        if (now) return now; // nothing changed on screen to save, or the save was refused: the file as it is
        throw new Error(`${this.guestPath} is gone after Ctrl+S`);
      }
    }
  }

  /** Closes the window (Alt+F4), killing its process if it stays (e.g. behind a "Save changes?" question). */
  async close(): Promise<void> {
    try {
      await this.env.closeWindow(this.title, { strict: true });
    } catch {
      return; // already gone
    }
    const end = Date.now() + 8_000;
    while (Date.now() < end) {
      const titles = await windowTitles(this.env);
      if (!titles.includes(this.title)) return;
      await sleep(300);
    }
    await this.env.run(
      [
        'sh',
        '-c',
        'w=$(xdotool search --onlyvisible --name "$1" | head -1) && kill -9 "$(xdotool getwindowpid "$w")"',
        'sh',
        titlePattern(this.title, true),
      ],
      { timeoutMs: 10_000 },
    );
  }

  /** The guest file name. */
  get name(): string {
    return posix.basename(this.guestPath);
  }
}

/** The window's box on the screen (xdotool geometry of the window titled exactly `title`). */
async function windowBox(env: OfficeEnv, title: string): Promise<WindowBox> {
  const r = await env.run(
    [
      'sh',
      '-c',
      'xdotool search --onlyvisible --name "$1" getwindowgeometry --shell',
      'sh',
      titlePattern(title, true),
    ],
    { timeoutMs: 10_000 },
  );
  const v = (k: string) => Number(new RegExp(`^${k}=(-?\\d+)$`, 'm').exec(r.stdout)?.[1]);
  const box = { x: v('X'), y: v('Y'), width: v('WIDTH'), height: v('HEIGHT') };
  if (Object.values(box).some((n) => Number.isNaN(n))) {
    const s = await env.screen();
    return { x: 0, y: 0, width: s.width, height: s.height };
  }
  return box;
}

/**
 * Moves the pointer over the toolbars, the sidebar and the document. LibreOffice (gtk3) corrects the AT-SPI boxes
 * of a window's parts from pointer events over them once laid out: measured, before that the Bold button's box and
 * a Calc sheet's cells were 25 px above where they are drawn (the menu bar's height), so a click on their
 * centre hit the row above.
 */
async function sweep(env: OfficeEnv, w: WindowBox, o: { toolbars?: boolean } = {}): Promise<void> {
  const moves: { type: 'moveTo'; x: number; y: number }[] = [];
  const cx = w.x + Math.floor(w.width / 2);
  if (o.toolbars !== false) {
    for (let y = w.y + 20; y < w.y + Math.min(220, w.height); y += 15)
      moves.push({ type: 'moveTo', x: cx, y });
    for (let y = w.y + 120; y < w.y + Math.min(560, w.height); y += 30)
      moves.push({ type: 'moveTo', x: w.x + w.width - 20, y });
  }
  const cy = w.y + Math.floor(w.height / 2);
  moves.push(
    { type: 'moveTo', x: cx, y: cy },
    { type: 'moveTo', x: cx - 40, y: cy - 60 },
    { type: 'moveTo', x: cx, y: cy },
  );
  await env.perform(moves);
  await sleep(200);
}
