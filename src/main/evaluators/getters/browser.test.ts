import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { removeTree } from '../../env/remove-tree';
import { getters } from '../catalog';
import { chromium, startChromium, stopChromium } from './chrome-testkit';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';

const page = `<!doctype html><title>Airbyte | Connections</title><a aria-label="Homepage" href="/">home</a>
<a href="https://wttr.in/HongKong">weather</a>`;

describe.skipIf(!existsSync(chromium))('browser getters over CDP (needs /usr/bin/chromium)', () => {
  let server: Server;
  let browser: ChildProcess;
  let profile: string;
  let env: ShellEnvironment;
  let ctx: GradingContext;
  let base: string;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end(page));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'proctor-cdp-'));
    let endpoint: string;
    ({ browser, endpoint } = await startChromium({ hostEnv: {} }, profile, `${base}/connections`, [
      '--headless=new',
      '--disable-quic',
    ]));
    env = await createShellEnvironment();
    env.setBrowserEndpoint!(endpoint);
    ctx = {
      env,
      task: { dir: profile, file: join(profile, 't.json') } as Task,
      cacheDir: join(profile, 'cache'),
    };
    // wait until the page has loaded
    for (let i = 0; i < 50; i++) {
      const tabs = (await (await fetch(`${endpoint}/json/list`)).json()) as { url: string; title: string }[];
      if (tabs.some((t) => t.title.startsWith('Airbyte'))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  afterAll(async () => {
    await env?.close();
    if (browser) await stopChromium(browser);
    server?.close();
    await removeTree(profile);
  });

  it('active_tab_info gives the URL and title of the open page', async () => {
    const info = await getters.require('active_tab_info')({ type: 'active_tab_info' }, ctx);
    expect(info).toEqual({ url: `${base}/connections`, title: 'Airbyte | Connections' });
  });
  it('airbyte_localhost_page finds the Homepage link; a wrong URL fails', async () => {
    const get = getters.require('airbyte_localhost_page');
    expect(
      await get(
        { type: 'airbyte_localhost_page', url: base.replace('127.0.0.1', 'localhost'), title: 'airbyte' },
        ctx,
      ),
    ).toBe('Find airbyte home page succeed');
    expect(
      await get({ type: 'airbyte_localhost_page', url: 'http://localhost:1', title: 'airbyte' }, ctx),
    ).toBe('Find airbyte home page failed');
  });
  it('html_check reports each selector', async () => {
    const out = await getters.require('html_check')(
      {
        type: 'html_check',
        css_paths: ["a[href='https://wttr.in/HongKong']", "a[href='https://www.bilibili.com/']"],
      },
      ctx,
    );
    expect(out).toBe(
      "a[href='https://wttr.in/HongKong'] check succeed\na[href='https://www.bilibili.com/'] check failed",
    );
  });
  it('without a browser the getter says so', async () => {
    const bare = await createShellEnvironment();
    try {
      await expect(
        getters.require('active_tab_info')({ type: 'active_tab_info' }, { ...ctx, env: bare }),
      ).rejects.toThrow(/needs a browser/);
    } finally {
      await bare.close();
    }
  });
});
