import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricFamilyOf } from '../catalog';
import { departures } from '../profile';
import { runMetric, tempDir } from '../testing/fixtures';
import { hasLibreOffice } from '../testing/libreoffice';
import { soupNodes } from './html-soup';

const roots = {
  bookmark_bar: {
    children: [
      { type: 'folder', name: 'Favorites', children: [] },
      {
        type: 'folder',
        name: 'Liked Authors',
        children: [
          { type: 'url', url: 'https://a.example/1' },
          { type: 'url', url: 'https://b.example/2' },
        ],
      },
      { type: 'url', name: 'Site', url: 'https://c.example/' },
    ],
  },
  other: { children: [] },
};

describe('OSWorld browser-family metrics', () => {
  it('are registered in the browser family', () =>
    expect(metricFamilyOf('is_expected_tabs')).toBe('browser'));

  it('is_expected_tabs compares URLs as OSWorld (www., trailing slash)', async () => {
    const tabs = [{ url: 'https://www.example.com/' }, { url: 'https://docs.example.com/a' }];
    expect(
      (
        await runMetric('is_expected_tabs', tabs, {
          type: 'url',
          urls: ['https://example.com', 'https://docs.example.com/a'],
        })
      ).score,
    ).toBe(1);
    expect(
      (await runMetric('is_expected_tabs', tabs, { type: 'url', urls: ['https://example.com'] })).score,
    ).toBe(0);
  });

  it('is_expected_active_tab and its approximate form', async () => {
    const tab = { url: 'https://example.com/p?q=1', title: 'P' };
    expect(
      (await runMetric('is_expected_active_tab', tab, { type: 'url', url: 'https://example.com/p?q=1' }))
        .score,
    ).toBe(1);
    expect(
      (await runMetric('is_expected_active_tab', tab, { type: 'url', url: 'https://example.com/p' })).score,
    ).toBe(0);
    expect(
      (
        await runMetric('is_expected_active_tab_approximate', tab, {
          type: 'url',
          url: 'https://example.com/p?q=2',
        })
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric('is_expected_active_tab_approximate', tab, {
          type: 'url',
          url: 'https://example.com/x',
        })
      ).score,
    ).toBe(0);
  });

  it('is_expected_bookmarks: bar folders, bar sites, liked-authors choices', async () => {
    expect(
      (
        await runMetric('is_expected_bookmarks', roots, {
          type: 'bookmark_bar_folders_names',
          names: ['Liked Authors', 'Favorites'],
        })
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric('is_expected_bookmarks', roots, {
          type: 'bookmark_bar_folders_names',
          names: ['Favorites'],
        })
      ).score,
    ).toBe(0);
    expect(
      (
        await runMetric('is_expected_bookmarks', roots, {
          type: 'bookmark_bar_websites_urls',
          urls: ['https://c.example/'],
        })
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric('is_expected_bookmarks', roots, {
          type: 'liked_authors_websites_urls',
          urls: [['https://x.example', 'https://a.example/1'], 'https://b.example/2'],
        })
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric('is_expected_bookmarks', roots, {
          type: 'liked_authors_websites_urls',
          urls: ['https://a.example/1'],
        })
      ).score,
    ).toBe(0);
    expect(
      (await runMetric('is_expected_bookmarks', {}, { type: 'bookmark_bar_folders_names', names: [] })).score,
    ).toBe(0);
  });

  it('is_expected_search_query, is_expected_installed_extensions', async () => {
    expect(
      (
        await runMetric(
          'is_expected_search_query',
          { url: 'https://www.google.com/search?q=cats' },
          { expect: { pattern: 'q=cats' } },
        )
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric(
          'is_expected_search_query',
          { url: 'https://www.google.com/search?q=dogs' },
          { expect: { pattern: 'q=cats' } },
        )
      ).score,
    ).toBe(0);
    expect(
      (
        await runMetric('is_expected_installed_extensions', ['Dark Reader', 'uBlock'], {
          expected: ['uBlock'],
        })
      ).score,
    ).toBe(1);
    expect(
      (await runMetric('is_expected_installed_extensions', ['Dark Reader'], { expected: ['uBlock'] })).score,
    ).toBe(0);
  });

  it('is_cookie_deleted and check_history_deleted read the rows the getters return', async () => {
    const cookies = [
      [1, '.example.com', 'sid'],
      [2, 'news.example.org', 'x'],
    ];
    expect(
      (await runMetric('is_cookie_deleted', cookies, { type: 'domains', domains: ['.other.com'] })).score,
    ).toBe(1);
    expect(
      (await runMetric('is_cookie_deleted', cookies, { type: 'domains', domains: ['news.example.org'] }))
        .score,
    ).toBe(0);
    const history = [
      ['https://shop.example/item', 'Item', 1],
      ['https://news.example/', 'News', 2],
    ];
    expect(
      (await runMetric('check_history_deleted', history, { type: 'keywords', keywords: ['youtube'] })).score,
    ).toBe(1);
    expect(
      (await runMetric('check_history_deleted', history, { type: 'keywords', keywords: ['shop'] })).score,
    ).toBe(0);
  });

  it('is_shortcut_on_desktop, check_enabled_experiments, check_font_size, is_added_to_steam_cart', async () => {
    const shortcuts = {
      'gmail.desktop':
        '[Desktop Entry]\nName=Gmail\nExec=chromium --app=https://mail.google.com\nType=Application\n',
    };
    expect(
      (await runMetric('is_shortcut_on_desktop', shortcuts, { type: 'name', name: 'Gmail' })).score,
    ).toBe(1);
    expect((await runMetric('is_shortcut_on_desktop', shortcuts, { type: 'name', name: 'Mail' })).score).toBe(
      0,
    );
    expect(
      (
        await runMetric('check_enabled_experiments', ['tab-groups@1', 'smooth-scrolling@2'], {
          type: 'names',
          names: ['tab-groups', 'smooth-scrolling'],
        })
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric('check_enabled_experiments', ['tab-groups@1'], {
          type: 'names',
          names: ['smooth-scrolling'],
        })
      ).score,
    ).toBe(0);
    expect(
      (await runMetric('check_font_size', { default_font_size: 20 }, { type: 'range', min: 16, max: 24 }))
        .score,
    ).toBe(1);
    expect(
      (await runMetric('check_font_size', { default_font_size: 16 }, { type: 'value', value: 20 })).score,
    ).toBe(0);
    expect(
      (
        await runMetric(
          'is_added_to_steam_cart',
          { content: 'Your cart: Portal 2, Half-Life' },
          { items: ['Portal 2'] },
        )
      ).score,
    ).toBe(1);
    expect(
      (await runMetric('is_added_to_steam_cart', { content: 'Your cart is empty' }, { items: ['Portal 2'] }))
        .score,
    ).toBe(0);
  });
});

