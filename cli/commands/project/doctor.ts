/**
 * `fw doctor [--json] [--env <name>] [--skip <ID>]…`: read-only diagnosis of the project (OK, WARN, FAIL, SKIP;
 * exit 1 on any FAIL): runtime version, environment file and values, MVC structure, entities, templates, catalogues,
 * modules, MFA hints, npm, and auth when installed (docs/diagnostics.md). Run from the project or below it.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { projectRoot } from '../../current-project.js';
import { configureDiagnostic, runDiagnosticCommand } from '../../project/diagnostic-options.js';

export function configure(command: Command): void {
  configureDiagnostic(command);
}

export function run(input: CommandInput): Promise<number> {
  return runDiagnosticCommand('doctor', projectRoot(), input);
}
