/**
 * `fw mail:doctor [--json]` (docs/mail.md "Commands"): read-only diagnosis of mail, in the report format of the
 * diagnostic commands, with ids (cli/diagnostic-report.ts): the MAIL_* configuration, the templates, the mail_log
 * SQL files and table, then a real SMTP session step by step (connection, EHLO, STARTTLS, AUTH), each within
 * MAIL_TIMEOUT, ending with QUIT before any message. Writes nothing: no storage/mail, no mail_log row, no SQLite
 * file. Exit 1 when a check fails.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { diagnosticReport, formatReport, reportJson } from '../../diagnostic-report.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--json', 'écrit le diagnostic en JSON');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { projectContext } = await import('../../checks/context.js');
  const { runChecks } = await import('../../checks/check.js');
  const { MAIL_CHECKS } = await import('../../checks/mail.js');
  const context = projectContext(root, 'mail:doctor');
  const results = await runChecks(MAIL_CHECKS, context);
  const report = diagnosticReport('mail:doctor', context.appEnv, results);
  process.stdout.write(options.json === true ? reportJson(report) : formatReport(report));
  return report.ok ? 0 : 1;
}
