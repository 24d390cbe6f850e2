/**
 * `fw deploy:check [--json] [--skip <ID>]…` (docs/deploy.md "deploy:check"): read-only. The checks of
 * `fw doctor --env prod` (the same registry, cli/checks/registry.ts), then the `deploy` family (cli/checks/deploy.ts):
 * build, migrations, database and its account, storage/, the nginx site and the systemd unit. Exit 1 on any FAIL.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--json', 'écrit le diagnostic en JSON');
  command.option('--skip <ID>', 'réduit un contrôle au silence (répétable)', (value: string, previous: string[] = []) => [...previous, value]);
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const skip = (options.skip as string[] | undefined) ?? [];
  const { CHECK_ID, CONFIG_FILE, readSilenced, runDiagnostic } = await import('../../checks/registry.js');
  for (const id of skip) {
    if (!CHECK_ID.test(id))
      throw new CliError(
        `identifiant de contrôle invalide pour --skip : « ${id} ».`,
        'un identifiant a la forme FW-FAMILLE-001 (docs/diagnostics.md les liste).',
      );
  }
  process.env.APP_ENV = 'prod';
  const { projectContext } = await import('../../checks/context.js');
  const { DEPLOY_CHECKS, DEPLOY_DEFINITIONS } = await import('../../checks/deploy.js');
  const { diagnosticReport, formatReport, reportJson } = await import('../../diagnostic-report.js');
  const context = projectContext(root, 'doctor');
  const results = await runDiagnostic('doctor', context, skip);
  // The deploy family is silenced like the others: --skip, then fw.config.json's "silenced_checks".
  const skipped = new Set(skip);
  const silenced = new Set(readSilenced(root).ids);
  for (const check of DEPLOY_CHECKS) {
    let found;
    try {
      found = await check(context);
    } catch (error) {
      found = [
        { ...DEPLOY_DEFINITIONS[0]!, status: 'FAIL' as const, detail: `contrôle interrompu : ${String((error as Error)?.message ?? error).split('\n')[0]}` },
      ];
    }
    for (const one of found) {
      const by = skipped.has(one.id) ? '--skip' : silenced.has(one.id) ? CONFIG_FILE : null;
      const { hint: _hint, ...rest } = one;
      results.push(by ? { ...rest, status: 'SKIP', detail: `réduit au silence par ${by} (${[one.status, one.detail].filter(Boolean).join(' : ')})` } : one);
    }
  }
  const report = diagnosticReport('deploy:check', context.appEnv, results);
  process.stdout.write(options.json === true ? reportJson(report) : formatReport(report));
  return report.ok ? 0 : 1;
}
