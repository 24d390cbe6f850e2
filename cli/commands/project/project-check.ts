/**
 * `fw project:check [--json] [--env <name>] [--skip <ID>]…`: the strict structural diagnostic (OK, WARN, FAIL) of
 * the families of cli/checks/registry.ts over the working directory, exit 1 on any FAIL (docs/diagnostics.md).
 * Outside a project it fails at once (docs/decisions.md#cli-errors-and-exit-codes): a message saying the folder is
 * not a project, and advice. Options and report are those of `doctor` (cli/project/diagnostic-options.ts).
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { assertProjectHere } from '../../current-project.js';
import { configureDiagnostic, runDiagnosticCommand } from '../../project/diagnostic-options.js';

export function configure(command: Command): void {
  configureDiagnostic(command);
}

export function run(input: CommandInput): Promise<number> {
  return runDiagnosticCommand('project:check', assertProjectHere('project:check'), input);
}
