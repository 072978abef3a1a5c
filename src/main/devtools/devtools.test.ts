// The one DevTools client against a real Chromium (/usr/bin/chromium, headless): tab sessions open and close their
// own tabs, an isolated tab sees none of the profile's cookies, commands time out and fail with the connection,
// and a missing browser is named.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, startChromium, stopChromium } from '../evaluators/getters/chrome-testkit';
import { CdpConnection, evaluateInTab, listTabs, TabSession, waitForDevTools } from './index';

const canRun = existsSync(chromium);

describe.skipIf(!canRun)(
  `the DevTools client${canRun ? '' : ' (skipped: /usr/bin/chromium not installed)'}`,
  () => {
    let browser: Awaited<ReturnType<typeof startChromium>>['browser'];
    let endpoint: string;
    let profile: string;
    let site: Server;
    let siteUrl: string;

    beforeAll(async () => {
      site = createServer((req, res) => {
        res.setHeader('content-type', 'text/html');
        if (req.url === '/set') res.setHeader('set-cookie', 'who=profile; Path=/');
        res.end(
          `<title>page ${req.url}</title><p id="c"></p><script>c.textContent = document.cookie</script>`,
        );
      });
      await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
      siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      profile = mkdtempSync(join(tmpdir(), 'proctor-devtools-'));
      ({ browser, endpoint } = await startChromium({ hostEnv: {} }, profile, `${siteUrl}/start`, [
        '--headless=new',
      ]));
      await waitForDevTools(endpoint);
    }, 60_000);

    afterAll(async () => {
      if (browser) await stopChromium(browser);
      rmSync(profile, { recursive: true, force: true });
      await new Promise((r) => site.close(r));
    });

    it('opens a tab of its own, drives it, and leaves no tab behind when closed', async () => {
      const before = (await listTabs(endpoint)).map((t) => t.id);
      const s = await TabSession.open(endpoint);
      await s.goto(`${siteUrl}/one`, 'complete', 20_000);
      expect(await s.evaluate('document.title')).toBe('page /one');
      const during = await listTabs(endpoint);
      expect(during.map((t) => t.id)).toContain(s.tab.id);
      expect(during.find((t) => t.id === s.tab.id)?.endpoint).toBe(endpoint);
      await s.close();
      expect((await listTabs(endpoint)).map((t) => t.id).sort()).toEqual(before.sort());
    });

    it('attaches to an open tab without closing it, and evaluates in one', async () => {
      const tab = (await listTabs(endpoint)).find((t) => t.url.endsWith('/start'))!;
      expect(await evaluateInTab(tab, 'location.pathname')).toBe('/start');
      const s = await TabSession.attach(tab);
      await s.close();
      expect((await listTabs(endpoint)).map((t) => t.id)).toContain(tab.id);
    });

    it("gives an isolated tab none of the profile's cookies", async () => {
      const s = await TabSession.open(endpoint);
      try {
        await s.goto(`${siteUrl}/set`, 'complete', 20_000);
        await s.goto(`${siteUrl}/read`, 'complete', 20_000);
        expect(await s.evaluate('document.cookie')).toBe('who=profile');
      } finally {
        await s.close();
      }
      const iso = await TabSession.open(endpoint, { isolated: true });
      try {
        await iso.goto(`${siteUrl}/read`, 'complete', 20_000);
        expect(await iso.evaluate('document.cookie')).toBe('');
      } finally {
        await iso.close();
      }
    });

    it('times a command out, naming it, and fails what is pending when the connection closes', async () => {
      const cdp = await CdpConnection.open(endpoint);
      const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
        url: 'about:blank',
      });
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId,
        flatten: true,
      });
      const never = { expression: 'new Promise(() => {})', awaitPromise: true };
      await expect(cdp.send('Runtime.evaluate', never, sessionId, 300)).rejects.toThrow(
        /Runtime\.evaluate .*timed out after 300 ms/,
      );
      const pending = cdp.send('Runtime.evaluate', never, sessionId);
      await cdp.close();
      await expect(pending).rejects.toThrow(/connection to .* closed/);
      const other = await CdpConnection.open(endpoint);
      await other.send('Target.closeTarget', { targetId });
      await other.close();
    });

    it('names the endpoint when no browser answers there', async () => {
      await expect(CdpConnection.open('http://127.0.0.1:9', 2000)).rejects.toThrow(/127\.0\.0\.1:9/);
      await expect(TabSession.open('http://127.0.0.1:9')).rejects.toThrow(
        /browser at http:\/\/127\.0\.0\.1:9/,
      );
    });
  },
);
