// Host paths of the served folder become relative ones in what the engine tells a client; look-alike folders
// (a sibling whose name starts the same) stay as they are.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiHandlers } from '../../shared/api';
import { ApiRequestError } from './dispatch';
import { rootHider, withRootHidden } from './shown-paths';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'proctor-shown-')));
const root = join(base, 'served');
const link = join(base, 'link');
mkdirSync(root);
symlinkSync(root, link);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('rootHider', () => {
  it('makes paths below the root relative, in text and deep in answers', () => {
    const hide = rootHider(link); // served through a symlink: both spellings are hidden
    expect(hide.text(`${link}/runs/a: not a run folder`)).toBe('runs/a: not a run folder');
    expect(hide.text(`${root}/runs/a/manifest.json: bad`)).toBe('runs/a/manifest.json: bad');
    expect(hide.text(`no run below ${root}`)).toBe('no run below .');
    expect(hide.text(`'${root}'`)).toBe(`'.'`);
    expect(hide.text(`${root}-old/x and ${root}x`)).toBe(`${root}-old/x and ${root}x`);
    expect(hide.value({ a: [{ file: `${root}/t.json` }], n: 3, nothing: null })).toEqual({
      a: [{ file: 't.json' }],
      n: 3,
      nothing: null,
    });
  });

  it('hides the root in handler errors and keeps their codes', async () => {
    const handlers = withRootHidden<Partial<ApiHandlers>>(root, {
      'tasks.open': async () => {
        throw new ApiRequestError('not_found', `no folder ${root}/nowhere`);
      },
      'tasks.get': async () => {
        throw new Error(`ENOENT: ${root}/x.json`);
      },
    });
    await expect(handlers['tasks.open']!({ path: 'nowhere' })).rejects.toMatchObject({
      code: 'not_found',
      message: 'no folder nowhere',
    });
    await expect(handlers['tasks.get']!({ path: 'x.json' })).rejects.toThrow(/^ENOENT: x\.json$/);
  });
});
