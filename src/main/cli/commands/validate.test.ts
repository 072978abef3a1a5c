import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cp, mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../main';
import { needsShared, projectRoot, repoFixtures, sharedFixtures } from '../../testing/shared-fixtures';

// The mutated copies start from in-repo fixtures; the whole-set counts need the full benchmark fixtures.
const nativeRoot = repoFixtures.seedExamples;
const spiderRoot = repoFixtures.spider2vExamples;
const full = sharedFixtures();

async function proctor(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('proctor validate on the full fixtures', () => {
  const fixtures = full?.root ?? '';
  const nativeRoot = full?.seedExamples ?? '';
  const spiderRoot = full?.spider2vExamples ?? '';

  it.skipIf(!full)(
    `works through the real \`proctor\` binary: exit 0 and 538 valid files (${needsShared})`,
    async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['bin/proctor.mjs', 'validate', relative(projectRoot, spiderRoot), relative(projectRoot, nativeRoot)],
        { cwd: projectRoot },
      );
      expect(stdout.trim().split('\n').at(-1)).toMatch(/^538 files, 538 valid, 0 invalid, 2 warnings$/);
    },
  );

  it.skipIf(!full)(
    `finds all 538 task files valid and exits 0, warning about the native task whose counterpart is itself (${needsShared})`,
    async () => {
      const r = await proctor('validate', spiderRoot, nativeRoot);
      expect(r.code).toBe(0);
      expect(r.out.at(-1)).toMatch(/^538 files, 538 valid, 0 invalid, \d+ warnings$/);
      const self = r.out.filter((l) =>
        /5085517b-69e9-467a-897b-21b8fd926bde\.json:\/counterpart: warning: .*own id/.test(l),
      );
      expect(self).toHaveLength(1);
    },
  );

  it.skipIf(!full)(
    `counts split files as files (valid, every listed task found) and skips non-JSON files (${needsShared})`,
    async () => {
      const r = await proctor('validate', join(fixtures, 'spider2v'));
      expect(r.code).toBe(0);
      expect(r.out.at(-1)).toBe('500 files, 500 valid, 0 invalid, 0 warnings');
      const nb = await proctor('validate', join(nativeRoot, 'jupyter/00b43a0a-b17b-475d-a482-302efe94d4cc'));
      expect(nb.out.at(-1)).toBe('1 file, 1 valid, 0 invalid, 0 warnings'); // the .csv/.ipynb/.txt beside it are skipped
    },
  );

  it.skipIf(!full)(`prints a machine report with --json (${needsShared})`, async () => {
    const r = await proctor('validate', '--json', nativeRoot);
    const report = JSON.parse(r.out.join('\n'));
    expect(report.summary).toMatchObject({ files: 44, valid: 44, invalid: 0 });
    expect(report.files[0]).toMatchObject({ kind: 'task-native', valid: true });
  });

  it.skipIf(!full)(`turns the counterpart warnings into errors with --strict (${needsShared})`, async () => {
    const r = await proctor('validate', '--strict', nativeRoot);
    expect(r.code).toBe(1);
    expect(r.out.at(-1)).toMatch(/^44 files, 42 valid, 2 invalid, 0 warnings$/);
  });
});

describe('proctor validate on the in-repo fixtures', () => {
  it('works through the real `proctor` binary: exit 0 and 28 valid files', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bin/proctor.mjs', 'validate', 'fixtures/spider2v/examples', 'fixtures/seed-format/examples'],
      { cwd: projectRoot },
    );
    // counterpart warnings: 8 native tasks whose counterpart is not in the repository, one task pointing at
    // itself and the one pointing at it that gets no answer back
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^28 files, 28 valid, 0 invalid, 10 warnings$/);
  });

  it('finds all 28 task files valid and exits 0, warning about the native task whose counterpart is itself', async () => {
    const r = await proctor('validate', spiderRoot, nativeRoot);
    expect(r.code).toBe(0);
    expect(r.out.at(-1)).toMatch(/^28 files, 28 valid, 0 invalid, 10 warnings$/);
    const self = r.out.filter((l) =>
      /5085517b-69e9-467a-897b-21b8fd926bde\.json:\/counterpart: warning: .*own id/.test(l),
    );
    expect(self).toHaveLength(1);
    expect(
      r.out.filter((l) =>
        /99a0ef1f-7415-477b-8c85-5f3671761ab6\.json:\/counterpart: warning: .*does not point back/.test(l),
      ),
    ).toHaveLength(1);
  });

  it('counts split files as files (valid, every listed task found) and skips non-JSON files', async () => {
    const r = await proctor('validate', repoFixtures.spider2v);
    expect(r.code).toBe(0);
    expect(r.out.at(-1)).toBe('17 files, 17 valid, 0 invalid, 0 warnings');
    const nb = await proctor('validate', join(nativeRoot, 'jupyter/00b43a0a-b17b-475d-a482-302efe94d4cc'));
    expect(nb.out.at(-1)).toBe('1 file, 1 valid, 0 invalid, 0 warnings'); // the .csv/.ipynb/.txt beside it are skipped
  });

  it('prints a machine report with --json', async () => {
    const r = await proctor('validate', '--json', nativeRoot);
    const report = JSON.parse(r.out.join('\n'));
    expect(report.summary).toMatchObject({ files: 12, valid: 12, invalid: 0 });
    expect(report.files[0]).toMatchObject({ kind: 'task-native', valid: true });
  });

  it('turns the counterpart warnings into errors with --strict', async () => {
    const r = await proctor('validate', '--strict', nativeRoot);
    expect(r.code).toBe(1);
    expect(r.out.at(-1)).toMatch(/^12 files, 2 valid, 10 invalid, 0 warnings$/);
  });
});

