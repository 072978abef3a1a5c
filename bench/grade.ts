// Grading benchmark: the cost of the second opinion. Every native seed and demo task whose checks compare a
// guest file with a file beside the task (compare_csv, compare_text_file), and a Spider2-V-shaped compare_table
// task on a 300-row workbook written here, is graded with the gold file put in place (and with a changed copy),
// under its own profile and under Spider2-V's, with and without the robust variant beside the faithful one.
// First, the OSWorld mixed set (bench/osworld-set.ts): 40 result files over ten formats graded by OSWorld's
// metrics, beside reading the same files (result and gold) as the baseline.
// Run: npx tsx bench/grade.ts [task folders…]   (default: the native seed fixtures, full set if beside the clone, and the bundled demo)
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { createShellEnvironment } from '../src/main/env/local/shell-environment';
import { metrics } from '../src/main/evaluators/catalog';
import { gradeTask, planOf } from '../src/main/evaluators/grade';
import type { GradingContext } from '../src/main/evaluators/getter';
import type { GradingProfile } from '../src/main/evaluators/profile';
import { loadTasks } from '../src/main/tasks/reader';
import type { Task } from '../src/shared/task';
import { buildOsworldSet } from './osworld-set';
import { repoFixtures, sharedFixtures } from '../src/main/testing/shared-fixtures';

const defaults = [(sharedFixtures() ?? repoFixtures).seedExamples, 'resources/demo'];
const paths = (process.argv.length > 2 ? process.argv.slice(2) : defaults).map((p) => resolve(p));
const fileMetrics = new Set(['compare_csv', 'compare_text_file', 'compare_table']);

/** A Spider2-V-shaped task comparing a 300-row workbook by sheet_data, in a temporary folder. */
async function workbookTask(root: string): Promise<string> {
  const id = '00000000-bench-4000-8000-000000000001';
  const dir = join(root, 'examples', 'calc', id);
  await mkdir(dir, { recursive: true });
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(['id', 'region', 'units', 'price', 'total']);
  for (let i = 1; i <= 300; i++)
    ws.addRow([i, ['East', 'West', 'North'][i % 3], i % 17, 1.25 * (i % 7), (i % 17) * 1.25 * (i % 7)]);
  await wb.xlsx.writeFile(join(dir, 'gold.xlsx'));
  const evaluator = {
    func: 'compare_table',
    result: { type: 'vm_file', path: '/home/user/sales.xlsx', dest: 'sales.xlsx' },
    expected: { type: 'local_file', path: 'gold.xlsx' },
    options: { rules: [{ type: 'sheet_name' }, { type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }] },
  };
  const task = {
    id,
    snapshot: 'calc',
    instruction: 'bench',
    source: [],
    config: [],
    related_apps: ['calc'],
    tags: ['cli', 'verbose'],
    evaluator,
  };
  await writeFile(join(dir, `${id}.json`), JSON.stringify(task));
  return join(root, 'examples');
}

/** Tasks whose every check is a file comparison with a local gold file, and the guest files to put in place. */
function gradable(task: Task): { guest: string; gold: string }[] | undefined {
  const files: { guest: string; gold: string }[] = [];
  for (const check of task.checks) {
    const plan = planOf(check);
    if (plan.kind !== 'metric' || !fileMetrics.has(plan.metric)) return undefined;
    if (plan.result?.type !== 'vm_file' || plan.expected?.type !== 'local_file') return undefined;
    files.push({ guest: String(plan.result.path), gold: join(task.dir, String(plan.expected.path)) });
  }
  return files.length ? files : undefined;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The OSWorld mixed set: grading time against reading the same files, per format and in all. */
async function mixedSet(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'proctor-bench-osworld-set-'));
  const built = Date.now();
  const { cases, skipped } = buildOsworldSet(dir, (m) => metrics.has(m));
  const formats = [...new Set(cases.map((c) => c.format))];
  console.log(
    `OSWorld mixed set: ${cases.length} result files (${formats.map((f) => `${f} ${cases.filter((c) => c.format === f).length}`).join(', ')}), made by LibreOffice, calibre, ImageMagick and ffmpeg in ${((Date.now() - built) / 1000).toFixed(1)} s`,
  );
  for (const s of skipped) console.log(`  left out: ${s}`);
  const ctx = undefined as unknown as GradingContext; // these metrics read only their inputs
  const grade = async () => {
    const perFormat = new Map<string, number>();
    const scores: number[] = [];
    for (const c of cases) {
      const start = process.hrtime.bigint();
      const r = await metrics.require(c.metric)(c.result, c.expected, c.options, ctx);
      perFormat.set(c.format, (perFormat.get(c.format) ?? 0) + Number(process.hrtime.bigint() - start) / 1e6);
      scores.push(r.score);
    }
    return { perFormat, scores };
  };
  const read = async () => {
    const start = process.hrtime.bigint();
    for (const c of cases) await Promise.all([readFile(c.result), readFile(c.expected)]);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const { scores } = await grade(); // warm caches and JIT
  const rounds = 5;
  const reads: number[] = [];
  const grades: number[] = [];
  const byFormat = new Map<string, number[]>();
  for (let i = 0; i < rounds; i++) {
    reads.push(await read());
    const g = await grade();
    grades.push([...g.perFormat.values()].reduce((a, b) => a + b, 0));
    for (const [f, ms] of g.perFormat) byFormat.set(f, [...(byFormat.get(f) ?? []), ms]);
  }
  const partial = scores.filter((s) => s > 0 && s < 1).length;
  console.log(
    `  scores: ${scores.filter((s) => s === 1).length} scored 1, ${scores.filter((s) => s === 0).length} scored 0, ${partial} partial`,
  );
  console.log(
    `  grade all ${cases.length}: ${median(grades).toFixed(1)} ms (${(median(grades) / cases.length).toFixed(2)} ms per file)   baseline, read the same ${cases.length * 2} files: ${median(reads).toFixed(1)} ms   (medians of ${rounds} interleaved rounds)`,
  );
  console.log(
    `  per format: ${[...byFormat].map(([f, ms]) => `${f} ${(median(ms) / cases.filter((c) => c.format === f).length).toFixed(1)} ms/file`).join(', ')}`,
  );
  await rm(dir, { recursive: true, force: true });
}

