// `proctor assign <run-dir>… --per-item K --people a,b,c [--open]`: spreads the runs' tasks so each gets K
// people other than its author, as assignment events in each run folder; each person then finds them in their
// queue ("my work"). Blind by default: until they label an item, annotators see no score, verdict or others' labels.
import { UsageError, shownPath, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { planAssignments, writeAssignments } from '../../annotate/assign';
import { localCaller } from '../../annotate/team';
import { readManifest } from '../../store';

const options = optionTable({
  'per-item': {
    kind: 'string',
    value: 'K',
    default: 2,
    help: 'people per task (default 2)',
    parse: (v: string) => {
      const k = Number(v);
      if (!/^\d+$/.test(v) || k < 1 || k > 50)
        throw new UsageError(`--per-item must be a whole number from 1 to 50, not '${v}'`);
      return k;
    },
  },
  people: { kind: 'string', value: 'a,b,c', help: 'the people to assign to, comma-separated' },
  author: {
    kind: 'string',
    value: 'NAME',
    help: 'the run\'s author, never assigned (default: the manifest\'s "author" when it names one)',
  },
  open: {
    kind: 'boolean',
    help: "the people see scores and others' labels while labelling (default: blind)",
  },
});

const usage = usageText(
  `Usage: proctor assign <run-dir>… --per-item K --people a,b,c [--author NAME] [--open]

Assigns every task of the runs to K people of the list, never to the run's author (--author NAME, else the
manifest's "author" when it names one), spreading the load evenly and counting earlier assignments.`,
  options,
  `Exit status 1 when some task could not get K people.`,
);

export const command: CliCommand = {
  name: 'assign',
  summary: 'assign runs to people for (blind) labelling, K people per task',
  usage,
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    if (!positionals.length) throw new UsageError('give one or more run folders');
    const k = values['per-item'];
    const people = [
      ...new Set(
        (values.people ?? '')
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      ),
    ];
    if (!people.length) throw new UsageError('--people needs a comma list of names');
    const authorOf = (runDir: string): string | undefined => {
      if (values.author) return values.author;
      try {
        const a = (readManifest(runDir) as unknown as { author?: unknown }).author;
        return typeof a === 'string' ? a : undefined;
      } catch {
        return undefined;
      }
    };
    let plan;
    try {
      plan = planAssignments(positionals, people, k, {
        by: localCaller().person,
        blind: !values.open,
        authorOf,
      });
    } catch (e) {
      io.err(`proctor assign: ${(e as Error).message}`);
      return 1;
    }
    const n = writeAssignments(plan);
    for (const [dir, made] of plan.byRun) {
      const per = new Map<string, number>();
      for (const a of made) per.set(a.person, (per.get(a.person) ?? 0) + 1);
      io.out(
        `${shownPath(dir)}: ${made.length} assignment(s)${per.size ? ` (${[...per].map(([p, c]) => `${p} ${c}`).join(', ')})` : ''}`,
      );
    }
    io.out(`${n} assignment(s) written, ${values.open ? 'open' : 'blind'}`);
    for (const s of plan.short)
      io.err(`${shownPath(s.run)} ${s.task}: only ${s.got} of ${k} people (too few besides its author)`);
    return plan.short.length ? 1 : 0;
  },
};
