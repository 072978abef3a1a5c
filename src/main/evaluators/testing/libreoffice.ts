// Test helper: documents saved by the real LibreOffice (Debian's `soffice --headless --convert-to`), from HTML
// written by the test. Tests skip where LibreOffice is not installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const hasLibreOffice = spawnSync('sh', ['-c', 'command -v soffice']).status === 0;

/** Saves `source` (HTML, or a flat ODF document — `.fodt` — when it starts with `<?xml`) as
 * `<dir>/<name>.<format>` through LibreOffice (its own profile under `dir`); the saved file's path. */
export function saveWithLibreOffice(dir: string, name: string, source: string, format: 'docx' | 'odt' | 'pdf' | 'xlsx' | 'pptx'): string {
  const src = join(dir, `${name}.${source.startsWith('<?xml') ? 'fodt' : 'html'}`);
  writeFileSync(src, source);
  const filters: Record<string, string> = { docx: 'docx:MS Word 2007 XML', pdf: 'pdf:writer_pdf_Export', xlsx: 'xlsx:Calc MS Excel 2007 XML' };
  const filter = filters[format] ?? format;
  // HTML opens as a Writer document (not Writer/Web, whose PDF export of a plain page comes out blank), or as a
  // Calc sheet for a workbook
  const infilter = src.endsWith('.html') ? [`--infilter=${format === 'xlsx' ? 'HTML (StarCalc)' : 'HTML (StarWriter)'}`] : [];
  const profile = join(dir, 'lo-profile');
  mkdirSync(profile, { recursive: true });
  execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', ...infilter, '--convert-to', filter, '--outdir', dir, src], { stdio: 'ignore', timeout: 120_000 });
  return join(dir, `${name}.${format}`);
}
