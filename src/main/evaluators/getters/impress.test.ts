import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../../shared/task';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { getterNeedsOf, getters } from '../catalog';
import type { GradingContext } from '../getter';
import { fodp, hasImpress, saveAsPptx } from '../testing/impress';

describe.skipIf(!hasImpress)('OSWorld slides getters over the local shell environment', () => {
  let env: ShellEnvironment;
  let ctx: GradingContext;
  let dir: string;
  let png: Buffer;
  let wav: Buffer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'proctor-impress-getters-'));
    png = execFileSync('convert', ['-size', '32x24', 'xc:teal', 'png:-']);
    wav = execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=0.5', '-f', 'wav', '-']);
    // slide 1: a picture background and a sound linked at the guest's path; slide 2: neither
    const source = fodp({
      styles: `<style:style style:name="bg" style:family="drawing-page"><style:drawing-page-properties draw:fill="bitmap" draw:fill-image-name="bgimg"/></style:style>`,
      pages: `<draw:page draw:name="p1" draw:style-name="bg" draw:master-page-name="Default">
<draw:frame svg:x="1cm" svg:y="5cm" svg:width="3cm" svg:height="3cm"><draw:plugin xlink:href="file:///home/user/Music/beep.wav" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad" draw:mime-type="application/vnd.sun.star.media"/></draw:frame>
</draw:page>
<draw:page draw:name="p2" draw:master-page-name="Default"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="10cm" svg:height="2cm"><draw:text-box><text:p>Plain</text:p></draw:text-box></draw:frame></draw:page>`,
    }).replace('<office:styles/>', `<office:styles><draw:fill-image draw:name="bgimg"><office:binary-data>${png.toString('base64')}</office:binary-data></draw:fill-image></office:styles>`);
    const { talk } = saveAsPptx(join(dir, 'decks'), { talk: source });
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
    const spec = { type: 'audio_in_slide', ppt_file_path: '/home/user/Desktop/talk.pptx', slide_index: 0, dest: 'audio.wav' };
    const got = (await getters.require('audio_in_slide')(spec, ctx)) as string;
    expect(readFileSync(got).equals(wav)).toBe(true);
    expect(await getters.require('audio_in_slide')({ ...spec, slide_index: '1' }, ctx)).toBeUndefined();
    expect(await getters.require('audio_in_slide')({ ...spec, ppt_file_path: '/home/user/Desktop/none.pptx' }, ctx)).toBeUndefined();
    await expect(getters.require('audio_in_slide')({ ...spec, slide_index: 'first' }, ctx)).rejects.toThrow(/slide_index/);
  });

  it('background_image_in_slide extracts the slide background picture into the cache', async () => {
    expect(getterNeedsOf('background_image_in_slide')?.family).toBe('slides');
    const spec = { type: 'background_image_in_slide', ppt_file_path: '/home/user/Desktop/talk.pptx', slide_index: 0, dest: 'bg.png' };
    const got = (await getters.require('background_image_in_slide')(spec, ctx)) as string;
    expect(relative(ctx.cacheDir, got)).toBe(join('ppt', 'media', 'image1.png'));
    expect(readFileSync(got).equals(png)).toBe(true);
    expect(await getters.require('background_image_in_slide')({ ...spec, slide_index: 1 }, ctx)).toBeUndefined();
  });
});
