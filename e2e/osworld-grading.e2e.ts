// `proctor run` grading OSWorld task files across app families end to end: each task's setup downloads the file
// an agent would have left (from a --downloads folder; nothing is fetched), the noop agent does nothing, and the
// task's own evaluator grades it — vm_file from the sandbox's home, cloud_file golds from the same folder — with
// files the real applications saved (LibreOffice, ImageMagick, ffmpeg). Then `proctor eval` re-grades the run
// from what it stored, to the same scores, with nothing left to the live machine.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingDemoPrograms, runProctor } from '../src/main/demo/testing-env';
import { onPath } from '../src/main/tasks/needs';
import { saveManyWithLibreOffice } from '../src/main/evaluators/testing/libreoffice';
import { fodp, saveAsPptx } from '../src/main/evaluators/testing/impress';

const missing = [...missingDemoPrograms(), ...['soffice', 'convert', 'ffmpeg'].filter((p) => !onPath(p))];
const why = missing.length ? ` (skipped: needs ${missing.join(', ')})` : '';

const URL_BASE = 'https://files.example.invalid/osworld/';

/** One OSWorld task: download `result` to the home, grade it against the gold `gold` with `func`. */
function task(
  id: string,
  snapshot: string,
  func: string,
  result: string,
  gold: string,
  options?: Record<string, unknown>,
) {
  const ext = result.slice(result.lastIndexOf('.'));
  return {
    id,
    snapshot,
    instruction: `Leave the ${snapshot} file as the gold one.`,
    source: 'proctor e2e',
    config: [
      {
        type: 'download',
        parameters: { files: [{ url: URL_BASE + result, path: `/home/user/Desktop/result${ext}` }] },
      },
    ],
    trajectory: 'trajectories/',
    // GIMP is not installed here (the images are ImageMagick's): a gimp task would be skipped for its app
    related_apps: [snapshot === 'gimp' ? 'os' : snapshot],
    evaluator: {
      func,
      result: { type: 'vm_file', path: `/home/user/Desktop/result${ext}`, dest: `result${ext}` },
      expected: { type: 'cloud_file', path: URL_BASE + gold, dest: `gold${ext}` },
      ...(options ? { options } : {}),
    },
  };
}

