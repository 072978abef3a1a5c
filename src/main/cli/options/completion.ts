// `proctor completion bash`: a bash completion script made from the commands' option tables (their flags, and
// the values an option completes with: a list, files or folders); commands without a table give their usage's flags.
import { usageOptions, type CliCommand } from '../command';
import type { OptionTable } from './table';

const word = /^[A-Za-z0-9][A-Za-z0-9._:+@/-]*$/;

function flagsOf(c: CliCommand): string[] {
  if (!c.options) return usageOptions(c.usage).known;
  return [
    '--help',
    ...Object.entries(c.options)
      .filter(([, s]) => !s.hidden)
      .map(([n]) => `--${n}`),
  ];
}

/** `case` arms completing an option's value: `"cmd --flag") COMPREPLY=(…)`. */
function valueArms(name: string, table: OptionTable): string[] {
  const arms: string[] = [];
  for (const [opt, spec] of Object.entries(table)) {
    if (spec.hidden || !spec.complete || spec.kind !== 'string') continue;
    const gen =
      spec.complete === 'file'
        ? 'compgen -f -- "$cur"'
        : spec.complete === 'dir'
          ? 'compgen -d -- "$cur"'
          : `compgen -W "${spec.complete.filter((w) => word.test(w)).join(' ')}" -- "$cur"`;
    arms.push(`    "${name} --${opt}") COMPREPLY=( $(${gen}) ); return ;;`);
  }
  return arms;
}

/** The script: `eval "$(proctor completion bash)"` (or save it under bash-completion's completions folder). */
export function bashCompletion(commands: CliCommand[]): string {
  const usable = commands.filter((c) => word.test(c.name));
  return [
    '# bash completion for proctor; load with: eval "$(proctor completion bash)"',
    '_proctor() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="${COMP_WORDS[1]}" opts=""',
    '  if [[ $COMP_CWORD -eq 1 ]]; then',
    `    COMPREPLY=( $(compgen -W "help ${usable.map((c) => c.name).join(' ')}" -- "$cur") ); return`,
    '  fi',
    '  case "$cmd $prev" in',
    ...usable.flatMap((c) => (c.options ? valueArms(c.name, c.options) : [])),
    '  esac',
    '  case "$cmd" in',
    ...usable.map(
      (c) =>
        `    ${c.name}) opts="${flagsOf(c)
          .filter((f) => word.test(f.slice(2)))
          .join(' ')}" ;;`,
    ),
    '  esac',
    '  if [[ "$cur" == -* ]]; then COMPREPLY=( $(compgen -W "$opts" -- "$cur") ); else COMPREPLY=( $(compgen -f -- "$cur") ); fi',
    '}',
    'complete -o filenames -F _proctor proctor',
    '',
  ].join('\n');
}
