// OSWorld's getters for Impress presentations (family `slides`; desktop_env/evaluators/getters/impress.py): the audio
// and the background image of one slide. The presentation is copied from the guest; a media file inside it is
// extracted into the grading cache, a linked one (`file://` target) is copied from the guest. All reach the machine
// only through the Environment.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute, posix } from 'node:path';
import JSZip from 'jszip';
import type { GetterSpec } from '../../../shared/task';
import { registerFamilyGetter } from '../family';
import { specString, type GradingContext } from '../getter';
import { attr, descendants, kids, NS, parseXml } from '../metrics/pptx';
import { fetchGuestFile } from './file';

interface SlideSpec {
  pptPath: string;
  slideIndex: number;
  dest: string;
}

function slideSpec(spec: GetterSpec): SlideSpec {
  const raw = spec.slide_index;
  const slideIndex =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\s*[+-]?\d+\s*$/.test(raw)
        ? Number(raw)
        : NaN;
  if (!Number.isInteger(slideIndex)) throw new Error(`getter '${spec.type}' needs an integer 'slide_index'`);
  return { pptPath: specString(spec, 'ppt_file_path'), slideIndex, dest: specString(spec, 'dest') };
}

/** The slide's relationships (ppt/slides/_rels/slide<n+1>.xml.rels, by part name as OSWorld reads it). */
async function slideRels(zip: JSZip, n: number): Promise<Element[]> {
  const f = zip.file(`ppt/slides/_rels/slide${n + 1}.xml.rels`);
  if (!f) return [];
  return kids(parseXml(await f.async('string')).documentElement, NS.rel, 'Relationship');
}

/** A relationship's media: a package part (`../media/x`) extracted beside the copied presentation, as OSWorld does;
 * a `file://` target copied from the guest to `dest`. Undefined when absent. */
async function mediaOf(
  rel: Element,
  zip: JSZip,
  pptHost: string,
  spec: SlideSpec,
  ctx: GradingContext,
  type: string,
): Promise<string | undefined> {
  const target = rel.getAttribute('Target') ?? '';
  if (target.startsWith('..')) {
    const part = posix.normalize(posix.join('ppt/slides', target));
    const host = join(dirname(pptHost), ...part.split('/'));
    const inside = relative(ctx.cacheDir, host);
    if (part.startsWith('..') || inside.startsWith('..') || isAbsolute(inside))
      throw new Error(`getter '${type}': ${spec.pptPath} names media outside its package (${target})`);
    const f = zip.file(part);
    if (!f)
      throw new Error(`getter '${type}': ${spec.pptPath} has no part ${part} (slide ${spec.slideIndex + 1})`);
    await mkdir(dirname(host), { recursive: true });
    await writeFile(host, await f.async('nodebuffer'));
    return host;
  }
  if (!target.startsWith('file://'))
    throw new Error(
      `getter '${type}': ${spec.pptPath} links media at '${target}', neither in the package nor a file:// path`,
    );
  // the path as written after file:// (not URL-decoded, as OSWorld takes it)
  return fetchGuestFile(ctx, target.slice('file://'.length), spec.dest);
}

async function openPresentation(
  spec: SlideSpec,
  ctx: GradingContext,
  type: string,
): Promise<{ zip: JSZip; host: string } | undefined> {
  const host = await fetchGuestFile(ctx, spec.pptPath, posix.basename(spec.pptPath));
  if (!host) return undefined;
  const data = await readFile(host);
  try {
    return { zip: await JSZip.loadAsync(data), host };
  } catch {
    throw new Error(`getter '${type}': ${spec.pptPath} is not a pptx (zip) file`);
  }
}

/**
 * audio_in_slide `{ppt_file_path, slide_index, dest}` — the audio of the slide (0-based index): the first
 * relationship of ppt/slides/slide<n+1>.xml whose type mentions audio; its file's host path, or undefined when the
 * slide has none (or the presentation is missing).
 */
async function audioInSlide(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const s = slideSpec(spec);
  const ppt = await openPresentation(s, ctx, spec.type);
  if (!ppt) return undefined;
  const rel = (await slideRels(ppt.zip, s.slideIndex)).find((r) =>
    (r.getAttribute('Type') ?? '').includes('audio'),
  );
  return rel ? mediaOf(rel, ppt.zip, ppt.host, s, ctx, spec.type) : undefined;
}

/**
 * background_image_in_slide `{ppt_file_path, slide_index, dest}` — the picture of the slide's own background
 * (the first a:blip inside a p:bgPr of ppt/slides/slide<n+1>.xml); its host path, or undefined when the slide has
 * no background picture.
 */
async function backgroundImageInSlide(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const s = slideSpec(spec);
  const ppt = await openPresentation(s, ctx, spec.type);
  if (!ppt) return undefined;
  const slide = ppt.zip.file(`ppt/slides/slide${s.slideIndex + 1}.xml`);
  if (!slide) return undefined;
  const doc = parseXml(await slide.async('string'));
  let imageId: string | undefined;
  for (const bgPr of descendants(doc, NS.p, 'bgPr')) {
    imageId = attr(descendants(bgPr, NS.a, 'blip')[0], 'embed', NS.r);
    if (imageId !== undefined) break;
  }
  if (imageId === undefined) return undefined;
  const rel = (await slideRels(ppt.zip, s.slideIndex)).find(
    (r) => (r.getAttribute('Type') ?? '').includes('image') && r.getAttribute('Id') === imageId,
  );
  return rel ? mediaOf(rel, ppt.zip, ppt.host, s, ctx, spec.type) : undefined;
}

registerFamilyGetter('slides', 'audio_in_slide', ['files'], audioInSlide);
registerFamilyGetter('slides', 'background_image_in_slide', ['files'], backgroundImageInSlide);
