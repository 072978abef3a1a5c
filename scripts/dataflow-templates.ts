// Writes Proctor's own dataflow template documents (resources/dataflow/templates/<app>/) with their
// description.json: Writer documents as ODF packages (jszip), Calc workbooks as xlsx (exceljs). To change them,
// edit here, run `npx tsx scripts/dataflow-templates.ts` and commit the output. With `--screenshots` it also opens
// each in GUI LibreOffice on a sandbox display and saves images/<file>.jpg, which a served chooser is shown
// labelled by the file name (the stand-in reads the descriptions only).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import sharp from 'sharp';
import { readFileSync } from 'node:fs';
import { createLocalEnvironment } from '../src/main/env/local/local-environment';
import { OfficeDocument } from '../src/main/dataflow/pipeline/office';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../resources/dataflow/templates');
const FIXED_DATE = new Date('2026-01-01T00:00:00Z');

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

async function odt(file: string, body: string, kind: 'text' | 'presentation' = 'text'): Promise<void> {
  const zip = new JSZip();
  const opts = { date: FIXED_DATE };
  const mime = `application/vnd.oasis.opendocument.${kind}`;
  zip.file('mimetype', mime, { ...opts, compression: 'STORE' });
  zip.file(
    'META-INF/manifest.xml',
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
      `<manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/>` +
      '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    opts,
  );
  zip.file(
    'content.xml',
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS} office:version="1.3"><office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>`,
    opts,
  );
  writeFileSync(
    file,
    await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', platform: 'UNIX' }),
  );
}

const p = (s: string, style = 'Standard') => `<text:p text:style-name="${style}">${esc(s)}</text:p>`;
const h = (s: string) => `<text:h text:outline-level="1">${esc(s)}</text:h>`;
const list = (items: string[]) =>
  `<text:list>${items.map((i) => `<text:list-item>${p(i)}</text:list-item>`).join('')}</text:list>`;
const table = (rows: string[][]) =>
  `<table:table table:name="Table1"><table:table-column table:number-columns-repeated="${rows[0].length}"/>${rows
    .map(
      (r) =>
        `<table:table-row>${r.map((c) => `<table:table-cell office:value-type="string">${p(c)}</table:table-cell>`).join('')}</table:table-row>`,
    )
    .join('')}</table:table>`;

async function workbook(file: string, sheet: string, rows: (string | number)[][]): Promise<void> {
  const wb = new ExcelJS.Workbook();
  wb.created = FIXED_DATE;
  wb.modified = FIXED_DATE;
  const ws = wb.addWorksheet(sheet);
  for (const r of rows) ws.addRow(r);
  ws.columns.forEach((c) => (c.width = 14));
  writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
}

async function main(): Promise<void> {
  const writer = join(root, 'writer');
  const calc = join(root, 'calc');
  mkdirSync(writer, { recursive: true });
  mkdirSync(calc, { recursive: true });

  await odt(
    join(writer, 'memo.odt'),
    h('Team memo') +
      p('This is a line of text to edit.') +
      p('The meeting moves to Thursday at ten.') +
      p('Please bring the quarterly figures.'),
  );
  await odt(join(writer, 'shopping.odt'), h('Shopping list') + list(['Apples', 'Bread', 'Coffee', 'Milk']));
  await odt(
    join(writer, 'contacts.odt'),
    h('Phone contacts') +
      table([
        ['Name', 'Phone'],
        ['Ada', '555-0101'],
        ['Grace', '555-0102'],
        ['Linus', '555-0103'],
      ]),
  );
  writeFileSync(
    join(writer, 'description.json'),
    JSON.stringify(
      {
        'memo.odt':
          'A short text memo: a heading "Team memo" and three lines of plain text, including a line of text to edit. For formatting words or lines (bold, italic, underline), adding or changing sentences and paragraphs.',
        'shopping.odt':
          'A bulleted shopping list of four items under a heading. For editing, adding or reordering list items.',
        'contacts.odt':
          'A table of names and phone numbers (two columns, four rows) under a heading. For editing table cells, rows and columns.',
      },
      null,
      2,
    ) + '\n',
  );

  const impress = join(root, 'impress');
  mkdirSync(impress, { recursive: true });
  const frame = (y: number, h: number, inner: string) =>
    `<draw:frame svg:x="2cm" svg:y="${y}cm" svg:width="24cm" svg:height="${h}cm"><draw:text-box>${inner}</draw:text-box></draw:frame>`;
  await odt(
    join(impress, 'review.odp'),
    `<draw:page draw:name="Slide 1">${frame(2, 3, p('Quarterly review'))}${frame(6, 8, list(['Sales grew in every region', 'Costs stayed flat', 'Hiring starts in May']))}</draw:page>`,
    'presentation',
  );
  await odt(
    join(impress, 'welcome.odp'),
    `<draw:page draw:name="Slide 1">${frame(5, 4, p('Welcome to the team'))}</draw:page>`,
    'presentation',
  );
  writeFileSync(
    join(impress, 'description.json'),
    JSON.stringify(
      {
        'review.odp':
          'A one-slide presentation: the title "Quarterly review" over three bullet points about sales, costs and hiring. For formatting the title or bullets, editing or adding bullet points.',
        'welcome.odp':
          'A single slide with one line of large text, "Welcome to the team". For formatting or rewording a slide title.',
      },
      null,
      2,
    ) + '\n',
  );

  await workbook(join(calc, 'sales.xlsx'), 'Sales', [
    ['Region', 'Q1', 'Q2'],
    ['North', 120, 135],
    ['South', 98, 110],
    ['East', 143, 150],
    ['West', 87, 95],
  ]);
  await workbook(join(calc, 'budget.xlsx'), 'Budget', [
    ['Item', 'Cost'],
    ['Rent', 1200],
    ['Food', 450],
    ['Travel', 180],
  ]);
  await workbook(join(calc, 'roster.xlsx'), 'Roster', [
    ['Name', 'Team', 'Start'],
    ['Ada', 'Red', '2025-01-06'],
    ['Grace', 'Blue', '2025-02-03'],
    ['Linus', 'Red', '2025-03-10'],
  ]);
  writeFileSync(
    join(calc, 'description.json'),
    JSON.stringify(
      {
        'sales.xlsx':
          'A sales spreadsheet: a header row (Region, Q1, Q2) over four regions with numeric quarterly sales figures. For formatting the header, adding totals, sums or averages of the numbers, sorting, charts.',
        'budget.xlsx':
          'A household budget: items with their cost in one numeric column. For totals of the costs and number formats.',
        'roster.xlsx':
          'A team roster: names, team colours and start dates (text only). For filtering, sorting and text edits.',
      },
      null,
      2,
    ) + '\n',
  );
  process.stdout.write(`templates written under ${root}\n`);
  if (process.argv.includes('--screenshots')) await screenshots([writer, calc, impress]);
}

/** A 640-pixel-wide JPEG of each template as GUI LibreOffice shows it, in <folder>/images/<file>.jpg. */
async function screenshots(folders: string[]): Promise<void> {
  const env = await createLocalEnvironment({ width: 1280, height: 800 });
  try {
    for (const folder of folders) {
      mkdirSync(join(folder, 'images'), { recursive: true });
      const descriptions = JSON.parse(readFileSync(join(folder, 'description.json'), 'utf8')) as Record<
        string,
        string
      >;
      for (const file of Object.keys(descriptions)) {
        const doc = await OfficeDocument.open(
          env,
          `/home/user/templates/${file}`,
          readFileSync(join(folder, file)),
        );
        const shot = await env.screenshot({ format: 'png' });
        await doc.close();
        await sharp(shot.data)
          .resize({ width: 640 })
          .jpeg({ quality: 70 })
          .toFile(join(folder, 'images', `${file}.jpg`));
        process.stdout.write(`${join(folder, 'images', `${file}.jpg`)}\n`);
      }
    }
  } finally {
    await env.close();
  }
}

void main();
