import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoSite, type DemoSite } from './demo-site';

describe('the demo site', () => {
  let site: DemoSite;
  beforeAll(async () => {
    site = await startDemoSite();
  });
  afterAll(() => site.close());

  it('serves the bundled pages on 127.0.0.1 with their content types', async () => {
    expect(site.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(site.url + '/order.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<form id="order"');
    const script = await fetch(site.url + '/order.js');
    expect(script.headers.get('content-type')).toContain('javascript');
    const index = await fetch(site.url + '/');
    expect(await index.text()).toContain('Proctor demo shop');
  });

  it('answers 404 for missing files and for paths that leave the site folder', async () => {
    expect((await fetch(site.url + '/nope.html')).status).toBe(404);
    expect((await fetch(site.url + '/%2e%2e/%2e%2e/package.json')).status).toBe(404);
    expect((await fetch(site.url + '/..%2f..%2fpackage.json')).status).toBe(404);
    expect((await fetch(site.url + '/%E0%A4%A')).status).toBe(404);
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await fetch(site.url + '/order.html', { method: 'POST', body: 'x' })).status).toBe(405);
  });
});

describe('a demo site over another folder', () => {
  it('does not follow a symlink that points outside its root', async () => {
    const root = await mkdtemp(join(tmpdir(), 'proctor-site-'));
    const outside = await mkdtemp(join(tmpdir(), 'proctor-outside-'));
    try {
      await writeFile(join(root, 'a.txt'), 'inside');
      await writeFile(join(outside, 'secret.txt'), 'outside');
      await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
      const site = await startDemoSite({ root });
      try {
        expect(await (await fetch(site.url + '/a.txt')).text()).toBe('inside');
        expect((await fetch(site.url + '/link.txt')).status).toBe(404);
      } finally {
        await site.close();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });
});
