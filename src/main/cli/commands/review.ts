// `proctor review TASK-FILE CHECK=VERDICT[:NOTE]… [--root DIR]` and `proctor review status TASK-FILE…`: task
// cross-validation (Spider2-V §3.1 checks a–e) recorded as the OS user, and the status that follows.
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { UsageError, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import {
  appendTaskReview,
  checkIds,
  checkTitles,
  readTaskReviews,
  taskStatus,
  type CheckId,
  type CheckVerdict,
  type TaskReview,
} from '../../annotate/task-review';
import { localCaller } from '../../annotate/team';
import { checkReset } from '../../annotate/reset-check';
import { checkReplay } from '../../annotate/replay-check';
import { appendEvidence, selfTestEvidence } from '../../annotate/evidence';
import { readTaskFile } from '../../tasks';
import { writeFileAtomic } from '../../store';
import { join } from 'node:path';
import '../../setup/serve-demo-site'; // registers serve_demo_site, which the bundled demo tasks' setup uses

const options = optionTable({
  root: {
    kind: 'string',
    value: 'DIR',
    default: '.',
    complete: 'dir',
    help: 'the folder whose reviews and evidence these are (default: the current folder)',
  },
  out: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'reset and replay: where heat maps go (default: the current folder)',
  },
});

const usageHead = `Usage: proctor review TASK-FILE CHECK=VERDICT[:NOTE]… [--root DIR]
       proctor review status TASK-FILE… [--root DIR]
       proctor review reset TASK-FILE… [--out DIR]
       proctor review replay RUN-DIR TASK-KEY TASK-FILE [--out DIR]
       proctor review selftest SELFTEST-DIR [--root DIR]

Records a cross-validation review of a task file (as the OS user), each check pass, fail or unsure with a note:
${checkIds.map((c) => `  ${c}  ${checkTitles[c]}`).join('\n')}
e.g. proctor review tasks/x.json a=pass b=pass "c=fail:setup writes the time" d=pass e=pass
A task is accepted when two reviewers other than its author pass every check, rejected when two fail it,
disputed when one passes and another fails it. \`reset\` gathers the evidence for check c: it runs the task's
setup twice on fresh sandbox displays, compares the first screens (a heat map of the differing pixels is
written to --out DIR, default the current folder) and the files setup wrote; exit status 1 when it differs.
\`replay\` gathers the evidence for check d: the stored run of the task (the oracle's or a person's) is replayed
step by step on a fresh sandbox display, each step's screen compared with the stored one (heat maps to --out),
and graded again; exit status 1 unless it scores 1. \`selftest\` takes checks d and e from a \`proctor selftest\`
evidence folder (the oracle scored 1; doing nothing and the cut oracle scored below 1). Evidence is kept in
DIR/.proctor/task-evidence.jsonl and pre-fills the review checklist in the workbench. Reviews live in DIR/.proctor/task-reviews.jsonl (DIR: --root,
default the current folder); tasks are named relative to DIR.`;

const usage = usageText(usageHead, options);

