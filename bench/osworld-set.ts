// The OSWorld mixed set of bench/grade.ts: 40 result files over ten formats, each with the gold file an OSWorld
// metric grades it against, made by the real applications (LibreOffice, calibre, ImageMagick, ffmpeg) in a scratch
// folder. About half the results match their gold; the others differ in one place.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calibreEnv, calibreMissing } from '../src/main/evaluators/testing/calibre';
import { fodp, saveAsPptx } from '../src/main/evaluators/testing/impress';

export interface SetCase {
  format: string;
  metric: string;
  result: string;
  expected: string;
  options: Record<string, unknown>;
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'ignore', timeout: 300_000 });

/** One soffice call converting every `inputs` file to `filter` into `out`. */
function soffice(dir: string, out: string, filter: string, inputs: string[], infilter?: string): void {
  const profile = join(dir, 'lo-profile');
  run('soffice', [
    `-env:UserInstallation=file://${profile}`,
    '--headless',
    ...(infilter ? [`--infilter=${infilter}`] : []),
    '--convert-to',
    filter,
    '--outdir',
    out,
    ...inputs,
  ]);
}

/** A report page: a title, three paragraphs and a small table; `variant` changes one paragraph. */
function reportHtml(variant: number): string {
  const words = ['quarterly', 'regional', 'annual', 'weekly'];
  const rows = [1, 2, 3, 4].map((i) => `<tr><td>item ${i}</td><td>${i * 12}</td></tr>`).join('');
  return (
    `<html><body><h1>Sales report</h1><p>This ${words[variant % words.length]} report covers every store.</p>` +
    `<p>Revenue rose in the north and fell in the south.</p><p>Next steps follow below.</p><table>${rows}</table></body></html>`
  );
}

/** A sheet as an HTML table Calc opens; `variant` changes one cell. */
function sheetHtml(variant: number): string {
  const rows = Array.from(
    { length: 40 },
    (_, i) =>
      `<tr><td>${i + 1}</td><td>${['East', 'West', 'North'][i % 3]}</td><td>${i === 7 ? 100 + variant : (i * 7) % 23}</td></tr>`,
  );
  return `<html><body><table><tr><th>id</th><th>region</th><th>units</th></tr>${rows.join('')}</table></body></html>`;
}

