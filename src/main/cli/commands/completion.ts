// `proctor completion bash`: print a bash completion script for every command's options (from their tables).
import { UsageError, type CliCommand } from '../command';
import { bashCompletion } from '../options/completion';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';

const options = optionTable({});

export const command: CliCommand = {
  name: 'completion',
  summary: 'print a shell completion script (bash) for the commands and their options',
  usage: usageText(
    `Usage: proctor completion bash

Prints a bash completion script: command names, each command's options, and the values an option takes (a
list, files or folders). Load it with: eval "$(proctor completion bash)"`,
    options,
  ),
  options,
  async run(argv, io) {
    const { positionals } = parseOptions(options, argv);
    if (positionals.length !== 1 || positionals[0] !== 'bash')
      throw new UsageError(
        positionals.length
          ? `completion for '${positionals[0]}' is not made; bash is`
          : 'give the shell: bash',
      );
    const { allCommands } = await import('../main');
    io.out(bashCompletion(await allCommands()).trimEnd());
    return 0;
  },
};