export const command: CliCommand = {
  name: 'review',
  summary: "cross-validate a task (checks a–e) and show tasks' review status",
  usage,
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    const root = resolve(values.root);
    const name = (file: string) => {
      const abs = resolve(file);
      if (!existsSync(abs)) throw new UsageError(`no task file ${file}`);
      return relative(root, abs);
    };
    if (positionals[0] === 'reset') {
      if (positionals.length < 2) throw new UsageError('give one or more task files');
      let differs = 0;
      for (const f of positionals.slice(1)) {
        const read = await readTaskFile(f);
        if (!read.task) {
          io.err(`${f}: not a readable task: ${read.problems.map((p) => p.message).join('; ')}`);
          differs++;
          continue;
        }
        try {
          const r = await checkReset(read.task);
          const heat = join(resolve(values.out ?? '.'), `${read.task.id}-reset-heatmap.png`);
          await writeFileAtomic(heat, r.heatMap);
          appendEvidence(root, {
            task: relative(root, resolve(f)),
            check: 'c',
            verdict: r.reproducible ? 'pass' : 'fail',
            note: r.reason,
            source: 'proctor review reset',
            files: [heat],
          });
          io.out(`${f}: ${r.reason} (heat map ${heat})`);
          if (!r.reproducible) differs++;
        } catch (e) {
          io.err(`${f}: setup failed: ${(e as Error).message}`);
          differs++;
        }
      }
      return differs ? 1 : 0;
    }
    if (positionals[0] === 'replay') {
      const [, runDir, taskKey, file, ...extra] = positionals;
      if (!runDir || !taskKey || !file || extra.length)
        throw new UsageError('give RUN-DIR TASK-KEY TASK-FILE');
      const read = await readTaskFile(file);
      if (!read.task) {
        io.err(`${file}: not a readable task: ${read.problems.map((p) => p.message).join('; ')}`);
        return 1;
      }
      try {
        const r = await checkReplay(read.task, resolve(runDir), taskKey);
        const out = resolve(values.out ?? '.');
        for (const s of r.steps) {
          if (s.heatMap)
            await writeFileAtomic(join(out, `${read.task.id}-replay-step-${s.step}.png`), s.heatMap);
          io.out(
            `  step ${s.step}: ${s.differingShare === undefined ? 'no stored screen' : `${(s.differingShare * 100).toFixed(2)}% differs`}`,
          );
        }
        io.out(`${taskKey}: ${r.reason}`);
        appendEvidence(root, {
          task: relative(root, resolve(file)),
          check: 'd',
          verdict: r.score >= 1 ? 'pass' : 'fail',
          note: r.reason,
          source: 'proctor review replay',
        });
        return r.score >= 1 ? 0 : 1;
      } catch (e) {
        io.err(`${taskKey}: replay failed: ${(e as Error).message}`);
        return 1;
      }
    }
    if (positionals[0] === 'selftest') {
      if (positionals.length !== 2) throw new UsageError('give one selftest evidence folder');
      let found;
      try {
        found = selfTestEvidence(resolve(positionals[1]));
      } catch (e) {
        io.err(`proctor review: ${(e as Error).message}`);
        return 1;
      }
      for (const e of found) {
        const task = relative(root, resolve(e.file));
        appendEvidence(root, {
          task,
          check: e.check,
          verdict: e.verdict,
          note: e.note,
          source: `proctor selftest ${positionals[1]}`,
        });
        io.out(`${task}: (${e.check}) ${e.verdict} — ${e.note}`);
      }
      return 0;
    }
    if (positionals[0] === 'status') {
      if (positionals.length < 2) throw new UsageError('give one or more task files');
      for (const f of positionals.slice(1)) {
        const task = name(f);
        const s = taskStatus(readTaskReviews(root, task));
        io.out(
          `${task}: ${s.status}${s.reviewers.length ? ` (${s.reviewers.map((r) => `${r.person} ${r.outcome}`).join(', ')})` : ''}`,
        );
      }
      return 0;
    }
    const [file, ...checks] = positionals;
    if (!file || !checks.length) throw new UsageError('give a task file and one or more CHECK=VERDICT');
    const parsed: TaskReview['checks'] = {};
    for (const c of checks) {
      const m = /^([a-e])=(pass|fail|unsure)(?::(.*))?$/s.exec(c);
      if (!m)
        throw new UsageError(`'${c}' is not CHECK=VERDICT[:NOTE] (CHECK a–e, VERDICT pass, fail or unsure)`);
      parsed[m[1] as CheckId] = { verdict: m[2] as CheckVerdict, ...(m[3] ? { note: m[3] } : {}) };
    }
    const task = name(file);
    appendTaskReview(root, {
      kind: 'task.review',
      task,
      author: localCaller().person,
      checks: parsed,
      at: new Date().toISOString(),
    });
    io.out(`${task}: ${taskStatus(readTaskReviews(root, task)).status}`);
    return 0;
  },
};