describe('proctor validate on mutated copies', () => {
  let dir: string;
  const nativeId = '00b43a0a-b17b-475d-a482-302efe94d4cc';
  const counterId = 'cad93c85-d12d-4ba3-83d7-ba4e3ec3bfcc';
  const spiderId = '1137ff65-39d1-423e-bb70-7ef0a34cb90a';
  const file = (app: string, id: string): string => join(dir, 'examples', app, id, `${id}.json`);
  async function edit(path: string, change: (j: Record<string, unknown>) => void): Promise<void> {
    const j = JSON.parse(await readFile(path, 'utf8'));
    change(j);
    await writeFile(path, JSON.stringify(j, null, 2));
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proctor-validate-'));
    for (const id of [nativeId, counterId])
      await cp(join(nativeRoot, 'jupyter', id), join(dir, 'examples/jupyter', id), { recursive: true });
    await mkdir(join(dir, 'examples/dbt', spiderId), { recursive: true });
    await cp(join(spiderRoot, 'dbt', spiderId, `${spiderId}.json`), file('dbt', spiderId));
    await edit(file('dbt', spiderId), (j) => delete j.counterpart);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('starts from a clean copy', async () => {
    const r = await proctor('validate', dir);
    expect(r.out).toEqual(['3 files, 3 valid, 0 invalid, 0 warnings']);
    expect(r.code).toBe(0);
  });

  it('reports a removed instruction with its file and /instruction, exit 1', async () => {
    await edit(file('jupyter', nativeId), (j) => delete j.instruction);
    const r = await proctor('validate', dir);
    expect(r.code).toBe(1);
    expect(
      r.out.some(
        (l) =>
          l.startsWith(`${file('jupyter', nativeId)}:/instruction: `) ||
          l.includes(`${nativeId}.json:/instruction: missing required property 'instruction'`),
      ),
    ).toBe(true);
    expect(r.out.at(-1)).toBe('3 files, 2 valid, 1 invalid, 0 warnings');
  });

  it('gives line:col for a JSON syntax error', async () => {
    await writeFile(
      file('jupyter', nativeId),
      '{\n  "id": "x",\n  "snapshot": "jupyter"\n  "instruction": "y"\n}\n',
    );
    const r = await proctor('validate', dir);
    expect(r.code).toBe(1);
    expect(r.out.find((l) => l.includes(nativeId))).toMatch(
      new RegExp(`${nativeId}\\.json:4:3: JSON syntax error`),
    );
  });

  it('reports metric lists that do not line up as errors', async () => {
    await edit(file('dbt', spiderId), (j) => {
      const ev = j.evaluator as Record<string, unknown[]>;
      ev.options = ev.options.slice(0, 1);
      ev.expected = ev.expected[0] as unknown as unknown[];
    });
    const r = await proctor('validate', dir);
    expect(r.code).toBe(1);
    expect(
      r.out.some((l) => /:\/evaluator\/options: 'options' has 1 entries but 'func' lists 2 metrics/.test(l)),
    ).toBe(true);
    expect(
      r.out.some((l) =>
        /:\/evaluator\/expected: 'func' lists 2 metrics, so 'expected' must be a list/.test(l),
      ),
    ).toBe(true);
  });

  it('warns about a duplicate id (error with --strict)', async () => {
    await mkdir(join(dir, 'examples/jupyter/copy'), { recursive: true });
    await cp(file('jupyter', nativeId), join(dir, 'examples/jupyter/copy/copy.json'));
    const r = await proctor('validate', dir);
    expect(r.code).toBe(0);
    expect(r.out.some((l) => /copy\.json:\/id: warning: duplicate id '00b43a0a/.test(l))).toBe(true);
    expect((await proctor('validate', '--strict', dir)).code).toBe(1);
  });

  it('warns about a counterpart that does not exist, does not point back, or is the task itself', async () => {
    await edit(file('jupyter', nativeId), (j) => (j.counterpart = 'no-such-task'));
    let r = await proctor('validate', dir);
    expect(
      r.out.some((l) =>
        l.includes(`${nativeId}.json:/counterpart: warning: counterpart 'no-such-task' does not exist`),
      ),
    ).toBe(true);
    expect(
      r.out.some((l) =>
        l.includes(`${counterId}.json:/counterpart: warning: counterpart '${nativeId}' does not point back`),
      ),
    ).toBe(true);
    await edit(file('jupyter', nativeId), (j) => (j.counterpart = nativeId));
    r = await proctor('validate', dir);
    expect(
      r.out.some((l) =>
        l.includes(`${nativeId}.json:/counterpart: warning: counterpart '${nativeId}' is the task's own id`),
      ),
    ).toBe(true);
    expect(r.code).toBe(0);
  });

  it('finds a counterpart on disk when only one task file is validated', async () => {
    const r = await proctor('validate', file('jupyter', nativeId));
    expect(r.out).toEqual(['1 file, 1 valid, 0 invalid, 0 warnings']);
  });

  it('warns about unknown setup funcs, metrics and getter types, naming the closest known name', async () => {
    await edit(file('jupyter', nativeId), (j) => {
      (j.config as Array<{ func: string }>)[0].func = 'upload_file_to_mv';
      (j.evaluation as { func: string }).func = 'compare_cvs';
    });
    await edit(
      file('dbt', spiderId),
      (j) => ((j.evaluator as { result: Array<{ type: string }> }).result[1].type = 'vm_fille'),
    );
    const r = await proctor('validate', dir);
    expect(r.code).toBe(0);
    expect(r.out).toContainEqual(
      expect.stringMatching(
        /:\/config\/0\/func: warning: unknown setup func 'upload_file_to_mv' \(closest known: 'upload_file_to_vm'\)$/,
      ),
    );
    expect(r.out).toContainEqual(
      expect.stringMatching(
        /:\/evaluation\/func: warning: unknown metric 'compare_cvs' \(closest known: 'compare_csv'\)$/,
      ),
    );
    expect(r.out).toContainEqual(
      expect.stringMatching(
        /:\/evaluator\/result\/1\/type: warning: unknown getter type 'vm_fille' \(closest known: 'vm_file'\)$/,
      ),
    );
    expect((await proctor('validate', '--strict', dir)).code).toBe(1);
  });

  it('checks referenced files beside the task with --check-assets', async () => {
    const r = await proctor('validate', '--check-assets', join(dir, 'examples/jupyter', nativeId));
    expect(r.code).toBe(1);
    // gold.csv is in the fixture folder; init.sh and the two Athletes csv files are not
    expect(r.out).toContainEqual(
      expect.stringMatching(
        /:\/config\/4\/arguments\/local_path: referenced file does not exist: .*init\.sh/,
      ),
    );
    expect(r.out.some((l) => l.includes('gold.csv'))).toBe(false);
    await writeFile(join(dir, 'examples/jupyter', nativeId, 'init.sh'), '#!/bin/sh\n');
    const again = await proctor('validate', '--check-assets', join(dir, 'examples/jupyter', nativeId));
    expect(again.out.some((l) => l.includes('init.sh'))).toBe(false);
  });

  it('validates each line of a .jsonl file as an OSWorld traj line, with the line number', async () => {
    const good = {
      step_num: 1,
      action_timestamp: '20240101@120000123456',
      action: 'pyautogui.click(10, 20)',
      response: 'ok',
      reward: 0,
      done: false,
      info: {},
      screenshot_file: 'step_1_20240101@120000123456.png',
    };
    await writeFile(
      join(dir, 'traj.jsonl'),
      [JSON.stringify(good), JSON.stringify({ ...good, step_num: 'two' }), '{"Error": "crash"}', '{bad'].join(
        '\n',
      ) + '\n',
    );
    const r = await proctor('validate', join(dir, 'traj.jsonl'));
    expect(r.code).toBe(1);
    expect(r.out).toContainEqual(expect.stringMatching(/traj\.jsonl:2:\/step_num: must be integer/));
    expect(r.out).toContainEqual(expect.stringMatching(/traj\.jsonl:4:2: JSON syntax error/));
    expect(r.out.some((l) => /traj\.jsonl:[13]:/.test(l))).toBe(false);
  });

  it('reports a split file entry whose task file is missing', async () => {
    await writeFile(join(dir, 'test_all.json'), JSON.stringify({ jupyter: [nativeId, 'ghost'] }));
    const r = await proctor('validate', join(dir, 'test_all.json'));
    expect(r.code).toBe(1);
    expect(r.out).toContainEqual(
      expect.stringMatching(/test_all\.json:\/jupyter\/1: no task file for 'ghost'/),
    );
  });
});
