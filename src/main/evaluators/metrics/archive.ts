// OSWorld's compare_archive (family `os`; desktop_env/evaluators/metrics/general.py's neighbour in chrome.py): two
// archives unpacked beside themselves, the same entry names, and each pair of files compared by the metric for
// their `file_type`. ZIP archives are read with jszip.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import JSZip from 'jszip';
import { registerMetricFamily } from '../family';
import type { GradingContext } from '../getter';
import { fail, metrics, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { brief, readBytes, zipError } from './inputs';

/** The metric OSWorld uses for each `file_type`. */
const byType: Record<string, string> = {
  text: 'compare_text_file',
  pdf: 'compare_pdfs',
  docx: 'compare_docx_files',
  ppt: 'compare_pptx_files',
  image: 'compare_images',
  csv: 'compare_csv',
  table: 'compare_table',
  audio: 'compare_audios',
  video: 'compare_videos',
};

/** Unpacks a ZIP archive into `dir` (entries leaving it are refused); false when it is no ZIP archive. */
async function unpack(bytes: Buffer, dir: string): Promise<true | string> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (e) {
    return `not a ZIP archive (${zipError(e)})`;
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const root = resolve(dir);
  for (const entry of Object.values(zip.files)) {
    const target = resolve(root, entry.name);
    if (target !== root && !target.startsWith(root + sep))
      return `entry '${entry.name}' leaves the archive's folder`;
    if (entry.dir) await mkdir(target, { recursive: true });
    else {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, await entry.async('nodebuffer'));
    }
  }
  return true;
}

/**
 * compare_archive — `result`, `expected`: archives. Options: `file_path` (a folder inside both to compare),
 * `file_type` (text, pdf, docx, ppt, image, csv, table, audio, video; default text) and that metric's own options.
 * 0 when the sorted entry names differ; else the average of the metric over the pairs.
 */
async function compareArchive(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  ctx: GradingContext,
): Promise<MetricOutcome> {
  if (typeof result !== 'string' || !result) return fail('no result archive');
  if (typeof expected !== 'string' || !expected) return fail('no expected archive');
  const { file_path: filePath = '', file_type: fileType = 'text', ...rest } = options;
  const metricName = byType[String(fileType)];
  if (!metricName) return fail(`file_type '${String(fileType)}' is not supported`);
  const compare = metrics.get(metricName);
  if (!compare) return fail(`the ${metricName} metric is not registered`);
  const folders: string[] = [];
  for (const [path, suffix] of [
    [result, '_pred'],
    [expected, '_gold'],
  ] as const) {
    const bytes = await readBytes(path);
    if (!bytes) return fail(`archive ${brief(path)} cannot be read`);
    const dir = path.replace(/\.[^./]*$/, '') + suffix;
    const ok = await unpack(bytes, dir);
    if (ok !== true) return fail(`${brief(path)}: ${ok}`);
    folders.push(join(dir, String(filePath)));
  }
  const [a, b] = await Promise.all(
    folders.map((f) =>
      readdir(f)
        .then((n) => n.sort())
        .catch(() => undefined),
    ),
  );
  if (!a || !b)
    return fail(`folder '${String(filePath)}' is missing in ${!a ? 'the result' : 'the expected'} archive`);
  if (a.length !== b.length || a.some((n, i) => n !== b[i]))
    return fail(`entries differ: ${brief(a)} vs ${brief(b)}`);
  if (a.length === 0) return fail('the archives are empty (OSWorld divides by zero)');
  let total = 0;
  for (const [i, name] of a.entries())
    total += (await compare(join(folders[0], name), join(folders[1], b[i]), rest, ctx)).score;
  return {
    score: total / a.length,
    reason: `${a.length} files compared with ${metricName}: average ${(total / a.length).toFixed(3)}`,
  };
}

registerMetricFamily('os', { compare_archive: compareArchive });

registerDeparture({
  metric: 'compare_archive',
  profile: 'osworld',
  case: 'tar and other archive formats',
  why: 'OSWorld unpacks any format shutil knows (zip, tar, gztar, bztar, xztar); Proctor unpacks ZIP archives and scores others 0',
});
