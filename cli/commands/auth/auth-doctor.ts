/**
 * `fw auth:doctor [--json]`: read-only diagnosis of authentication, as `doctor` reports (OK, WARN, FAIL, SKIP;
 * exit 1 on any FAIL). It gathers the project's context, runs the `auth` checks of cli/checks/auth.ts (the SQL
 * files, the tables in the configured database, `registerAuthRoutes` in `mvc/routes.ts`, an active user, the
 * session and login-limit stores, TRUSTED_PROXIES, argon2, the TOTP secrets stored in clear) and prints them.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { checksExitCode, checksJson, formatChecks, reportCheck } from '../../diagnostic-report.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--json', 'écrit le diagnostic en JSON');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { projectContext } = await import('../../checks/context.js');
  const { runChecks } = await import('../../checks/check.js');
  const { AUTH_CHECKS, authCheckCode } = await import('../../checks/auth.js');
  const results = await runChecks(AUTH_CHECKS, projectContext(root));
  const checks = results.map((result) => reportCheck(result, authCheckCode(result.id)));
  process.stdout.write(options.json === true ? checksJson(checks) : formatChecks(checks));
  return checksExitCode(checks);
}
