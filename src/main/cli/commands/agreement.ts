// `proctor agreement <run-dir>… [--json]`: how far people agree on runs' labels (Krippendorff's alpha, Cohen's
// kappa per pair), the judge and the rule against people, per app and per task category; and the open conflicts.
import { resolve } from 'node:path';
import { UsageError, shownPath, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import type { AgreementFigures } from '../../../shared/annotate';
import { agreementOf, conflictsOf, labelledItems } from '../../annotate/items';
import type { Problem } from '../../../shared/task';

const options = optionTable({
  json: {
    kind: 'boolean',
    help: '{"alpha", "pairs": [{"a", "b", "items", "kappa", "observed"}], "judge", "rule", "byApp", "byCategory", "steps" (the same over per-step marks), "safety" (the same over safety verdicts, with its byApp and byCategory), "conflicts" (why "safety": see its "safety")}',
  },
  root: {
    kind: 'string',
    value: 'DIR',
    default: '.',
    complete: 'dir',
    help: 'without run folders: every run below DIR (default: the current folder)',
  },
});

const usage = usageText(
  `Usage: proctor agreement <run-dir>… [--json] [--root DIR]

Agreement of people's labels (complete yes / no / unsure) on the tasks of the runs: Krippendorff's alpha
(nominal, missing labels allowed) over all people, Cohen's kappa for each pair, and the LLM judge and the
rule score (1 = yes, below 1 = no) each against every person; overall, per app and per task category. Then
the conflicts: items where people disagree, or agree with each other but not with the rule. Safety labels
(safe / unsafe / unsure) are reported apart: the same figures with the safety judge and the rule detectors,
and safety conflicts (people differ, or agree but the detectors or the safety judge do not).`,
  options,
);

const fixed = (n: number | null) => (n === null ? '–' : n.toFixed(3));

function lines(title: string, f: AgreementFigures): string[] {
  const out = [`${title}: ${f.items} item(s), alpha ${fixed(f.alpha)}`];
  for (const p of f.pairs)
    out.push(
      `  ${`${p.a} × ${p.b}`.padEnd(30)} ${String(p.items).padStart(5)} items  kappa ${fixed(p.kappa).padStart(6)}  agree ${(p.observed * 100).toFixed(0)}%`,
    );
  return out;
}

export const command: CliCommand = {
  name: 'agreement',
  summary: 'agreement of people, judge and rule on runs (kappa, alpha) and the conflict queue',
  usage,
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    const base = resolve(values.root);
    const problems: Problem[] = [];
    let items;
    try {
      items = labelledItems(positionals, base, problems);
    } catch (e) {
      io.err(`proctor agreement: ${(e as Error).message}`);
      return 1;
    }
    if (!items.length && !positionals.length) throw new UsageError(`no runs below ${base}`);
    const report = agreementOf(items);
    const conflicts = conflictsOf(items);
    if (values.json) {
      io.out(JSON.stringify({ ...report, conflicts }, null, 2));
      return 0;
    }
    for (const l of lines('All', report)) io.out(l);
    for (const [name, f] of Object.entries(report.byApp)) for (const l of lines(`App ${name}`, f)) io.out(l);
    for (const [name, f] of Object.entries(report.byCategory))
      for (const l of lines(`Category ${name}`, f)) io.out(l);
    if (report.steps?.items) for (const l of lines('Step marks', report.steps)) io.out(l);
    if (report.safety?.items) {
      for (const l of lines('Safety', report.safety)) io.out(l);
      for (const [name, f] of Object.entries(report.safety.byApp))
        for (const l of lines(`Safety, app ${name}`, f)) io.out(l);
    }
    const safety = conflicts.filter((c) => c.safety);
    const completion = conflicts.filter((c) => !c.safety);
    const open = completion.filter((c) => !c.settled);
    io.out(`Conflicts: ${completion.length} (${open.length} open)`);
    for (const c of completion)
      io.out(
        `  ${c.run} ${c.taskKey}: ${c.people.map((p) => `${p.person} ${p.complete}`).join(', ')}${c.rule ? `, rule ${c.rule}` : ''}` +
          (c.settled ? ` — settled ${c.settled.complete} by ${c.settled.by}: ${c.settled.reason}` : ''),
      );
    if (safety.length) {
      io.out(`Safety conflicts: ${safety.length} (${safety.filter((c) => !c.safety!.settled).length} open)`);
      for (const c of safety) {
        const s = c.safety!;
        io.out(
          `  ${c.run} ${c.taskKey}: ${s.people.map((p) => `${p.person} ${p.verdict}`).join(', ')}${s.rule ? `, rules ${s.rule}` : ''}${s.judge ? `, judge ${s.judge}` : ''}` +
            (s.settled ? ` — settled ${s.settled.verdict} by ${s.settled.by}: ${s.settled.reason}` : ''),
        );
      }
    }
    for (const p of problems.slice(0, 20)) io.err(`${shownPath(p.file)}: ${p.message}`);
    return 0;
  },
};
