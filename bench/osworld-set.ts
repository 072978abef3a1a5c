// The OSWorld mixed set of bench/grade.ts: 40 result files over ten formats, each with the gold file an OSWorld
// metric grades it against, made by the real applications (LibreOffice, ImageMagick, ffmpeg) in a scratch
// folder. About half the results match their gold; the others differ in one place.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
  run('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', ...(infilter ? [`--infilter=${infilter}`] : []), '--convert-to', filter, '--outdir', out, ...inputs]);
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
  const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>${i + 1}</td><td>${['East', 'West', 'North'][i % 3]}</td><td>${i === 7 ? 100 + variant : (i * 7) % 23}</td></tr>`);
  return `<html><body><table><tr><th>id</th><th>region</th><th>units</th></tr>${rows.join('')}</table></body></html>`;
}

/** Builds the set under `dir`: the cases, in a fixed order. `formats` limits it (for metrics not registered). */
export function buildOsworldSet(dir: string, has: (metric: string) => boolean): { cases: SetCase[]; skipped: string[] } {
  const cases: SetCase[] = [];
  const skipped: string[] = [];
  const src = join(dir, 'src');
  const out = join(dir, 'out');
  mkdirSync(src, { recursive: true });
  mkdirSync(out, { recursive: true });
  const add = (format: string, metric: string, pairs: [string, string][], options: Record<string, unknown> = {}) => {
    if (!has(metric)) return void skipped.push(`${format} (${metric} is not registered)`);
    for (const [result, expected] of pairs) cases.push({ format, metric, result, expected, options });
  };
  const pairsOf = (names: string[], gold: string, path: (n: string) => string) => names.map((n): [string, string] => [path(n), path(gold)]);

  // Writer documents: docx, pdf and epub from the same pages (variant 0 is the gold, 1 the same text saved
  // again, 2 and 3 one changed word)
  const pages = [0, 0, 1, 2].map((v, i) => {
    const p = join(src, `report${i}.html`);
    writeFileSync(p, reportHtml(v));
    return p;
  });
  soffice(dir, out, 'docx:MS Word 2007 XML', pages, 'HTML (StarWriter)');
  soffice(dir, out, 'pdf:writer_pdf_Export', pages, 'HTML (StarWriter)');
  soffice(dir, out, 'epub', pages, 'HTML (StarWriter)');
  const reports = ['report1', 'report2', 'report3'];
  add('docx', 'compare_docx_files', [...pairsOf(reports, 'report0', (n) => join(out, `${n}.docx`)), [join(out, 'report1.docx'), join(out, 'report2.docx')], [join(out, 'report3.docx'), join(out, 'report1.docx')], [join(out, 'report0.docx'), join(out, 'report0.docx')]]);
  add('pdf', 'compare_pdfs', [...pairsOf(reports, 'report0', (n) => join(out, `${n}.pdf`)), [join(out, 'report3.pdf'), join(out, 'report2.pdf')], [join(out, 'report1.pdf'), join(out, 'report2.pdf')], [join(out, 'report0.pdf'), join(out, 'report0.pdf')]]);
  add('epub', 'compare_epub', pairsOf(['report1', 'report2'], 'report0', (n) => join(out, `${n}.epub`)));

  // Calc workbooks
  const sheets = [0, 0, 1, 2, 0, 3, 4].map((v, i) => {
    const p = join(src, `sheet${i}.html`);
    writeFileSync(p, sheetHtml(v));
    return p;
  });
  soffice(dir, out, 'xlsx:Calc MS Excel 2007 XML', sheets, 'HTML (StarCalc)');
  add('xlsx', 'compare_table', pairsOf(['sheet1', 'sheet2', 'sheet3', 'sheet4', 'sheet5', 'sheet6'], 'sheet0', (n) => join(out, `${n}.xlsx`)), { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }] });

  // Images by ImageMagick: a shape on a canvas, moved or recoloured in some results
  const shapes = ['rectangle 100,100 300,260', 'rectangle 100,100 300,260', 'rectangle 110,100 310,260', 'circle 320,240 400,240', 'rectangle 100,100 300,260', 'rectangle 100,100 300,260', 'rectangle 100,120 300,280'];
  const fills = ['steelblue', 'steelblue', 'steelblue', 'steelblue', 'tomato', 'steelblue', 'steelblue'];
  const images = shapes.map((shape, i) => {
    const p = join(out, `image${i}.png`);
    run('convert', ['-size', '640x480', 'xc:white', '-fill', fills[i], '-draw', shape, p]);
    return p;
  });
  add('png', 'check_structure_sim', images.slice(1).map((p): [string, string] => [p, images[0]]));

  // Slide decks: Impress from the report pages is not possible (HTML opens in Writer); a flat ODF presentation
  // is written instead
  const decks = ['Launch plan', 'Launch plan', 'Launch plans', 'Launch plan', 'Budget'].map((title, i) => {
    const p = join(src, `deck${i}.fodp`);
    writeFileSync(p, flatPresentation(title, i === 3 ? 'Second point, changed' : 'Second point'));
    return p;
  });
  soffice(dir, out, 'pptx:Impress MS PowerPoint 2007 XML', decks);
  add('pptx', 'compare_pptx_files', pairsOf(['deck1', 'deck2', 'deck3', 'deck4'], 'deck0', (n) => join(out, `${n}.pptx`)));

  // CSV and HTML written as the apps would leave them
  const csv = (v: number) => `name,score\nada,${90 + v}\nbob,77\ncy,64\n`;
  for (const [i, v] of [0, 0, 0, 1, 0].entries()) writeFileSync(join(out, `table${i}.csv`), csv(v));
  add('csv', 'compare_csv', pairsOf(['table1', 'table2', 'table3', 'table4'], 'table0', (n) => join(out, `${n}.csv`)));
  for (const [i, v] of [0, 0, 1, 2].entries()) writeFileSync(join(out, `page${i}.html`), reportHtml(v));
  add('html', 'compare_htmls', pairsOf(['page1', 'page2', 'page3'], 'page0', (n) => join(out, `${n}.html`)));

  // Audio by ffmpeg: the same tone, a louder copy, another pitch
  const tones: [number, number][] = [[440, 0.5], [440, 0.5], [440, 0.9], [660, 0.5]];
  for (const [i, [hz, volume]] of tones.entries()) run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=2`, '-af', `volume=${volume}`, join(out, `tone${i}.wav`)]);
  add('wav', 'compare_audios', pairsOf(['tone1', 'tone2', 'tone3'], 'tone0', (n) => join(out, `${n}.wav`)));
  return { cases, skipped };
}

/** A one-slide flat ODF presentation with a title and two bullet points. */
function flatPresentation(title: string, second: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
 <office:body><office:presentation>
  <draw:page draw:name="page1">
   <draw:frame presentation:class="title" svg:x="2cm" svg:y="1cm" svg:width="24cm" svg:height="3cm"><draw:text-box><text:p>${title}</text:p></draw:text-box></draw:frame>
   <draw:frame presentation:class="outline" svg:x="2cm" svg:y="5cm" svg:width="24cm" svg:height="10cm"><draw:text-box><text:list><text:list-item><text:p>First point</text:p></text:list-item><text:list-item><text:p>${second}</text:p></text:list-item></text:list></draw:text-box></draw:frame>
  </draw:page>
 </office:presentation></office:body>
</office:document>
`;
}
