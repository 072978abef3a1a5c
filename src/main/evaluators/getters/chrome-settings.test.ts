import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDisplay, type SandboxDisplay } from '../../env/local/display';
import { hasDisplayTools } from '../../env/local/testing/apps';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { getterNeedsOf, getters } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { chromium, eventually, setChromePrefs, startChromium, stopChromium } from './chrome-testkit';
import { removeTree } from '../../env/remove-tree';

/** Chromium on the sandbox display, its profile in the guest's ~/.config/google-chrome (where OSWorld's guests
 * keep it), with a real unpacked extension loaded. Everything the getters read, Chromium wrote itself. */
describe.skipIf(!existsSync(chromium) || !hasDisplayTools)(
  'Chrome settings getters on the profile Chromium wrote (needs /usr/bin/chromium)',
  () => {
    let display: SandboxDisplay;
    let browser: ChildProcess;
    let env: ShellEnvironment;
    let ctx: GradingContext;
    let ext: string;
    const get = (type: string, ctxt = ctx) => getters.require(type)({ type }, ctxt);
    beforeAll(async () => {
      display = await startDisplay({ width: 1024, height: 768 });
      env = await createShellEnvironment();
      const dir = join(env.home.root, '.config', 'google-chrome');
      mkdirSync(dir, { recursive: true });
      ext = mkdtempSync(join(tmpdir(), 'proctor-ext-'));
      writeFileSync(
        join(ext, 'manifest.json'),
        JSON.stringify({ manifest_version: 3, name: 'Proctor Test Extension', version: '1.0' }),
      );
      const started = await startChromium(display, dir, 'about:blank', [`--load-extension=${ext}`]);
      browser = started.browser;
      env.setBrowserEndpoint!(started.endpoint);
      ctx = { env, task: { dir, file: join(dir, 't.json') } as Task, cacheDir: join(dir, 'cache') };
    });
    afterAll(async () => {
      if (browser) await stopChromium(browser);
      await env?.close();
      await display?.stop();
      if (ext) await removeTree(ext);
    });

    it('lists the getters in the browser family with what they need', () => {
      expect(getterNeedsOf('enable_do_not_track')).toEqual({
        family: 'browser',
        needs: ['files', 'commands'],
      });
      expect(getterNeedsOf('chrome_appearance_mode_ui')?.needs).toContain('devtools');
    });

    it(
      'reads a fresh profile as OSWorld does, and the unpacked extension Chromium loaded',
      { timeout: 60_000 },
      async () => {
        // Chromium writes Preferences a few seconds after it starts
        const paths = await eventually(
          () => get('find_unpacked_extension_path'),
          (v) => Array.isArray(v) && v.includes(ext),
        );
        expect(paths).toContain(ext);
        // Chromium keeps no manifest for an unpacked extension in Preferences: OSWorld's reading falls back to "Google"
        expect(await get('find_installed_extension_name')).toBe('Google');
        expect(await get('new_startup_page')).toBe('true'); // no `session` yet
        expect(await get('enable_do_not_track')).toBe('false');
        expect(await get('enable_safe_browsing')).toBe('false'); // defaults are not written
        expect(await get('data_delete_automacally')).toBe('true'); // Chromium 156 writes profile.default_content_setting_values
      },
    );

    it(
      'chrome_appearance_mode_ui reads the settings page: light under the classic theme, dark under GTK',
      { timeout: 60_000 },
      async () => {
        expect(await get('chrome_appearance_mode_ui')).toBe('light');
        await setChromePrefs(ctx, { 'extensions.theme.system_theme': 1 });
        expect(await get('chrome_appearance_mode_ui')).toBe('dark');
      },
    );

    it(
      'sees the settings changed through the settings page once Chromium has saved them',
      { timeout: 60_000 },
      async () => {
        await setChromePrefs(ctx, {
          enable_do_not_track: true,
          'safebrowsing.enhanced': true,
          'session.restore_on_startup': 1,
        });
        expect(
          await eventually(
            () => get('enable_do_not_track'),
            (v) => v === 'true',
          ),
        ).toBe('true');
        expect(await get('enable_safe_browsing')).toBe('true');
        expect(await get('new_startup_page')).toBe('false');
        await setChromePrefs(ctx, { 'session.restore_on_startup': 5 });
        expect(
          await eventually(
            () => get('new_startup_page'),
            (v) => v === 'true',
          ),
        ).toBe('true');
      },
    );

    it(
      "without a browser, chrome_appearance_mode_ui reads Preferences; without a profile the fallbacks are OSWorld's",
      { timeout: 60_000 },
      async () => {
        const bare = await createShellEnvironment();
        try {
          const noBrowser = { ...ctx, env: bare };
          // bare has its own empty home: no profile at all
          expect(await get('new_startup_page', noBrowser)).toBe('Google');
          expect(await get('find_unpacked_extension_path', noBrowser)).toBe('Google');
          expect(await get('enable_do_not_track', noBrowser)).toBe('false');
          expect(await get('chrome_appearance_mode_ui', noBrowser)).toBe('system');
        } finally {
          await bare.close();
        }
        // the running profile's Preferences say system_theme 1 (GTK): not "light", so "system" by file
        const endpoint = env.browserEndpoint()!;
        env.setBrowserEndpoint!('');
        try {
          expect(await get('chrome_appearance_mode_ui')).toBe('system');
        } finally {
          env.setBrowserEndpoint!(endpoint);
        }
      },
    );
  },
);