/** Builds the set under `dir`: the cases, in a fixed order. `formats` limits it (for metrics not registered). */
export function buildOsworldSet(
  dir: string,
  has: (metric: string) => boolean,
): { cases: SetCase[]; skipped: string[] } {
  const cases: SetCase[] = [];
  const skipped: string[] = [];
  const src = join(dir, 'src');
  const out = join(dir, 'out');
  mkdirSync(src, { recursive: true });
  mkdirSync(out, { recursive: true });
  const add = (
    format: string,
    metric: string,
    pairs: [string, string][],
    options: Record<string, unknown> = {},
  ) => {
    if (!has(metric)) return void skipped.push(`${format} (${metric} is not registered)`);
    for (const [result, expected] of pairs) cases.push({ format, metric, result, expected, options });
  };
  const pairsOf = (names: string[], gold: string, path: (n: string) => string) =>
    names.map((n): [string, string] => [path(n), path(gold)]);

  // Writer documents: docx, pdf and epub from the same pages (variant 0 is the gold, 1 the same text saved
  // again, 2 and 3 one changed word)
  const pages = [0, 0, 1, 2].map((v, i) => {
    const p = join(src, `report${i}.html`);
    writeFileSync(p, reportHtml(v));
    return p;
  });
  soffice(dir, out, 'docx:MS Word 2007 XML', pages, 'HTML (StarWriter)');
  soffice(dir, out, 'pdf:writer_pdf_Export', pages, 'HTML (StarWriter)');
  // EPUB books as calibre writes them (the layout compare_epub reads); LibreOffice's own export where calibre is absent
  if (calibreMissing) soffice(dir, out, 'epub', pages, 'HTML (StarWriter)');
  else
    for (const n of ['report0', 'report1', 'report2'])
      execFileSync('ebook-convert', [join(out, `${n}.docx`), join(out, `${n}.epub`)], {
        stdio: 'ignore',
        timeout: 300_000,
        env: calibreEnv(dir),
      });
  const reports = ['report1', 'report2', 'report3'];
  add('docx', 'compare_docx_files', [
    ...pairsOf(reports, 'report0', (n) => join(out, `${n}.docx`)),
    [join(out, 'report1.docx'), join(out, 'report2.docx')],
    [join(out, 'report3.docx'), join(out, 'report1.docx')],
    [join(out, 'report0.docx'), join(out, 'report0.docx')],
  ]);
  add('pdf', 'compare_pdfs', [
    ...pairsOf(reports, 'report0', (n) => join(out, `${n}.pdf`)),
    [join(out, 'report3.pdf'), join(out, 'report2.pdf')],
    [join(out, 'report1.pdf'), join(out, 'report2.pdf')],
    [join(out, 'report0.pdf'), join(out, 'report0.pdf')],
  ]);
  add(
    'epub',
    'compare_epub',
    pairsOf(['report1', 'report2'], 'report0', (n) => join(out, `${n}.epub`)),
  );

  // Calc workbooks
  const sheets = [0, 0, 1, 2, 0, 3, 4].map((v, i) => {
    const p = join(src, `sheet${i}.html`);
    writeFileSync(p, sheetHtml(v));
    return p;
  });
  soffice(dir, out, 'xlsx:Calc MS Excel 2007 XML', sheets, 'HTML (StarCalc)');
  add(
    'xlsx',
    'compare_table',
    pairsOf(['sheet1', 'sheet2', 'sheet3', 'sheet4', 'sheet5', 'sheet6'], 'sheet0', (n) =>
      join(out, `${n}.xlsx`),
    ),
    { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }] },
  );

  // Images by ImageMagick from its built-in logo: the same, flipped, turned, half covered, more saturated, blurred
  const edits = [
    [],
    [],
    ['-flop'],
    ['-rotate', '180'],
    ['-fill', 'black', '-draw', 'rectangle 0,0 320,480'],
    ['-modulate', '100,150'],
    ['-blur', '0x1'],
  ];
  const images = edits.map((edit, i) => {
    const p = join(out, `image${i}.png`);
    run('convert', ['logo:', ...edit, p]);
    return p;
  });
  add(
    'png',
    'check_structure_sim',
    images.slice(1).map((p): [string, string] => [p, images[0]]),
  );

  // Slide decks: Impress opens no HTML, so flat ODF presentations are saved as pptx
  const deck = (title: string, second: string) =>
    fodp({
      pages: `<draw:page draw:master-page-name="Default"><draw:frame svg:x="2cm" svg:y="1cm" svg:width="24cm" svg:height="3cm"><draw:text-box><text:p>${title}</text:p></draw:text-box></draw:frame><draw:frame svg:x="2cm" svg:y="5cm" svg:width="24cm" svg:height="8cm"><draw:text-box><text:p>First point</text:p><text:p>${second}</text:p></draw:text-box></draw:frame></draw:page>`,
    });
  const decks = saveAsPptx(join(dir, 'decks'), {
    deck0: deck('Launch plan', 'Second point'),
    deck1: deck('Launch plan', 'Second point'),
    deck2: deck('Launch plans', 'Second point'),
    deck3: deck('Launch plan', 'Second point, changed'),
    deck4: deck('Budget', 'Second point'),
  });
  add(
    'pptx',
    'compare_pptx_files',
    pairsOf(['deck1', 'deck2', 'deck3', 'deck4'], 'deck0', (n) => decks[n]),
  );

  // CSV and HTML written as the apps would leave them
  const csv = (v: number) => `name,score\nada,${90 + v}\nbob,77\ncy,64\n`;
  for (const [i, v] of [0, 0, 0, 1, 0].entries()) writeFileSync(join(out, `table${i}.csv`), csv(v));
  add(
    'csv',
    'compare_csv',
    pairsOf(['table1', 'table2', 'table3', 'table4'], 'table0', (n) => join(out, `${n}.csv`)),
  );
  for (const [i, v] of [0, 0, 1, 2].entries()) writeFileSync(join(out, `page${i}.html`), reportHtml(v));
  add(
    'html',
    'compare_htmls',
    pairsOf(['page1', 'page2', 'page3'], 'page0', (n) => join(out, `${n}.html`)),
  );

  // Audio by ffmpeg: the same tone, a louder copy, another pitch
  const tones: [number, number][] = [
    [440, 0.5],
    [440, 0.5],
    [440, 0.9],
    [660, 0.5],
  ];
  for (const [i, [hz, volume]] of tones.entries())
    run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${hz}:duration=2`,
      '-af',
      `volume=${volume}`,
      join(out, `tone${i}.wav`),
    ]);
  add(
    'wav',
    'compare_audios',
    pairsOf(['tone1', 'tone2', 'tone3'], 'tone0', (n) => join(out, `${n}.wav`)),
  );
  return { cases, skipped };
}
