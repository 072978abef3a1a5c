import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { getterNeedsOf, getters } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { hasLibreOffice, saveWithLibreOffice } from '../testing/libreoffice';

/** vlcrc as VLC writes it: a comment header, [section]s, `#key=default` lines and set `key=value` lines. */
const vlcrc = `\\ufeff###\n### vlc 3.0.18\n###\n\n[qt] # Qt interface\n#qt-minimal-view=0\nqt-max-volume=200\n\n[core] # core program\nrecord-path=/home/user/Recordings\n`;

describe('OSWorld os / vlc / gimp getters over the local shell environment', () => {
  let env: ShellEnvironment;
  let ctx: GradingContext;
  let dir: string;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) =>
      req.url === '/gold.txt' ? res.end('gold bytes') : ((res.statusCode = 404), res.end()),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), 'proctor-os-getters-'));
    env = await createShellEnvironment();
    ctx = { env, task: { dir, file: join(dir, 't.json') } as Task, cacheDir: join(dir, 'cache') };
    await env.putFile('/home/user/.config/vlc/vlcrc', Buffer.from(vlcrc));
    await env.putFile(
      '/home/user/.config/GIMP/2.10/sessionrc',
      Buffer.from('(session-info "toolbox"\n    (position 0 0))\n'),
    );
  });
  afterAll(async () => {
    await env?.close();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('vm_command_error gives standard error', async () => {
    expect(
      await getters.require('vm_command_error')(
        { type: 'vm_command_error', command: 'echo out; echo oops >&2', shell: true },
        ctx,
      ),
    ).toBe('oops\n');
  });

  it('vlc_config and gimp_config_file copy the config files from the home', async () => {
    const v = (await getters.require('vlc_config')({ type: 'vlc_config', dest: 'vlcrc' }, ctx)) as string;
    expect(readFileSync(v, 'utf8')).toContain('qt-max-volume=200');
    const g = (await getters.require('gimp_config_file')(
      { type: 'gimp_config_file', file_name: 'sessionrc', dest: 'sessionrc' },
      ctx,
    )) as string;
    expect(readFileSync(g, 'utf8')).toContain('session-info');
    expect(
      await getters.require('gimp_config_file')(
        { type: 'gimp_config_file', file_name: 'gimprc', dest: 'gimprc' },
        ctx,
      ),
    ).toBeUndefined();
    expect(getterNeedsOf('vlc_config')?.family).toBe('vlc');
  });

  it('cloud_file fetches the URL, or reads the --downloads folder and names a missing URL', async () => {
    const got = (await getters.require('cloud_file')(
      { type: 'cloud_file', path: `${base}/gold.txt`, dest: 'gold.txt' },
      ctx,
    )) as string;
    expect(readFileSync(got, 'utf8')).toBe('gold bytes');
    const downloads = mkdtempSync(join(tmpdir(), 'proctor-dl-'));
    try {
      writeFileSync(join(downloads, 'a.docx'), 'from the folder');
      const c2 = { ...ctx, cacheDir: join(dir, 'cache2'), downloads };
      const multi = await getters.require('cloud_file')(
        {
          type: 'cloud_file',
          multi: true,
          path: ['https://example.invalid/a.docx', 'https://example.invalid/a.docx'],
          dest: ['a1.docx', 'a2.docx'],
          gives: [0, 1],
        },
        c2,
      );
      expect((multi as string[]).map((p) => readFileSync(p, 'utf8'))).toEqual([
        'from the folder',
        'from the folder',
      ]);
      await expect(
        getters.require('cloud_file')(
          { type: 'cloud_file', path: 'https://example.invalid/missing.xlsx', dest: 'm.xlsx' },
          c2,
        ),
      ).rejects.toThrow(/https:\/\/example.invalid\/missing.xlsx/);
    } finally {
      rmSync(downloads, { recursive: true, force: true });
    }
  });

  it('list_directory gives the folder tree and feeds check_moved_jpgs', async () => {
    await env.putFile('/home/user/Pictures/trip/a.jpg', Buffer.from('x'));
    await env.putFile('/home/user/Pictures/trip/sub/b.jpg', Buffer.from('y'));
    const tree = (await getters.require('list_directory')(
      { type: 'list_directory', path: '/home/user/Pictures/trip' },
      ctx,
    )) as { name: string; children: { name: string; type: string; children?: unknown[] }[] };
    expect(tree.name).toBe('trip');
    expect(tree.children.map((c) => [c.type, c.name]).sort()).toEqual([
      ['directory', 'sub'],
      ['file', 'a.jpg'],
    ]);
    expect(tree.children.find((c) => c.name === 'sub')?.children).toEqual([{ type: 'file', name: 'b.jpg' }]);
    expect(getterNeedsOf('list_directory')?.needs).toEqual(['commands']);
  });

  it('shortcuts_on_desktop reads the .desktop files and feeds is_shortcut_on_desktop', async () => {
    await env.putFile(
      '/home/user/Desktop/gmail.desktop',
      Buffer.from('[Desktop Entry]\nName=Gmail\nType=Application\n'),
    );
    await env.putFile('/home/user/Desktop/notes.txt', Buffer.from('not a shortcut'));
    const got = await getters.require('shortcuts_on_desktop')({ type: 'shortcuts_on_desktop' }, ctx);
    expect(Object.keys(got as object)).toEqual(['gmail.desktop']);
    const { metrics } = await import('../catalog');
    expect(
      (await metrics.require('is_shortcut_on_desktop')(got, { type: 'name', name: 'Gmail' }, {}, ctx)).score,
    ).toBe(1);
  });

  it.skipIf(!hasLibreOffice)(
    'content_from_vm_file gives the last row of a workbook LibreOffice saved',
    async () => {
      const xlsx = saveWithLibreOffice(
        dir,
        'sales',
        '<table><tr><td>Item</td><td>Qty</td></tr><tr><td>pen</td><td>3</td></tr><tr><td>ink</td><td>12</td></tr></table>',
        'xlsx',
      );
      await env.putFile('/home/user/sales.xlsx', readFileSync(xlsx));
      expect(
        await getters.require('content_from_vm_file')(
          {
            type: 'content_from_vm_file',
            path: '/home/user/sales.xlsx',
            file_type: 'xlsx',
            file_content: 'last_row',
          },
          ctx,
        ),
      ).toEqual(['ink', '12']);
    },
    120_000,
  );
});