describe(`OSWorld task files graded by proctor run and proctor eval${why}`, () => {
  let root: string;
  /** task id → the score it must get */
  const want = new Map<string, (score: number) => boolean>();

  beforeAll(() => {
    if (why) return;
    root = mkdtempSync(join(tmpdir(), 'proctor-osworld-grading-'));
    const files = join(root, 'downloads');
    mkdirSync(files);
    const page = (word: string) =>
      `<html><body><h1>Report</h1><p>The ${word} figures are in.</p><p>Second paragraph.</p></body></html>`;
    saveManyWithLibreOffice(
      files,
      { 'report-gold': page('weekly'), 'report-same': page('weekly'), 'report-other': page('monthly') },
      'docx',
    );
    const sheet = (n: number) =>
      `<html><body><table><tr><th>item</th><th>units</th></tr><tr><td>pens</td><td>${n}</td></tr><tr><td>cups</td><td>4</td></tr></table></body></html>`;
    saveManyWithLibreOffice(files, { 'book-gold': sheet(3), 'book-other': sheet(5) }, 'xlsx');
    const slide = (title: string) =>
      fodp({
        pages: `<draw:page draw:master-page-name="Default"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>${title}</text:p></draw:text-box></draw:frame></draw:page>`,
      });
    const decks = saveAsPptx(join(root, 'decks'), {
      'deck-gold': slide('Roadmap'),
      'deck-same': slide('Roadmap'),
      'deck-other': slide('Road map'),
    });
    for (const [name, path] of Object.entries(decks))
      writeFileSync(join(files, `${name}.pptx`), readFileSync(path));
    execFileSync('convert', ['logo:', join(files, 'logo-gold.png')]);
    execFileSync('convert', ['logo:', '-flop', join(files, 'logo-flipped.png')]);
    for (const [name, hz, volume] of [
      ['tone-gold', 440, 0.5],
      ['tone-louder', 440, 0.9],
    ] as const) {
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${hz}:duration=2`,
        '-af',
        `volume=${volume}`,
        join(files, `${name}.wav`),
      ]);
    }

    const tasks: [string, ReturnType<typeof task>, (s: number) => boolean][] = [
      [
        'libreoffice_impress',
        task(
          'a1f0c2d4-0001-4e5f-8a9b-0c1d2e3f4a01',
          'libreoffice_impress',
          'compare_pptx_files',
          'deck-same.pptx',
          'deck-gold.pptx',
        ),
        (s) => s === 1,
      ],
      [
        'libreoffice_impress',
        task(
          'a1f0c2d4-0002-4e5f-8a9b-0c1d2e3f4a02',
          'libreoffice_impress',
          'compare_pptx_files',
          'deck-other.pptx',
          'deck-gold.pptx',
        ),
        (s) => s === 0,
      ],
      [
        'libreoffice_writer',
        task(
          'a1f0c2d4-0003-4e5f-8a9b-0c1d2e3f4a03',
          'libreoffice_writer',
          'compare_docx_files',
          'report-same.docx',
          'report-gold.docx',
        ),
        (s) => s === 1,
      ],
      [
        'libreoffice_writer',
        task(
          'a1f0c2d4-0004-4e5f-8a9b-0c1d2e3f4a04',
          'libreoffice_writer',
          'compare_docx_files',
          'report-other.docx',
          'report-gold.docx',
        ),
        (s) => s === 0,
      ],
      [
        'libreoffice_calc',
        task(
          'a1f0c2d4-0005-4e5f-8a9b-0c1d2e3f4a05',
          'libreoffice_calc',
          'compare_table',
          'book-other.xlsx',
          'book-gold.xlsx',
          { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }] },
        ),
        (s) => s === 0,
      ],
      [
        'gimp',
        task(
          'a1f0c2d4-0006-4e5f-8a9b-0c1d2e3f4a06',
          'gimp',
          'check_structure_sim',
          'logo-flipped.png',
          'logo-gold.png',
        ),
        (s) => s === 0,
      ],
      [
        'gimp',
        task(
          'a1f0c2d4-0007-4e5f-8a9b-0c1d2e3f4a07',
          'gimp',
          'check_structure_sim',
          'logo-gold.png',
          'logo-gold.png',
        ),
        (s) => s === 1,
      ],
      [
        'vlc',
        task(
          'a1f0c2d4-0008-4e5f-8a9b-0c1d2e3f4a08',
          'vlc',
          'compare_audios',
          'tone-louder.wav',
          'tone-gold.wav',
        ),
        (s) => s > 0.99,
      ],
    ];
    for (const [domain, t, check] of tasks) {
      mkdirSync(join(root, 'tasks', domain), { recursive: true });
      writeFileSync(join(root, 'tasks', domain, `${t.id}.json`), JSON.stringify(t));
      want.set(t.id, check);
    }
  }, 300_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.skipIf(!!why)(
    'grades each task as OSWorld would, and proctor eval agrees from the stored files alone',
    async () => {
      const r = await runProctor(
        [
          'run',
          join(root, 'tasks'),
          '--agent',
          'noop',
          '--downloads',
          join(root, 'downloads'),
          '--parallel',
          '2',
          '--out',
          join(root, 'out'),
          '--json',
        ],
        600_000,
      );
      expect(r.code, r.stderr).toBe(0);
      const run = JSON.parse(r.stdout) as {
        runDir: string;
        tasks: { taskId: string; state: string; score: number }[];
      };
      expect(run.tasks).toHaveLength(want.size);
      for (const t of run.tasks) {
        expect(t.state, `${t.taskId}: ${r.stderr}`).toBe('success');
        expect(want.get(t.taskId)!(t.score), `${t.taskId} scored ${t.score}`).toBe(true);
      }

      const e = await runProctor(['eval', run.runDir, '--json'], 300_000);
      expect(e.code, e.stderr).toBe(0);
      const again = JSON.parse(e.stdout) as {
        tasks: { key: string; storedScore: number; newScore: number; liveChecks: unknown[] }[];
      };
      for (const t of again.tasks) {
        expect(t.liveChecks, t.key).toEqual([]);
        expect(t.newScore, t.key).toBeCloseTo(t.storedScore, 9);
      }
    },
    900_000,
  );
});
