/**
 * `fw project:check` (strict: OK, WARN, FAIL) and `fw project:audit` (detailed: OK, WARN, FAIL, INFO), with
 * `--json`, `--env <name>` and `--skip <ID>`: the families of cli/checks/registry.ts over the working directory,
 * exit 1 on any FAIL (docs/diagnostics.md). Outside a project they fail at once (docs/decisions.md#cli-errors-and-exit-codes):
 * a message saying the folder is not a project, and advice. One module for both.
 */
import type { Command } from 'commander';
import type { CommandInput, CommandModule } from '../../command-module.js';
import { assertProjectHere } from '../../project.js';
import { configureDiagnostic, runDiagnosticCommand } from './diagnostic-options.js';

/** The module of one of the two structural diagnostics. */
export function projectDiagnostic(commandName: 'project:check' | 'project:audit'): CommandModule {
  return {
    configure(command: Command): void {
      configureDiagnostic(command);
    },
    run(input: CommandInput): Promise<number> {
      return runDiagnosticCommand(commandName, assertProjectHere(commandName), input);
    },
  };
}
