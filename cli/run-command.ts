/** Runs one command module under commander, turning commander's own errors into `CliError`s (docs/decisions.md#cli-errors-and-exit-codes). */
import type { CommanderError, Option } from 'commander';
import type { CommandModule } from './command-module.js';
import type { CommandEntry } from './commands-table.js';
import { CliError, missingOptionValue } from './errors.js';
import { usageLine } from './help.js';

/** Parses `args` (what follows the command name) for `entry`, runs the module and resolves to the exit code. */
export async function runCommand(entry: CommandEntry, module: CommandModule, args: readonly string[]): Promise<number> {
  // commander is loaded here, not at start-up: `fw --version` and `fw help` do not need it.
  const { Command, CommanderError } = await import('commander');
  const command = new Command(entry.name)
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} })
    .helpOption(false)
    .allowExcessArguments(false);
  module.configure(command);
  let exitCode = 0;
  command.action(async () => {
    exitCode = await module.run({ args: command.processedArgs, options: command.opts() });
  });
  try {
    await command.parseAsync([...args], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) throw fromCommander(error, entry, command.options);
    throw error;
  }
  return exitCode;
}

/** Translates a commander parse error into the French message and advice of the CLI. */
function fromCommander(error: CommanderError, entry: CommandEntry, options: readonly Option[]): CliError {
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  const usage = `usage : ${usageLine(entry)}`;
  switch (error.code) {
    case 'commander.missingArgument':
      return new CliError(`il manque l'argument <${quoted}> de « fw ${entry.name} ».`, entry.example ? `par exemple « ${entry.example} ».` : `${usage}.`);
    case 'commander.optionMissingArgument': {
      const option = options.find((candidate) => candidate.flags === quoted);
      const flag = option?.long ?? option?.short ?? quoted;
      return missingOptionValue(entry.name, flag, option?.description ? `${flag} : ${option.description}.` : `${usage}.`);
    }
    case 'commander.unknownOption':
      return new CliError(`option inconnue « ${quoted} » pour « fw ${entry.name} ».`, `${usage}.`);
    case 'commander.excessArguments':
      return new CliError(`trop d'arguments pour « fw ${entry.name} ».`, `${usage}.`);
    default:
      return new CliError(`arguments invalides pour « fw ${entry.name} » (${error.message.replace(/^error: /, '')}).`, `${usage}.`);
  }
}
