/**
 * `fw project:audit [--json] [--env <name>] [--skip <ID>]…`: the detailed, non-destructive report (OK, WARN, FAIL,
 * INFO) of the families of cli/checks/registry.ts over the working directory, exit 1 on any FAIL
 * (docs/diagnostics.md). Outside a project it fails at once, like `project:check` (cli/project/diagnostic-options.ts).
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { assertProjectHere } from '../../current-project.js';
import { configureDiagnostic, runDiagnosticCommand } from '../../project/diagnostic-options.js';

export function configure(command: Command): void {
  configureDiagnostic(command);
}

export function run(input: CommandInput): Promise<number> {
  return runDiagnosticCommand('project:audit', assertProjectHere('project:audit'), input);
}
