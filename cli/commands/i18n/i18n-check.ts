/**
 * `fw i18n:check [--json]` (docs/decisions.md#translations-check, docs/frontend.md "fw i18n:check [--json]"): read-only, reported as `doctor` does.
 * FAIL: a key used but missing from a catalogue, a key of one catalogue missing from another, an empty value, an
 * unreadable catalogue. WARN: a key of the project's catalogues that nothing uses (a key that overrides one of the
 * framework's is in use by the framework). Exit 1 on any FAIL.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { checksExitCode, checksJson, formatChecks, reportCheck } from '../../diagnostic-report.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--json', 'écrit le diagnostic en JSON');
}

/** The rules live in cli/checks/i18n.ts, which `fw doctor` and `project:audit` run too. */
export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { projectContext } = await import('../../checks/context.js');
  const { i18nCheck, i18nCheckCode } = await import('../../checks/i18n.js');
  const results = await i18nCheck(projectContext(root));
  const checks = results.map((result) => reportCheck(result, i18nCheckCode(result.id)));
  process.stdout.write(options.json === true ? checksJson(checks) : formatChecks(checks));
  return checksExitCode(checks);
}