describe.skipIf(!hasLibreOffice)('compare_htmls on HTML LibreOffice saved', () => {
  const tmp = tempDir();
  let a: string;
  let b: string;
  /** A variant of a.html written next to it. */
  const variant = (name: string, edit: (html: string) => string) => {
    const path = join(tmp.dir, name);
    writeFileSync(path, edit(readFileSync(a, 'utf8')));
    return path;
  };
  beforeAll(() => {
    writeFileSync(join(tmp.dir, 'a.txt'), 'Hello\nWorld\n');
    writeFileSync(join(tmp.dir, 'b.txt'), 'Hello\nMars\n');
    // one soffice launch saves both
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${join(tmp.dir, 'lo-profile')}`,
        '--headless',
        '--convert-to',
        'html:HTML (StarWriter)',
        '--outdir',
        tmp.dir,
        join(tmp.dir, 'a.txt'),
        join(tmp.dir, 'b.txt'),
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    a = join(tmp.dir, 'a.html');
    b = join(tmp.dir, 'b.html');
  });
  afterAll(() => tmp.cleanup());

  it('is in the browser family and names its departure', () => {
    expect(metricFamilyOf('compare_htmls')).toBe('browser');
    expect(departures().some((d) => d.metric === 'compare_htmls')).toBe(true);
  });

  it('scores 1 for the same page, also re-indented where libxml2 drops the whitespace or with class words respaced', async () => {
    expect((await runMetric('compare_htmls', a, a)).score).toBe(1);
    const flat = variant('flat.html', (h) =>
      h.replace(/>\s+</g, (m, off: number, all: string) => (all.slice(0, off).includes('<body') ? m : '><')),
    );
    expect(readFileSync(flat, 'utf8')).not.toBe(readFileSync(a, 'utf8'));
    expect((await runMetric('compare_htmls', flat, a)).score).toBe(1);
    const spaced = variant('spaced.html', (h) => h.replace('class="western"', 'class="  western "'));
    expect((await runMetric('compare_htmls', a, spaced)).score).toBe(1);
  });

  it('scores 0 when the text, an attribute or the whitespace libxml2 keeps differs, or a file is missing', async () => {
    expect((await runMetric('compare_htmls', a, b)).score).toBe(0);
    expect(
      (
        await runMetric(
          'compare_htmls',
          a,
          variant('lang.html', (h) => h.replace('lang="en-US"', 'lang="en-GB"')),
        )
      ).score,
    ).toBe(0);
    expect(
      (
        await runMetric(
          'compare_htmls',
          a,
          variant('ws.html', (h) => h.replace('</pre>', '</pre> <span></span>')),
        )
      ).score,
    ).toBe(0);
    expect((await runMetric('compare_htmls', a, join(tmp.dir, 'absent.html'))).score).toBe(0);
  });
});

describe('HTML read as BeautifulSoup over lxml', () => {
  it('implies html and body, and a <p> around bare text', () => {
    const tags = (h: string) => soupNodes(h).map((n) => ('tag' in n ? n.tag : JSON.stringify(n.string)));
    expect(tags('<p>x</p>')).toEqual(tags('<html><body><p>x</p></body></html>'));
    expect(tags('<title>t</title><p>x</p>')).toEqual(['html', 'head', 'title', '"t"', 'body', 'p', '"x"']);
    expect(tags('hello')).toEqual(['html', 'body', 'p', '"hello"']);
    expect(tags('<table>\n<tr><td>a</td>\n</tr></table>')).not.toContain('"\\n"');
    expect(tags('<p>a</p>\n<p>b</p>')).toContain('"\\n"');
  });
});
