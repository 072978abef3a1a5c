import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import JSZip from 'jszip';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import { hasLibreOffice, saveManyWithLibreOffice } from '../testing/libreoffice';
import { difflibRatio, pySplitLines } from './difflib';
import { lxmlPrettyHtml } from './html-lines';

const tmp = tempDir();
afterAll(tmp.cleanup);

const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;

/** The book LibreOffice wrote, laid out as calibre lays one out (the layout OSWorld's compare_epub reads):
 * content.opf and toc.ncx at the top, the pages as top-level .html files. */
async function calibreLayout(epub: string): Promise<string> {
  const from = await JSZip.loadAsync(readFileSync(epub));
  const to = new JSZip();
  for (const [name, file] of Object.entries(from.files)) {
    if (file.dir) continue;
    const base = name.split('/').at(-1)!;
    const target = name.startsWith('OEBPS/sections/') ? base.replace(/\.xhtml$/, '.html') : ['OEBPS/content.opf', 'OEBPS/toc.ncx'].includes(name) ? base : name;
    to.file(target, await file.async('nodebuffer'));
  }
  const out = epub.replace(/\.epub$/, '-calibre.epub');
  writeFileSync(out, await to.generateAsync({ type: 'nodebuffer' }));
  return out;
}

describe('difflib and the lxml page printer', () => {
  it('difflibRatio is Python difflib.SequenceMatcher(None, a, b).ratio(), autojunk included', () => {
    expect(difflibRatio(['a', 'b', 'c', 'd'], ['a', 'c', 'd', 'e'])).toBe(0.75);
    // values printed by Python 3.11's difflib
    const a = Array.from({ length: 250 }, (_, i) => `x${i % 7}`).concat(['end']);
    const b = Array.from({ length: 240 }, (_, i) => `x${i % 5}`).concat(['end', 'y']);
    expect(difflibRatio(a, b)).toBeCloseTo(0.04462474645030426, 12);
    const c = Array.from({ length: 300 }, (_, i) => `p${i}`);
    expect(difflibRatio(c, [...c.slice(0, 150), 'q', 'q', 'q', 'q', 'q', ...c.slice(150)])).toBeCloseTo(0.9917355371900827, 12);
    expect(difflibRatio([], [])).toBe(1);
    expect(pySplitLines('a\r\nb\x1dc\n')).toEqual(['a', 'b', 'c']);
  });

  it('lxmlPrettyHtml prints a calibre-like page as lxml 4.9.2 (libxml2 2.9.14) printed it', () => {
    // kept whitespace, no newline around inline elements, URIs escaped, Content-Type meta left out
    const source = "<?xml version='1.0' encoding='utf-8'?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\">\n  <head>\n    <title>Book &amp; Co</title>\n    <meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\"/>\n    <link rel=\"stylesheet\" type=\"text/css\" href=\"stylesheet.css\"/>\n  </head>\n  <body class=\"calibre\">\n    <div class=\"calibre1\">\n      <h2 class=\"block\" id=\"c1\">Chapter 1 <a href=\"#x y\">link \u00e9</a></h2>\n      <p class=\"p\">It was a <i>bright</i> cold day.</p>\n      <p class=\"p\"> </p>\n      <!-- comment -->\n      <p class=\"p\">Line<br/>break &lt;x&gt; &#160;nbsp</p>\n      <ul><li>one</li><li>two <b>b</b></li></ul>\n      <div class=\"x\"><img src=\"images/a b.png\" alt=\"A &quot;q&quot;\"/></div>\n      <section><p>in section</p><p>two</p></section>\n      <pre>  keep   spaces  </pre>\n      <table><tr><td> a </td> <td>b</td></tr></table>\n    </div>\n  </body>\n</html>\n";
    expect(lxmlPrettyHtml(source)).toBe("<html xmlns=\"http://www.w3.org/1999/xhtml\">  <head>    <title>Book &amp; Co</title>        <link rel=\"stylesheet\" type=\"text/css\" href=\"stylesheet.css\">  </head>  <body class=\"calibre\">    <div class=\"calibre1\">      <h2 class=\"block\" id=\"c1\">Chapter 1 <a href=\"#x%20y\">link \u00e9</a>\n</h2>      <p class=\"p\">It was a <i>bright</i> cold day.</p>      <p class=\"p\"> </p>      <!-- comment -->      <p class=\"p\">Line<br>break &lt;x&gt; \u00a0nbsp</p>      <ul>\n<li>one</li>\n<li>two <b>b</b>\n</li>\n</ul>      <div class=\"x\"><img src=\"images/a%20b.png\" alt='A \"q\"'></div>      <section><p>in section</p>\n<p>two</p></section>      <pre>  keep   spaces  </pre>      <table><tr>\n<td> a </td> <td>b</td>\n</tr></table>    </div>  </body>\n</html>\n");
  });

  it('lxmlPrettyHtml breaks lines after block elements only, as libxml2 does', () => {
    const xhtml = '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><meta charset="utf-8"/><title>T</title></head>\n<body><p class="a"><span>One</span> <b>two</b></p><table><tbody><tr><td><p>x</p></td><td>y</td></tr></tbody></table><div>z</div></body></html>';
    expect(lxmlPrettyHtml(xhtml)).toBe(
      '<html xmlns="http://www.w3.org/1999/xhtml">\n<head>\n<meta charset="utf-8">\n<title>T</title>\n</head>\n<body>\n<p class="a"><span>One</span> <b>two</b></p>\n<table><tbody><tr>\n<td><p>x</p></td>\n<td>y</td>\n</tr></tbody></table>\n<div>z</div>\n</body>\n</html>\n',
    );
  });
});

