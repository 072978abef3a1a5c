import { describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric } from '../testing/fixtures';

const roots = {
  bookmark_bar: {
    children: [
      { type: 'folder', name: 'Favorites', children: [] },
      { type: 'folder', name: 'Liked Authors', children: [{ type: 'url', url: 'https://a.example/1' }, { type: 'url', url: 'https://b.example/2' }] },
      { type: 'url', name: 'Site', url: 'https://c.example/' },
    ],
  },
  other: { children: [] },
};

describe('OSWorld browser-family metrics', () => {
  it('are registered in the browser family', () => expect(metricFamilyOf('is_expected_tabs')).toBe('browser'));

  it('is_expected_tabs compares URLs as OSWorld (www., trailing slash)', async () => {
    const tabs = [{ url: 'https://www.example.com/' }, { url: 'https://docs.example.com/a' }];
    expect((await runMetric('is_expected_tabs', tabs, { type: 'url', urls: ['https://example.com', 'https://docs.example.com/a'] })).score).toBe(1);
    expect((await runMetric('is_expected_tabs', tabs, { type: 'url', urls: ['https://example.com'] })).score).toBe(0);
  });

  it('is_expected_active_tab and its approximate form', async () => {
    const tab = { url: 'https://example.com/p?q=1', title: 'P' };
    expect((await runMetric('is_expected_active_tab', tab, { type: 'url', url: 'https://example.com/p?q=1' })).score).toBe(1);
    expect((await runMetric('is_expected_active_tab', tab, { type: 'url', url: 'https://example.com/p' })).score).toBe(0);
    expect((await runMetric('is_expected_active_tab_approximate', tab, { type: 'url', url: 'https://example.com/p?q=2' })).score).toBe(1);
    expect((await runMetric('is_expected_active_tab_approximate', tab, { type: 'url', url: 'https://example.com/x' })).score).toBe(0);
  });

  it('is_expected_bookmarks: bar folders, bar sites, liked-authors choices', async () => {
    expect((await runMetric('is_expected_bookmarks', roots, { type: 'bookmark_bar_folders_names', names: ['Liked Authors', 'Favorites'] })).score).toBe(1);
    expect((await runMetric('is_expected_bookmarks', roots, { type: 'bookmark_bar_folders_names', names: ['Favorites'] })).score).toBe(0);
    expect((await runMetric('is_expected_bookmarks', roots, { type: 'bookmark_bar_websites_urls', urls: ['https://c.example/'] })).score).toBe(1);
    expect((await runMetric('is_expected_bookmarks', roots, { type: 'liked_authors_websites_urls', urls: [['https://x.example', 'https://a.example/1'], 'https://b.example/2'] })).score).toBe(1);
    expect((await runMetric('is_expected_bookmarks', roots, { type: 'liked_authors_websites_urls', urls: ['https://a.example/1'] })).score).toBe(0);
    expect((await runMetric('is_expected_bookmarks', {}, { type: 'bookmark_bar_folders_names', names: [] })).score).toBe(0);
  });

  it('is_expected_search_query, is_expected_installed_extensions', async () => {
    expect((await runMetric('is_expected_search_query', { url: 'https://www.google.com/search?q=cats' }, { expect: { pattern: 'q=cats' } })).score).toBe(1);
    expect((await runMetric('is_expected_search_query', { url: 'https://www.google.com/search?q=dogs' }, { expect: { pattern: 'q=cats' } })).score).toBe(0);
    expect((await runMetric('is_expected_installed_extensions', ['Dark Reader', 'uBlock'], { expected: ['uBlock'] })).score).toBe(1);
    expect((await runMetric('is_expected_installed_extensions', ['Dark Reader'], { expected: ['uBlock'] })).score).toBe(0);
  });

  it('is_cookie_deleted and check_history_deleted read the rows the getters return', async () => {
    const cookies = [[1, '.example.com', 'sid'], [2, 'news.example.org', 'x']];
    expect((await runMetric('is_cookie_deleted', cookies, { type: 'domains', domains: ['.other.com'] })).score).toBe(1);
    expect((await runMetric('is_cookie_deleted', cookies, { type: 'domains', domains: ['news.example.org'] })).score).toBe(0);
    const history = [['https://shop.example/item', 'Item', 1], ['https://news.example/', 'News', 2]];
    expect((await runMetric('check_history_deleted', history, { type: 'keywords', keywords: ['youtube'] })).score).toBe(1);
    expect((await runMetric('check_history_deleted', history, { type: 'keywords', keywords: ['shop'] })).score).toBe(0);
  });

  it('is_shortcut_on_desktop, check_enabled_experiments, check_font_size, is_added_to_steam_cart', async () => {
    const shortcuts = { 'gmail.desktop': '[Desktop Entry]\nName=Gmail\nExec=chromium --app=https://mail.google.com\nType=Application\n' };
    expect((await runMetric('is_shortcut_on_desktop', shortcuts, { type: 'name', name: 'Gmail' })).score).toBe(1);
    expect((await runMetric('is_shortcut_on_desktop', shortcuts, { type: 'name', name: 'Mail' })).score).toBe(0);
    expect((await runMetric('check_enabled_experiments', ['tab-groups@1', 'smooth-scrolling@2'], { type: 'names', names: ['tab-groups', 'smooth-scrolling'] })).score).toBe(1);
    expect((await runMetric('check_enabled_experiments', ['tab-groups@1'], { type: 'names', names: ['smooth-scrolling'] })).score).toBe(0);
    expect((await runMetric('check_font_size', { default_font_size: 20 }, { type: 'range', min: 16, max: 24 })).score).toBe(1);
    expect((await runMetric('check_font_size', { default_font_size: 16 }, { type: 'value', value: 20 })).score).toBe(0);
    expect((await runMetric('is_added_to_steam_cart', { content: 'Your cart: Portal 2, Half-Life' }, { items: ['Portal 2'] })).score).toBe(1);
    expect((await runMetric('is_added_to_steam_cart', { content: 'Your cart is empty' }, { items: ['Portal 2'] })).score).toBe(0);
  });
});
