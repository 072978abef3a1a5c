import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startDisplay, type SandboxDisplay } from '../../env/local/display';
import { hasDisplayTools } from '../../env/local/testing/apps';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { getterNeedsOf, getters, metrics } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { chromium, startChromium, stopChromium } from './chrome-testkit';

/** A Bookmarks file in Chromium's own format: a bar folder and a bar site. */
const bookmarksFile = {
  version: 1,
  roots: {
    bookmark_bar: {
      type: 'folder',
      name: 'Bookmarks bar',
      id: '1',
      date_added: '13300000000000000',
      children: [
        { type: 'folder', name: 'Favorites', id: '4', date_added: '13300000000000000', children: [] },
        {
          type: 'url',
          name: 'Docs',
          id: '5',
          date_added: '13300000000000000',
          url: 'https://docs.example.org/',
        },
      ],
    },
    other: {
      type: 'folder',
      name: 'Other bookmarks',
      id: '2',
      date_added: '13300000000000000',
      children: [],
    },
    synced: {
      type: 'folder',
      name: 'Mobile bookmarks',
      id: '3',
      date_added: '13300000000000000',
      children: [],
    },
  },
};

describe.skipIf(!existsSync(chromium) || !hasDisplayTools)(
  'Chrome profile getters on files Chromium wrote (needs /usr/bin/chromium)',
  () => {
    let server: Server;
    let display: SandboxDisplay;
    let browser: ChildProcess;
    let dir: string;
    let env: ShellEnvironment;
    let ctx: GradingContext;
    let base: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        res.setHeader('Set-Cookie', 'sid=abc; Max-Age=86400; Path=/');
        res.setHeader('Content-Type', 'text/html');
        res.end(`<!doctype html><title>Page ${req.url}</title><p>hello</p>`);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://localhost:${(server.address() as AddressInfo).port}`;
      display = await startDisplay({ width: 1024, height: 768 });
      env = await createShellEnvironment();
      // the guest's ~/.config/google-chrome, where OSWorld's guests keep the profile
      dir = join(env.home.root, '.config', 'google-chrome');
      mkdirSync(join(dir, 'Default'), { recursive: true });
      writeFileSync(join(dir, 'Default', 'Bookmarks'), JSON.stringify(bookmarksFile));
      const started = await startChromium(display, dir, `${base}/search?q=cats&lang=en`);
      browser = started.browser;
      env.setBrowserEndpoint!(started.endpoint);
      ctx = { env, task: { dir, file: join(dir, 't.json') } as Task, cacheDir: join(dir, 'cache') };
      for (let i = 0; i < 50; i++) {
        const tabs = (await (await fetch(`${started.endpoint}/json/list`)).json()) as { title: string }[];
        if (tabs.some((t) => t.title.startsWith('Page'))) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    });
    afterAll(async () => {
      if (browser) await stopChromium(browser);
      await env?.close();
      await display?.stop();
      server?.close();
    });

    it('lists the getters with their family and needs', () => {
      expect(getterNeedsOf('bookmarks')).toEqual({ family: 'browser', needs: ['files', 'commands'] });
      expect(getterNeedsOf('open_tabs_info')?.needs).toEqual(['devtools']);
    });

    it('open_tabs_info and active_tab_url_parse read the open page', async () => {
      const tabs = (await getters.require('open_tabs_info')({ type: 'open_tabs_info' }, ctx)) as {
        url: string;
      }[];
      expect(tabs.map((t) => t.url)).toContain(`${base}/search?q=cats&lang=en`);
      const parsed = await getters.require('active_tab_url_parse')(
        { type: 'active_tab_url_parse', parse_keys: ['q', 'page'], replace: { q: 'query' } },
        ctx,
      );
      expect(parsed).toEqual({ page: '', query: 'cats' });
    });

    it('page_info opens a page in a new tab and gives its title, URL and HTML', async () => {
      const info = (await getters.require('page_info')({ type: 'page_info', url: `${base}/cart` }, ctx)) as {
        title: string;
        url: string;
        content: string;
      };
      expect(info.title).toBe('Page /cart');
      expect(info.url).toBe(`${base}/cart`);
      expect(info.content).toContain('<p>hello</p>');
      expect(
        (await metrics.require('is_added_to_steam_cart')(info, { items: ['hello'] }, {}, ctx)).score,
      ).toBe(1);
      const tabs = (await getters.require('open_tabs_info')({ type: 'open_tabs_info' }, ctx)) as {
        url: string;
      }[];
      expect(tabs.map((t) => t.url)).not.toContain(`${base}/cart`);
    });

    it("bookmarks finds the running browser's profile and feeds is_expected_bookmarks", async () => {
      const roots = await getters.require('bookmarks')({ type: 'bookmarks' }, ctx);
      const m = metrics.require('is_expected_bookmarks');
      expect(
        (await m(roots, { type: 'bookmark_bar_folders_names', names: ['Favorites'] }, {}, ctx)).score,
      ).toBe(1);
      expect(
        (await m(roots, { type: 'bookmark_bar_websites_urls', urls: ['https://other.example/'] }, {}, ctx))
          .score,
      ).toBe(0);
    });

    it(
      'history and cookie_data read the databases Chromium wrote, after it exits',
      { timeout: 90_000 },
      async () => {
        // Chromium commits its history and cookie databases from time to time (cookies every 30 s): wait until the
        // visit and the cookie are on disk, then quit it
        const visited = `${base}/search?q=cats&lang=en`;
        for (let i = 0; i < 300; i++) {
          const rows = (await getters.require('history')({ type: 'history' }, ctx)) as
            unknown[][] | undefined;
          const jar = (await getters.require('cookie_data')({ type: 'cookie_data' }, ctx)) as
            unknown[][] | undefined;
          if (rows?.some((r) => r[0] === visited) && jar?.length) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        await stopChromium(browser);
        const spec = { user_data_dir: '$HOME/.config/google-chrome' };
        const hist = (await getters.require('history')(
          { type: 'history', dest: 'History', ...spec },
          ctx,
        )) as unknown[][];
        expect(hist.map((r) => r[0])).toContain(`${base}/search?q=cats&lang=en`);
        expect(
          (
            await metrics.require('check_history_deleted')(
              hist,
              { type: 'keywords', keywords: ['search?q=cats'] },
              {},
              ctx,
            )
          ).score,
        ).toBe(0);
        const cookies = (await getters.require('cookie_data')(
          { type: 'cookie_data', dest: 'Cookies', ...spec },
          ctx,
        )) as unknown[][];
        expect(cookies.map((r) => r[1])).toContain('localhost');
        expect(
          (
            await metrics.require('is_cookie_deleted')(
              cookies,
              { type: 'domains', domains: ['localhost'] },
              {},
              ctx,
            )
          ).score,
        ).toBe(0);
        expect(
          await getters.require('default_search_engine')({ type: 'default_search_engine', ...spec }, ctx),
        ).toBe('Google');
        // Chromium's own Preferences: no font preferences set, so Chrome's defaults; the profile's name as written
        const fonts = (await getters.require('chrome_font_size')(
          { type: 'chrome_font_size', ...spec },
          ctx,
        )) as Record<string, number>;
        expect(fonts.default_font_size).toBe(16);
        expect(
          (await metrics.require('check_font_size')(fonts, { type: 'value', value: 16 }, {}, ctx)).score,
        ).toBe(1);
        const name = await getters.require('profile_name')({ type: 'profile_name', ...spec }, ctx);
        expect(name === undefined || typeof name === 'string').toBe(true);
      },
    );
  },
);
