// Test helper: presentations saved by the real LibreOffice Impress (Debian's `soffice --headless --convert-to
// pptx`), from flat ODF presentations (`.fodp`) written by the test. Several files convert in one soffice launch,
// with its own profile. Tests skip where LibreOffice is not installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const hasImpress = spawnSync('sh', ['-c', 'command -v soffice']).status === 0;

const NS = [
  'office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xlink="http://www.w3.org/1999/xlink"',
  'svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'smil="urn:oasis:names:tc:opendocument:xmlns:smil-compatible:1.0"',
  'anim="urn:oasis:names:tc:opendocument:xmlns:animation:1.0"',
]
  .map((n) => `xmlns:${n}`)
  .join(' ');

export interface FodpParts {
  /** The `<draw:page>` elements (each with draw:master-page-name="Default" unless it names its own). */
  pages: string;
  /** Automatic styles (`<style:style>` …) the pages name. */
  styles?: string;
  /** Shapes on the master page "Default" (a page-number frame, …). */
  master?: string;
  /** Page size in cm (default 28 × 15.75, landscape). */
  width?: number;
  height?: number;
}

/** A flat ODF presentation: one master page "Default" of the given size, the given automatic styles and pages. */
export function fodp(parts: FodpParts): string {
  const w = parts.width ?? 28;
  const h = parts.height ?? 15.75;
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:styles/>
<office:automatic-styles>
<style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="${w}cm" fo:page-height="${h}cm" style:print-orientation="${w < h ? 'portrait' : 'landscape'}"/></style:page-layout>
${parts.styles ?? ''}
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1">${parts.master ?? ''}</style:master-page></office:master-styles>
<office:body><office:presentation>
${parts.pages}
</office:presentation></office:body>
</office:document>
`;
}

/** Saves each `<name>.fodp` source as `<dir>/<name>.pptx` through one LibreOffice launch (its own profile under
 * `dir`); the saved files' paths by name. */
export function saveAsPptx(dir: string, sources: Record<string, string>): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const inputs = Object.entries(sources).map(([name, source]) => {
    const src = join(dir, `${name}.fodp`);
    writeFileSync(src, source);
    return src;
  });
  const profile = join(dir, 'lo-impress-profile');
  mkdirSync(profile, { recursive: true });
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      '--convert-to',
      'pptx',
      '--outdir',
      dir,
      ...inputs,
    ],
    { stdio: 'ignore', timeout: 180_000 },
  );
  return Object.fromEntries(Object.keys(sources).map((name) => [name, join(dir, `${name}.pptx`)]));
}

/**
 * A deck saved as pptx by Impress for the slide-media getters: slide 1 has a picture background (a teal PNG by
 * ImageMagick) and a sound linked at the guest's /home/user/Music/beep.wav (a sine by ffmpeg); slide 2 has
 * neither. The deck's host path and the two media files' bytes.
 */
export function mediaDeck(dir: string): { deck: string; png: Buffer; wav: Buffer } {
  const png = execFileSync('convert', ['-size', '32x24', 'xc:teal', 'png:-']);
  const wav = execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=0.5',
    '-f',
    'wav',
    '-',
  ]);
  const source = fodp({
    styles: `<style:style style:name="bg" style:family="drawing-page"><style:drawing-page-properties draw:fill="bitmap" draw:fill-image-name="bgimg"/></style:style>`,
    pages: `<draw:page draw:name="p1" draw:style-name="bg" draw:master-page-name="Default">
<draw:frame svg:x="1cm" svg:y="5cm" svg:width="3cm" svg:height="3cm"><draw:plugin xlink:href="file:///home/user/Music/beep.wav" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad" draw:mime-type="application/vnd.sun.star.media"/></draw:frame>
</draw:page>
<draw:page draw:name="p2" draw:master-page-name="Default"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="10cm" svg:height="2cm"><draw:text-box><text:p>Plain</text:p></draw:text-box></draw:frame></draw:page>`,
  }).replace(
    '<office:styles/>',
    `<office:styles><draw:fill-image draw:name="bgimg"><office:binary-data>${png.toString('base64')}</office:binary-data></draw:fill-image></office:styles>`,
  );
  const { talk } = saveAsPptx(join(dir, 'decks'), { talk: source });
  return { deck: talk, png, wav };
}
