import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startDisplay, type SandboxDisplay } from '../../env/local/display';
import { hasDisplayTools } from '../../env/local/testing/apps';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { getterNeedsOf, getters, metrics } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { listTabs, TabSession } from '../../devtools';
import { chromium, startChromium, stopChromium } from './chrome-testkit';

const pages: Record<string, string> = {
  '/flights': `<!doctype html><title>Flights</title>
    <div class="date"> Fri, Nov 27, 2026 </div><div class="sep">SEA<div class="aura"></div>NYC</div>
    <span class="item">Miles</span><span class="item">Cash</span>
    <div class="card"><h3> Nonstop </h3></div><div class="card"><p>no heading</p></div>
    <p>Departure city: <b>Seattle</b></p><input id="q" value=" Paris ">
    <ul class="cats"><li class="catAllProducts"><span>Shirts</span></li><li class="catAllProducts"><span>Pants</span></li></ul>`,
  '/info': `<!doctype html><title>Info</title><h1 id="t">Weather today</h1><a id="next" href="/info2">next</a>`,
  '/info2': `<!doctype html><title>Info 2</title><p class="v" data-x="42">Second page</p>`,
  '/rec/': `<!doctype html><title>Recreation</title><input id="hero-search-input"><button class="nav-search-button">Search</button><div id="r"></div>
    <script>document.querySelector('.nav-search-button').onclick = () => { setTimeout(() => {
      if (document.querySelector('#hero-search-input').value !== 'Diamond') return;
      document.querySelector('#r').innerHTML = '<a class="search-result-highlight--success" target="_blank" href="/rec/camp">Diamond Lake</a>'; }, 300); };</script>`,
  '/rec/camp': `<!doctype html><title>Camp</title><button class="next-available">Next available</button><div id="d"></div>
    <script>document.querySelector('.next-available').onclick = () => { document.querySelector('#d').innerHTML =
      '<span class="camp-date">Jan 1</span><span class="camp-date"> Jan 2 </span>'; };</script>`,
};
/** A page that says whether the browser sent the cookie /flights set. */
const doc = (cookie: string | undefined) =>
  `<!doctype html><title>Doc</title><h1>Printed page</h1><p id="who">${cookie?.includes('sid=1') ? 'signed in' : 'signed out'}</p>`;