await mixedSet();
const scratch = await mkdtemp(join(tmpdir(), 'proctor-bench-grade-'));
const { tasks } = await loadTasks([...paths, await workbookTask(scratch)]);
const cases = tasks.flatMap((t) => {
  const files = gradable(t);
  return files ? [{ task: t, files }] : [];
});
if (!cases.length) {
  console.error(`no task with file-comparison checks under ${paths.join(', ')}`);
  process.exit(1);
}
const env = await createShellEnvironment();
const cacheDir = join(env.home.root, '.bench-cache');

/** Results as agents leave them: the gold copy, or the gold with its cells quoted (CSV) / a byte-order mark (text). */
const edits: Record<string, (gold: Buffer, file: string) => Buffer> = {
  'gold copies': (gold) => gold,
  'changed copies': (gold, file) =>
    file.endsWith('.xlsx')
      ? gold // a workbook stays as it is (its second opinion costs the same either way)
      : file.endsWith('.csv')
        ? Buffer.from(
            gold
              .toString('utf8')
              .split(/\r?\n/)
              .map((l) =>
                l
                  ? l
                      .split(',')
                      .map((c) => `"${c}"`)
                      .join(',')
                  : l,
              )
              .join('\n'),
          )
        : Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), gold]),
};

/** Grades every case; each case's guest files are put in place first (tasks may share a guest path), untimed. */
async function gradeAll(
  profile: GradingProfile | undefined,
  secondOpinion: boolean,
  edit: (gold: Buffer, file: string) => Buffer,
): Promise<{ ms: number; cpuMs: number; flagged: number; passed: number }> {
  let flagged = 0;
  let passed = 0;
  let ms = 0;
  let cpuMs = 0;
  for (const { task, files } of cases) {
    for (const f of files) await env.putFile(f.guest, edit(golds.get(f.gold)!, f.gold));
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const v = await gradeTask(task, { env, task, cacheDir, lastAction: 'DONE', profile, secondOpinion });
    const used = process.cpuUsage(cpu);
    ms += Number(process.hrtime.bigint() - start) / 1e6;
    cpuMs += (used.user + used.system) / 1000;
    if (v.brittle?.length) flagged++;
    if (v.score === 1) passed++;
  }
  return { ms, cpuMs, flagged, passed };
}

const rounds = Math.max(15, Math.round(600 / cases.length));
console.log(
  `${cases.length} tasks (${cases.reduce((n, c) => n + c.files.length, 0)} file checks), ${rounds} interleaved rounds, medians per task: faithful only → with the second opinion`,
);
const golds = new Map<string, Buffer>();
for (const c of cases) for (const f of c.files) golds.set(f.gold, await readFile(f.gold));
for (const [workload, edit] of Object.entries(edits)) {
  for (const profile of [undefined, 'spider2v'] as const) {
    const { flagged, passed } = await gradeAll(profile, true, edit); // warm caches and JIT
    const without = { ms: [] as number[], cpu: [] as number[] };
    const withSecond = { ms: [] as number[], cpu: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      const a = await gradeAll(profile, false, edit);
      const b = await gradeAll(profile, true, edit);
      without.ms.push(a.ms);
      without.cpu.push(a.cpuMs);
      withSecond.ms.push(b.ms);
      withSecond.cpu.push(b.cpuMs);
    }
    const line = (what: string, a: number, b: number) => {
      const extra = ((b - a) / a) * 100;
      return `${what} ${(a / cases.length).toFixed(2)} → ${(b / cases.length).toFixed(2)} ms (${extra >= 0 ? '+' : ''}${extra.toFixed(1)} %${extra > 30 ? ', over the 30 % budget' : ''})`;
    };
    console.log(
      `${workload.padEnd(15)} ${(profile ?? 'own profile').padEnd(12)} ` +
        `${line('wall', median(without.ms), median(withSecond.ms))}   ${line('cpu', median(without.cpu), median(withSecond.cpu))}   scored 1: ${passed}, flagged ${flagged} of ${cases.length}`,
    );
  }
}
await env.close();
await rm(scratch, { recursive: true, force: true });
