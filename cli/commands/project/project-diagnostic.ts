/**
 * `fw project:check [--json]` and `fw project:audit [--json]`: not implemented yet, but outside a project they
 * already fail as they will (docs/decisions.md#cli-errors-and-exit-codes): a message saying the folder is not a
 * project, and advice. One module for both: they parse the same options and refuse the same way.
 */
import type { Command } from 'commander';
import type { CommandModule } from '../../command-module.js';
import { notAvailable } from '../../errors.js';
import { assertProjectHere } from '../../project.js';

/** The module of one of the two structural diagnostics. */
export function projectDiagnostic(commandName: 'project:check' | 'project:audit'): CommandModule {
  return {
    configure(command: Command): void {
      command.option('--json', 'sortie JSON');
    },
    async run(): Promise<number> {
      assertProjectHere(commandName);
      throw notAvailable(commandName);
    },
  };
}
