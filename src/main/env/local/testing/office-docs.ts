// Test and bench fixtures: office documents made in the repo (a workbook written by exceljs, a Writer document
// and a presentation converted by LibreOffice itself, headless, inside the sandbox), and LibreOffice's windows.
import { spawnSync } from 'node:child_process';
import ExcelJS from 'exceljs';
import type { Environment } from '../../environment';
import { officeGuiMissing } from '../../../tasks/needs';
import { windowTitles } from '../openers';

/** Why GUI LibreOffice cannot run on a sandbox display here, or '' when it can. */
export const officeGuiMissingHere: string = (() => {
  const tools = ['Xvfb', 'openbox', 'xdotool', 'dbus-daemon'].filter(
    (t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0,
  );
  if (tools.length) return `needs ${tools.join(', ')}`;
  const missing = ['libreoffice_calc', 'libreoffice_writer', 'libreoffice_impress']
    .map((a) => officeGuiMissing(a))
    .find(Boolean);
  return missing ? `needs GUI LibreOffice: ${missing}` : '';
})();

/** A workbook of `rows` (first row: header) on sheet `Sheet1`, as xlsx bytes. */
export async function workbookBytes(rows: (string | number)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The value of cell `address` of the first sheet of xlsx `bytes` (rich text and formulas as their text/result). */
export async function cellValue(bytes: Buffer, address: string): Promise<unknown> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const v = wb.worksheets[0]?.getCell(address).value;
  if (v && typeof v === 'object' && 'richText' in v) return v.richText.map((t) => t.text).join('');
  if (v && typeof v === 'object' && 'result' in v) return v.result;
  return v;
}

const OFFICE =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';

/** A flat ODF text document with one paragraph per entry of `paragraphs`. */
export function flatText(paragraphs: string[]): string {
  const ps = paragraphs
    .map((p) => `<text:p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text:p>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><office:document ${OFFICE} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text>${ps}</office:text></office:body></office:document>`;
}

/** A flat ODF presentation with one slide holding `title`. */
export function flatPresentation(title: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><office:document ${OFFICE} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation"><office:body><office:presentation><draw:page draw:name="page1"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>${title}</text:p></draw:text-box></draw:frame></draw:page></office:presentation></office:body></office:document>`;
}

/**
 * Converts guest file `source` to `format` (e.g. `docx`, `pptx`) into `outDir` with a headless LibreOffice run in
 * the sandbox, on a profile of its own (a headless run on the GUI's profile would hand the job to a running
 * window instead). Throws with LibreOffice's output when no file came out.
 */
export async function convertInSandbox(
  env: Environment,
  source: string,
  format: string,
  outDir: string,
): Promise<string> {
  const r = await env.run(
    [
      'soffice',
      '-env:UserInstallation=file:///tmp/proctor-convert-profile',
      '--headless',
      '--convert-to',
      format,
      '--outdir',
      outDir,
      source,
    ],
    { timeoutMs: 120_000 },
  );
  const name = source.replace(/^.*\//, '').replace(/\.[^.]+$/, `.${format.split(':')[0]}`);
  const out = `${outDir}/${name}`;
  if (!(await env.getFile(out)))
    throw new Error(
      `soffice --convert-to ${format} of ${source} made no ${out} (exit ${r.exitCode}): ${r.stdout}${r.stderr}`,
    );
  return out;
}

/** Kills the process that owns the window titled exactly `title` (SIGKILL, by its pid in the guest). */
export async function killWindowOwner(env: Environment, title: string): Promise<void> {
  const r = await env.run([
    'sh',
    '-c',
    'w=$(xdotool search --onlyvisible --name "$1" | head -1) && kill -9 "$(xdotool getwindowpid "$w")"',
    'sh',
    `^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
  ]);
  if (r.exitCode !== 0) throw new Error(`could not kill the owner of '${title}': ${r.stderr}`);
  const end = Date.now() + 15_000;
  while ((await windowTitles(env)).includes(title)) {
    if (Date.now() > end) throw new Error(`'${title}' is still on screen 15 s after its process was killed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Watches the screen for `ms`: the titles of every window seen in that time (to catch a dialog that pops up). */
export async function titlesSeenFor(env: Environment, ms: number): Promise<string[]> {
  const seen = new Set<string>();
  const end = Date.now() + ms;
  do {
    for (const t of await windowTitles(env)) seen.add(t);
    await new Promise((r) => setTimeout(r, 150));
  } while (Date.now() < end);
  return [...seen];
}
