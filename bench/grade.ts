// Grading benchmark: the cost of the second opinion. Every native seed and demo task whose checks compare a
// guest file with a file beside the task (compare_csv, compare_text_file) is graded with the gold file put in
// place, under its own profile and under Spider2-V's, with and without the robust variant beside the faithful one.
// Run: npx tsx bench/grade.ts [task folders…]   (default: the native seed fixtures and the bundled demo)
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createShellEnvironment } from '../src/main/env/local/shell-environment';
import { gradeTask, planOf } from '../src/main/evaluators/grade';
import type { GradingProfile } from '../src/main/evaluators/profile';
import { loadTasks } from '../src/main/tasks/reader';
import type { Task } from '../src/shared/task';

const defaults = ['../shared/fixtures/seed-format/examples', 'resources/demo'];
const paths = (process.argv.length > 2 ? process.argv.slice(2) : defaults).map((p) => resolve(p));
const fileMetrics = new Set(['compare_csv', 'compare_text_file']);

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

const { tasks } = await loadTasks(paths);
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
    file.endsWith('.csv')
      ? Buffer.from(gold.toString('utf8').split(/\r?\n/).map((l) => (l ? l.split(',').map((c) => `"${c}"`).join(',') : l)).join('\n'))
      : Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), gold]),
};

async function gradeAll(profile: GradingProfile | undefined, secondOpinion: boolean): Promise<{ ms: number; cpuMs: number; flagged: number }> {
  let flagged = 0;
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (const { task } of cases) {
    const v = await gradeTask(task, { env, task, cacheDir, lastAction: 'DONE', profile, secondOpinion });
    if (v.brittle?.length) flagged++;
  }
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: (used.user + used.system) / 1000, flagged };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rounds = Math.max(15, Math.round(600 / cases.length));
console.log(`${cases.length} tasks (${cases.reduce((n, c) => n + c.files.length, 0)} file checks), ${rounds} interleaved rounds, medians per task: faithful only → with the second opinion`);
for (const [workload, edit] of Object.entries(edits)) {
  for (const c of cases) for (const f of c.files) await env.putFile(f.guest, edit(await readFile(f.gold), f.gold));
  for (const profile of [undefined, 'spider2v'] as const) {
    const { flagged } = await gradeAll(profile, true); // warm caches and JIT
    const without = { ms: [] as number[], cpu: [] as number[] };
    const withSecond = { ms: [] as number[], cpu: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      const a = await gradeAll(profile, false);
      const b = await gradeAll(profile, true);
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
        `${line('wall', median(without.ms), median(withSecond.ms))}   ${line('cpu', median(without.cpu), median(withSecond.cpu))}   flagged ${flagged}/${cases.length}`,
    );
  }
}
await env.close();
