// OSWorld's compare_image_text (family `documents`, as upstream's docs.py registers it): text read from an image
// by OCR. OSWorld runs EasyOCR (a PyTorch model); Proctor runs Debian's Tesseract CLI (`tesseract`, English).
import { execFile } from 'node:child_process';
import { registerMetricFamily } from '../family';
import { fail, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { brief, isFile, isRecord } from './inputs';

/** The image's text as Tesseract reads it, the words joined by single spaces (as OSWorld joins EasyOCR's boxes). */
export function ocrText(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'tesseract',
      [path, 'stdout', '-l', 'eng'],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(
              `tesseract failed on ${brief(path)}: ${(stderr || err.message).trim().split('\n').pop()}`,
            ),
          );
        else resolve(stdout.replace(/\s+/g, ' ').trim());
      },
    );
  });
}

/**
 * compare_image_text — `expected`: `{type: 'text', text}`; 1 when the OCR text of the result image contains `text`
 * (case-sensitive substring). Another rule type is an error in OSWorld: 0 here. Departure: OCR by Tesseract, not
 * EasyOCR — the two engines can read the same image differently (line breaks become spaces in both).
 */
async function compareImageText(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (typeof result !== 'string' || !result) return fail('no image');
  if (!(await isFile(result))) return fail(`image ${brief(result)} does not exist`);
  const rule = isRecord(expected) ? expected : {};
  if (rule.type !== 'text')
    return fail(`unsupported rule type ${brief(rule.type)} (OSWorld raises ValueError)`);
  const want = String(rule.text);
  let text: string;
  try {
    text = await ocrText(result);
  } catch (e) {
    return fail((e as Error).message);
  }
  return verdict(
    text.includes(want),
    `the image reads ${brief(want)}`,
    `${brief(want)} not in the text read: ${brief(text)}`,
  );
}

registerMetricFamily('documents', { compare_image_text: compareImageText });

registerDeparture({
  metric: 'compare_image_text',
  profile: 'osworld',
  case: 'every call',
  why: 'OSWorld reads the text with EasyOCR (a PyTorch model, no Node equivalent); Proctor uses Tesseract, which can read small, stylised or low-contrast text differently',
});
