import { describe, expect, it } from 'vitest';
import { demoSitePages } from './serve-demo-site';
import { setupFuncs } from './index';

describe('serve_demo_site', () => {
  it('is registered in the setup registry once the demo module is loaded', () => {
    expect(setupFuncs.has('serve_demo_site')).toBe(true);
  });

  it('takes one page or a list of pages, relative to the demo site', () => {
    expect(demoSitePages({ path: 'order.html' })).toEqual(['order.html']);
    expect(demoSitePages({ path: '/status.html?x=1' })).toEqual(['status.html?x=1']);
    expect(demoSitePages({ paths: ['index.html', 'order.html'] })).toEqual(['index.html', 'order.html']);
    expect(demoSitePages({})).toEqual(['index.html']);
  });

  it('refuses URLs, parent folders and malformed arguments with a message naming the argument', () => {
    expect(() => demoSitePages({ path: 'http://example.com/' })).toThrow(
      /'path'.*not a page of the demo site/,
    );
    expect(() => demoSitePages({ path: '../../package.json' })).toThrow(/not a page of the demo site/);
    expect(() => demoSitePages({ path: 'a\\b' })).toThrow(/not a page/);
    expect(() => demoSitePages({ paths: [] })).toThrow(/non-empty list/);
    expect(() => demoSitePages({ paths: ['ok.html', 3] })).toThrow(/'paths'\[1\]/);
    expect(() => demoSitePages({ path: 'a.html', paths: ['b.html'] })).toThrow(/not both/);
  });
});
