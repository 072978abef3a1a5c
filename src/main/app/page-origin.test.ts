// The IPC bridge answers the app's own page only: not another file:// document, not a look-alike host or path.
import { describe, expect, it } from 'vitest';
import { appPageUrl, isAppPage } from './page-origin';

describe('isAppPage', () => {
  const page = appPageUrl('/opt/Proctor/resources/app/out/renderer/index.html');

  it('accepts the built page with any #/ route', () => {
    expect(page).toBe('file:///opt/Proctor/resources/app/out/renderer/index.html');
    expect(isAppPage(page, page)).toBe(true);
    expect(isAppPage(`${page}#/runs/results%2Fx?task=a%2Fb&step=2`, page)).toBe(true);
  });

  it('refuses any other file:// document, a query, and what is not a URL', () => {
    for (const frame of [
      'file:///tmp/downloaded.html',
      'file:///opt/Proctor/resources/app/out/renderer/index.html.evil.html',
      'file:///opt/Proctor/resources/app/out/renderer/other.html',
      `${page}?x=1`,
      'file://evil-host/opt/Proctor/resources/app/out/renderer/index.html',
      'about:blank',
      'data:text/html,<script></script>',
      '',
      'not a url',
    ]) {
      expect(isAppPage(frame, page), frame).toBe(false);
    }
  });

  it('in development accepts the dev server page only', () => {
    const dev = appPageUrl('/ignored', 'http://localhost:5173');
    expect(dev).toBe('http://localhost:5173/');
    expect(isAppPage('http://localhost:5173/#/tasks', dev)).toBe(true);
    expect(isAppPage('http://localhost:5173/index.html#/tasks', dev)).toBe(true);
    expect(isAppPage('http://localhost:51730/', dev)).toBe(false);
    expect(isAppPage('http://localhost:5173.evil.example/', dev)).toBe(false);
    expect(isAppPage('http://user@localhost:5173/', dev)).toBe(false);
    expect(isAppPage('https://localhost:5173/', dev)).toBe(false);
    expect(isAppPage('http://localhost:5173/src/evil.html', dev)).toBe(false);
  });
});
