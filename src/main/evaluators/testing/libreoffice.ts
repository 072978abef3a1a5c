// Test helper: documents saved by the real LibreOffice (Debian's `soffice --headless --convert-to`), from HTML
// written by the test. Tests skip where LibreOffice is not installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const hasLibreOffice = spawnSync('sh', ['-c', 'command -v soffice']).status === 0;

export type SavedFormat = 'docx' | 'odt' | 'pdf' | 'xlsx' | 'pptx' | 'epub';

const filters: Record<string, string> = {
  docx: 'docx:MS Word 2007 XML',
  pdf: 'pdf:writer_pdf_Export',
  xlsx: 'xlsx:Calc MS Excel 2007 XML',
  epub: 'epub:EPUB',
};

/** The namespaces of a flat ODF text document (`.fodt`) the tests write. */
export const odfTextNamespaces = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
].join(' ');

/** Converts existing files (`inputs`) with one LibreOffice launch into `outDir` with `filter` (e.g. `xlsx:Calc MS
 * Excel 2007 XML` to save a workbook again as Calc writes it, or a CSV filter to print it), using the profile
 * under `dir`. */
export function convertWithLibreOffice(dir: string, inputs: string[], filter: string, outDir: string): void {
  const profile = join(dir, 'lo-profile');
  mkdirSync(profile, { recursive: true });
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      '--convert-to',
      filter,
      '--outdir',
      outDir,
      ...inputs,
    ],
    { stdio: 'ignore', timeout: 180_000 },
  );
}

/** Saves `source` (HTML, or a flat ODF document — `.fodt` — when it starts with `<?xml`) as
 * `<dir>/<name>.<format>` through LibreOffice (its own profile under `dir`); the saved file's path. */
export function saveWithLibreOffice(dir: string, name: string, source: string, format: SavedFormat): string {
  return saveManyWithLibreOffice(dir, { [name]: source }, format)[name];
}

/** Saves several sources (name → HTML or flat ODF text) as `<dir>/<name>.<format>` with one LibreOffice launch
 * per kind of source (HTML, flat ODF); the saved files' paths by name. */
export function saveManyWithLibreOffice(
  dir: string,
  sources: Record<string, string>,
  format: SavedFormat,
): Record<string, string> {
  const byKind: Record<'html' | 'fodt', string[]> = { html: [], fodt: [] };
  const out: Record<string, string> = {};
  for (const [name, source] of Object.entries(sources)) {
    const kind = source.startsWith('<?xml') ? 'fodt' : 'html';
    const src = join(dir, `${name}.${kind}`);
    writeFileSync(src, source);
    byKind[kind].push(src);
    out[name] = join(dir, `${name}.${format}`);
  }
  const filter = filters[format] ?? format;
  const profile = join(dir, 'lo-profile');
  mkdirSync(profile, { recursive: true });
  for (const [kind, files] of Object.entries(byKind)) {
    if (files.length === 0) continue;
    // HTML opens as a Writer document (not Writer/Web, whose PDF export of a plain page comes out blank), or as a
    // Calc sheet for a workbook
    const infilter =
      kind === 'html' ? [`--infilter=${format === 'xlsx' ? 'HTML (StarCalc)' : 'HTML (StarWriter)'}`] : [];
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        ...infilter,
        '--convert-to',
        filter,
        '--outdir',
        dir,
        ...files,
      ],
      { stdio: 'ignore', timeout: 180_000 },
    );
  }
  return out;
}
