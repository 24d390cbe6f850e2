/**
 * What `fw doctor`, `fw project:check` and `fw project:audit` share: their options (`--json`, `--env <name>`,
 * `--skip <ID>` repeatable), the run (context for the environment asked, the families of cli/checks/registry.ts,
 * silencing) and the report (text or JSON, cli/diagnostic-report.ts). Exit 1 when a check fails.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../command-module.js';
import { CliError } from '../errors.js';

export function configureDiagnostic(command: Command): void {
  command.option('--json', 'écrit le diagnostic en JSON');
  command.option('--env <name>', 'environnement jugé : env/<name> est lu (défaut : APP_ENV, sinon dev)');
  command.option('--skip <ID>', 'réduit un contrôle au silence (répétable)', (value: string, previous: string[] = []) => [...previous, value]);
}

const ENV_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Runs the diagnostic `command` over the project at `root` and prints its report; resolves to the exit code. */
export async function runDiagnosticCommand(command: 'doctor' | 'project:check' | 'project:audit', root: string, { options }: CommandInput): Promise<number> {
  const skip = (options.skip as string[] | undefined) ?? [];
  const { CHECK_ID, runDiagnostic } = await import('../checks/registry.js');
  for (const id of skip) {
    if (!CHECK_ID.test(id))
      throw new CliError(
        `identifiant de contrôle invalide pour --skip : « ${id} ».`,
        'un identifiant a la forme FW-FAMILLE-001 (docs/diagnostics.md les liste).',
      );
  }
  if (typeof options.env === 'string') {
    if (!ENV_NAME.test(options.env))
      throw new CliError(`nom d'environnement invalide : « ${options.env} ».`, 'par exemple « --env prod » (le fichier env/prod est lu).');
    process.env.APP_ENV = options.env;
  }
  const { projectContext } = await import('../checks/context.js');
  const { diagnosticReport, formatReport, reportJson } = await import('../diagnostic-report.js');
  const context = projectContext(root, command);
  const results = await runDiagnostic(command, context, skip);
  const report = diagnosticReport(command, context.appEnv, results);
  process.stdout.write(options.json === true ? reportJson(report) : formatReport(report));
  return report.ok ? 0 : 1;
}