describe.skipIf(!existsSync(chromium) || !hasDisplayTools)(
  "Chrome page getters over the environment's browser (needs /usr/bin/chromium)",
  () => {
    let server: Server;
    let display: SandboxDisplay;
    let browser: ChildProcess;
    let env: ShellEnvironment;
    let ctx: GradingContext;
    let base: string;
    /** Loads `path` in the active tab. */
    const show = async (path: string) => {
      const tab = (await listTabs(env.browserEndpoint()!))[0];
      const s = await TabSession.attach(tab);
      try {
        await s.goto(`${base}${path}`, 'complete');
      } finally {
        await s.close();
      }
    };
    beforeAll(async () => {
      server = createServer((req, res) => {
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        if (req.url === '/flights') res.setHeader('Set-Cookie', 'sid=1; Max-Age=86400; Path=/');
        if (req.url === '/doc') return res.end(doc(req.headers.cookie));
        res.end(
          pages[(req.url ?? '').replace(/\?.*/, '')] ??
            `<!doctype html><title>Page ${req.url}</title><p>elsewhere</p>`,
        );
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      display = await startDisplay({ width: 1024, height: 768 });
      env = await createShellEnvironment();
      const dir = join(env.home.root, '.config', 'chromium-pages');
      mkdirSync(dir, { recursive: true });
      const started = await startChromium(display, dir, `${base}/flights`);
      browser = started.browser;
      env.setBrowserEndpoint!(started.endpoint);
      ctx = { env, task: { dir, file: join(dir, 't.json') } as Task, cacheDir: join(dir, 'cache') };
    });
    afterAll(async () => {
      if (browser) await stopChromium(browser);
      await env?.close();
      await display?.stop();
      server?.close();
    });

    it(
      'active_tab_html_parse reads classes, direct text, headings, search-exist, labels, XPath and inputs',
      { timeout: 60_000 },
      async () => {
        await show('/flights');
        const parse = getters.require('active_tab_html_parse');
        const byClass = await parse(
          {
            type: 'active_tab_html_parse',
            category: 'class',
            class_singleObject: { date: 'time', missing: 'none' },
            class_multiObject: { item: { '0': 'first', '1': 'second', '5': 'sixth' } },
            class_multiObject_child: { sep: { '0': 'start', '1': 'end' } },
            class_multiObject_only_child: { card: { '0': 'heading', '1': 'other' } },
            class_multiObject_search_exist: { item: ['Miles', 'Points', 'is_other_exist'] },
          },
          ctx,
        );
        expect(byClass).toEqual({
          first: 'Miles',
          second: 'Cash',
          sixth: '',
          start: 'SEA',
          end: 'NYC',
          heading: 'Nonstop',
          other: '',
          Miles: true,
          Points: false,
          is_other_exist: true,
          time: 'Fri, Nov 27, 2026',
          none: '',
        });
        expect(
          await parse(
            { type: 'active_tab_html_parse', category: 'label', labelObject: { 'departure city': 'city' } },
            ctx,
          ),
        ).toEqual({ city: 'Departure city: Seattle' });
        expect(
          await parse(
            {
              type: 'active_tab_html_parse',
              category: 'xpath',
              xpathObject: { '//div[@class="card"]/h3': 'h', '//nothing': 'n' },
            },
            ctx,
          ),
        ).toEqual({ h: 'Nonstop', n: '' });
        expect(
          await parse(
            { type: 'active_tab_html_parse', category: 'input', inputObject: { '//input[@id="q"]': 'q' } },
            ctx,
          ),
        ).toEqual({ q: 'Paris' });
        const classUrl = await parse(
          {
            type: 'active_tab_html_parse',
            category: 'class&url',
            class_multiObject_li: { cats: ['shirts', 'Pants'] },
            url_include_expected: ['FLIGHTS', 'hotels'],
            url_include_expected_multichoice: { '127.0.0.1': 'Local' },
          },
          ctx,
        );
        expect(classUrl).toEqual({
          shirts: true,
          pants: true,
          is_other_exist: false,
          flights: true,
          hotels: false,
          local: true,
        });
        // fed to check_direct_json_object with a rule_relativeTime-shaped expectation
        const m = await metrics.require('check_direct_json_object')(
          byClass,
          { expected: { start: 'SEA', end: 'NYC' } },
          {},
          ctx,
        );
        expect(m.score).toBe(1);
      },
    );

    it("url_dashPart and url_path_parse read the active tab's URL", { timeout: 60_000 }, async () => {
      await show(
        '/shop/mens-clothing/mens-shirts/Men_regular_size_t,Price_discount_range,Sleeve_length/L,50_PERCENT_%20off%20%26%20more,Short%20Sleeve?id=20635',
      );
      const dash = getters.require('url_dashPart');
      expect(await dash({ type: 'url_dashPart', partIndex: 4, returnType: 'string' }, ctx)).toBe(
        'mens-clothing',
      );
      expect(
        await dash(
          { type: 'url_dashPart', partIndex: '-1', needDeleteId: true, returnType: 'json', key: 'last' },
          ctx,
        ),
      ).toEqual({ last: 'L,50_PERCENT_%20off%20%26%20more,Short%20Sleeve' });
      expect(await dash({ type: 'url_dashPart', partIndex: 40, returnType: 'string' }, ctx)).toBeUndefined();
      const parsed = await getters.require('url_path_parse')(
        {
          type: 'url_path_parse',
          parse_keys: ['Men_regular_size_t', 'Price_discount_range', 'Sleeve_length', 'Color'],
        },
        ctx,
      );
      expect(parsed).toEqual({
        mens_clothing: true,
        shirts: true,
        short_sleeve: true,
        Men_regular_size_t: 'L',
        Price_discount_range: '50_PERCENT_ off & more',
        Sleeve_length: 'Short Sleeve',
      });
    });

    it(
      'info_from_website reads a page it opens (clicking through), and gives the backups when an element is missing',
      { timeout: 90_000 },
      async () => {
        const info = getters.require('info_from_website');
        const got = await info(
          {
            type: 'info_from_website',
            url: `${base}/info`,
            infos: [
              { action: 'inner_text', selector: '#t' },
              { action: 'click_and_attribute', selector: ['#next', '.v'], attribute: 'data-x' },
              { action: 'attribute', selector: '#next', attribute: 'href' },
            ],
          },
          ctx,
        );
        expect(got).toEqual(['Weather today', '42', '/info2']);
        expect(
          await info(
            {
              type: 'info_from_website',
              url: `${base}/info`,
              infos: [{ action: 'inner_text', selector: '#absent' }],
              backups: ['kept'],
            },
            ctx,
          ),
        ).toEqual(['kept']);
        const tabs = await listTabs(env.browserEndpoint()!);
        expect(tabs.map((t) => t.url)).not.toContain(`${base}/info2`);
      },
    );

    it(
      'gotoRecreationPage_and_get_html_content walks a local copy of the site through the browser',
      { timeout: 120_000 },
      async () => {
        const get = getters.require('gotoRecreationPage_and_get_html_content');
        expect(
          await get(
            {
              type: 'gotoRecreationPage_and_get_html_content',
              url: `${base}/rec/`,
              selector: 'class',
              class: 'camp-date',
              order: '1',
            },
            ctx,
          ),
        ).toEqual({ expected: { 'camp-date': 'Jan 2' } });
        expect(
          await get(
            {
              type: 'gotoRecreationPage_and_get_html_content',
              url: `${base}/rec/`,
              selector: 'class',
              class: 'camp-date',
              order: 7,
            },
            ctx,
          ),
        ).toEqual({ expected: { 'camp-date': '__EVALUATION_FAILED__' } });
      },
    );

    it(
      "pdf_from_url prints the page to PDF through the browser, in a context of its own as upstream's browser.new_page()",
      { timeout: 90_000 },
      async () => {
        // the user's profile has the cookie (info_from_website opens its tab there) …
        expect(
          await getters.require('info_from_website')(
            { type: 'info_from_website', url: `${base}/doc`, infos: [{ selector: '#who' }] },
            ctx,
          ),
        ).toEqual(['signed in']);
        const path = (await getters.require('pdf_from_url')(
          { type: 'pdf_from_url', path: `${base}/doc`, dest: 'doc.pdf' },
          ctx,
        )) as string;
        expect(path).toBe(join(ctx.cacheDir, 'doc.pdf'));
        const bytes = readFileSync(path);
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
        const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
        const doc = await pdfjs.getDocument({
          data: new Uint8Array(bytes),
          isEvalSupported: false,
          useSystemFonts: false,
          verbosity: 0,
        }).promise;
        const text = (await (await doc.getPage(1)).getTextContent()).items
          .map((i) => ('str' in i ? i.str : ''))
          .join(' ');
        expect(text).toContain('Printed page');
        expect(text).toContain('signed out'); // … the printed page's context has none
        expect(getterNeedsOf('pdf_from_url')).toEqual({ family: 'browser', needs: ['devtools'] });
      },
    );

    it("rule_relativeTime fills the dates from the machine's today", async () => {
      const rules = await getters.require('rule_relativeTime')(
        {
          type: 'rule_relativeTime',
          rules: {
            relativeTime: { from: 'tomorrow' },
            expected: { time: ['{Year}-{Month0D}-{Day0D}', '{DoW}'], start: 'SEA' },
          },
        },
        ctx,
      );
      const out = (await env.run('date -d tomorrow +%Y-%m-%d/%a')).stdout.trim().split('/');
      expect(rules).toEqual({ relativeTime: { from: 'tomorrow' }, expected: { time: out, start: 'SEA' } });
      await expect(
        getters.require('rule_relativeTime')(
          {
            type: 'rule_relativeTime',
            rules: { relativeTime: { from: 'yesterday' }, expected: { time: '{Year}' } },
          },
          ctx,
        ),
      ).rejects.toThrow(/unknown relative time "yesterday"/);
    });
  },
);
