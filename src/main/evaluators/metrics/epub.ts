// OSWorld's compare_epub (family `documents`; others.py): two EPUB books (ZIP files, read with jszip) compared
// part by part on their lines, as OSWorld extracts them: toc.ncx and content.opf at the top of the archive
// (without the lines naming navPoint / dc:identifier) and every .html page, pretty-printed (html-lines.ts).
import JSZip from 'jszip';
import { registerMetricFamily } from '../family';
import { fail, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { difflibRatio, pySplitLines } from './difflib';
import { lxmlPrettyHtml } from './html-lines';
import { brief, readBytes } from './inputs';

interface Part {
  name: string;
  lines: string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The parts OSWorld's process_epub extracts, sorted by name; `null` for a file that is not a ZIP (OSWorld reads
 * it as having no parts); or why OSWorld would raise. */
async function epubParts(path: unknown, side: string): Promise<Part[] | string | null> {
  const bytes = await readBytes(path);
  if (!bytes) return `${side} EPUB ${brief(path)} cannot be read (OSWorld raises)`;
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    return null;
  }
  const parts: Part[] = [];
  try {
    const text = async (name: string) => utf8.decode(await zip.file(name)!.async('uint8array'));
    if (zip.file('toc.ncx'))
      parts.push({
        name: 'toc.ncx',
        lines: pySplitLines(await text('toc.ncx')).filter((l) => !l.includes('navPoint')),
      });
    if (zip.file('content.opf'))
      parts.push({
        name: 'content.opf',
        lines: pySplitLines(await text('content.opf')).filter((l) => !l.includes('dc:identifier')),
      });
    for (const name of Object.keys(zip.files)) {
      if (!name.endsWith('.html') || zip.files[name].dir) continue;
      // OSWorld writes each page beside the extracted files without making folders: a page in a folder fails
      if (name.includes('/'))
        return `${side} EPUB has the page ${name} in a folder (OSWorld raises: it cannot write it out)`;
      parts.push({ name, lines: pySplitLines(lxmlPrettyHtml(await text(name))) });
    }
  } catch (e) {
    return `${side} EPUB has a part that is not UTF-8 text (OSWorld raises): ${(e as Error).message}`;
  }
  return parts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * compare_epub — `result`, `expected`: EPUB files. The parts of each (top-level toc.ncx and content.opf less
 * their navPoint / dc:identifier lines, and the top-level .html pages as lxml pretty-prints them) are sorted
 * by name and paired in order; the score is the sum of the pairs' line similarities (difflib's ratio) over the
 * result's number of parts (fractional). A book with none of these parts at the top (e.g. LibreOffice's EPUB
 * export, which keeps them under OEBPS/ as .xhtml) scores 0, as in OSWorld. calibre's books have that layout, but
 * each conversion writes its own calibre:timestamp (content.opf) and dtb:uid (toc.ncx), which are compared: two
 * conversions of the same document score just under 1, as in OSWorld.
 */
async function compareEpub(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (result === undefined || result === null) return fail('the result EPUB is missing');
  const [a, b] = await Promise.all([
    epubParts(result, 'result'),
    epubParts(expected, 'expected').then((p) => p ?? []),
  ]);
  if (typeof a === 'string') return fail(a);
  if (typeof b === 'string') return fail(b);
  if (a === null) return fail(`the result EPUB ${brief(result)} is not a ZIP package, so it has no parts`);
  if (a.length === 0)
    return fail('the result EPUB has no toc.ncx, content.opf or .html page at its top level');
  let sum = 0;
  const each: string[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const r = difflibRatio(a[i].lines, b[i].lines);
    sum += r;
    each.push(`${a[i].name} ~ ${b[i].name}: ${r.toFixed(3)}`);
  }
  const score = sum / a.length;
  return { score, reason: `${a.length} parts against ${b.length}; ${brief(each.join(', '), 300)}` };
}

registerMetricFamily('documents', { compare_epub: compareEpub });

registerDeparture({
  metric: 'compare_epub',
  profile: 'osworld',
  case: 'line breaks of the .html pages',
  why: "OSWorld diffs the lines lxml's libxml2 HTML serializer prints; Proctor prints pages with the same newline rules on htmlparser2's parse, so a page libxml2 repairs or whose whitespace it keeps differently can score a slightly different fraction (identical pages still score 1)",
});