describe.skipIf(!hasLibreOffice)('compare_epub on books LibreOffice saved', () => {
  let f: Record<string, string> = {};
  beforeAll(async () => {
    const chapter = ['<h1>Chapter one</h1>', '<p>It was a bright cold day in April.</p>', '<p>The clocks were striking thirteen.</p>', '<ul><li>first</li><li>second</li></ul>'];
    f = saveManyWithLibreOffice(
      tmp.dir,
      {
        book: page(chapter.join('')),
        same: page(chapter.join('')),
        other: page([...chapter.slice(0, 2), '<p>The bells were ringing noon.</p>', chapter[3]].join('')),
      },
      'epub',
    );
    for (const name of ['book', 'same', 'other']) f[`${name}Calibre`] = await calibreLayout(f[name]);
  }, 180_000);

  it('is in the documents family', () => expect(metricFamilyOf('compare_epub')).toBe('documents'));

  it('the same book scores 1, a changed sentence a fraction', async () => {
    expect((await runMetric('compare_epub', f.sameCalibre, f.bookCalibre)).score).toBe(1);
    // OSWorld's process_epub + diff_text_file (Python 3.11, lxml 4.9.2) on the same two books: 0.9743589743589745
    expect((await runMetric('compare_epub', f.otherCalibre, f.bookCalibre)).score).toBeCloseTo(0.9743589743589745, 12);
  });

  it("LibreOffice's own layout (OEBPS/, .xhtml) scores 0, even against itself, as in OSWorld", async () => {
    const own = await runMetric('compare_epub', f.same, f.book);
    expect(own.score).toBe(0);
    expect(own.reason).toMatch(/no toc.ncx, content.opf or .html page/);
  });

  it('a missing result scores 0', async () => {
    expect((await runMetric('compare_epub', undefined, f.bookCalibre)).score).toBe(0);
    expect((await runMetric('compare_epub', `${tmp.dir}/absent.epub`, f.bookCalibre)).score).toBe(0);
  });
});

describe('pySplitLines on a page', () => {
  it('splits the printed page into its lines', () => {
    expect(pySplitLines(lxmlPrettyHtml('<html><head></head><body><p>a</p><p>b</p></body></html>'))).toEqual(['<html>', '<head></head>', '<body>', '<p>a</p>', '<p>b</p>', '</body>', '</html>']);
  });
});
