import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../../shared/task';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { getterNeedsOf, getters } from '../catalog';
import type { GradingContext } from '../getter';
import { hasImpress, mediaDeck } from '../testing/impress';

describe.skipIf(!hasImpress)('OSWorld slides getters over the local shell environment', () => {
  let env: ShellEnvironment;
  let ctx: GradingContext;
  let dir: string;
  let png: Buffer;
  let wav: Buffer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'proctor-impress-getters-'));
    let talk: string;
    ({ deck: talk, png, wav } = mediaDeck(dir));
    env = await createShellEnvironment();
    ctx = { env, task: { dir, file: join(dir, 't.json') } as Task, cacheDir: join(dir, 'cache') };
    await env.putFile('/home/user/Desktop/talk.pptx', readFileSync(talk));
    await env.putFile('/home/user/Music/beep.wav', wav);
  }, 180_000);
  afterAll(async () => {
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('audio_in_slide copies the slide sound the presentation links from the guest', async () => {
    expect(getterNeedsOf('audio_in_slide')).toEqual({ family: 'slides', needs: ['files'] });
    const spec = {
      type: 'audio_in_slide',
      ppt_file_path: '/home/user/Desktop/talk.pptx',
      slide_index: 0,
      dest: 'audio.wav',
    };
    const got = (await getters.require('audio_in_slide')(spec, ctx)) as string;
    expect(readFileSync(got).equals(wav)).toBe(true);
    expect(await getters.require('audio_in_slide')({ ...spec, slide_index: '1' }, ctx)).toBeUndefined();
    expect(
      await getters.require('audio_in_slide')(
        { ...spec, ppt_file_path: '/home/user/Desktop/none.pptx' },
        ctx,
      ),
    ).toBeUndefined();
    await expect(getters.require('audio_in_slide')({ ...spec, slide_index: 'first' }, ctx)).rejects.toThrow(
      /slide_index/,
    );
  });

  it('background_image_in_slide extracts the slide background picture into the cache', async () => {
    expect(getterNeedsOf('background_image_in_slide')?.family).toBe('slides');
    const spec = {
      type: 'background_image_in_slide',
      ppt_file_path: '/home/user/Desktop/talk.pptx',
      slide_index: 0,
      dest: 'bg.png',
    };
    const got = (await getters.require('background_image_in_slide')(spec, ctx)) as string;
    expect(relative(ctx.cacheDir, got)).toBe(join('ppt', 'media', 'image1.png'));
    expect(readFileSync(got).equals(png)).toBe(true);
    expect(
      await getters.require('background_image_in_slide')({ ...spec, slide_index: 1 }, ctx),
    ).toBeUndefined();
  });
});
