// `proctor team add NAME [--role annotator|reviewer|lead] [--root DIR]` and `proctor team list`: the people of a
// served folder. Each gets a token, printed once and stored only hashed; with a team, `proctor serve` asks for
// one at a login page and records every label with its person.
import { resolve } from 'node:path';
import { UsageError, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import type { Role } from '../../../shared/run';
import { addTeamMember, readTeam, roles, teamFileOf } from '../../annotate/team';

const options = optionTable({
  role: {
    kind: 'string',
    value: 'ROLE',
    default: 'annotator',
    complete: ['annotator', 'reviewer', 'lead'],
    help: 'with add: annotator | reviewer | lead (default annotator)',
  },
  root: {
    kind: 'string',
    value: 'DIR',
    default: '.',
    complete: 'dir',
    help: 'the folder whose team it is (default: the current folder)',
  },
});

const usage = usageText(
  `Usage: proctor team add NAME [--role annotator|reviewer|lead] [--root DIR]
       proctor team list [--root DIR]

The team of the folder --root DIR (default: the current folder), kept in DIR/.proctor/team.json.
  add    adds NAME (default role annotator) and prints their token once; adding an existing name gives
         them a new token (the old one stops working) and the role given
  list   who is in the team, with their roles
Roles: annotators label runs; reviewers also see agreement and conflicts; leads also settle conflicts.`,
  options,
);

export const command: CliCommand = {
  name: 'team',
  summary: "the people who label a folder's runs, their roles and tokens",
  usage,
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    const root = resolve(values.root);
    const [sub, name, ...extra] = positionals;
    if (sub === 'list') {
      const team = readTeam(root);
      if (!team) io.out(`no team in ${root}`);
      else for (const p of team.people) io.out(`${p.name.padEnd(24)} ${p.role}`);
      return 0;
    }
    if (sub !== 'add')
      throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'give a subcommand: add or list');
    if (!name || extra.length) throw new UsageError('give one name');
    const role = values.role as Role;
    if (!roles.includes(role))
      throw new UsageError(`--role must be one of ${roles.join(', ')}, not '${values.role}'`);
    try {
      const token = await addTeamMember(root, name, role);
      io.out(`${name} (${role}) added to ${teamFileOf(root)}`);
      io.out(`token (shown once; give it to ${name}): ${token}`);
    } catch (e) {
      io.err(`proctor team: ${(e as Error).message}`);
      return 1;
    }
    return 0;
  },
};
