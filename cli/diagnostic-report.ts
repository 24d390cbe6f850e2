/**
 * The report of the doctor-style commands (docs/decisions.md#command-output-reports-and-tables): one line per check, two spaces, the tag
 * (`[OK]`, `[WARN]`, `[FAIL]`, `[SKIP]`) padded to 7, the label, ` — detail`; then `N avertissement(s), M erreur(s).`
 * With `--json`, the same checks as an object. Exit 1 when any check fails.
 */

export type CheckStatus = 'OK' | 'WARN' | 'FAIL' | 'SKIP';

export interface Check {
  /** A stable identifier for scripts (`sql_files`, `tables`…). */
  readonly code: string;
  readonly status: CheckStatus;
  readonly label: string;
  readonly detail: string;
}

/** `  [WARN] Label — detail`. */
export function formatCheck(check: Check): string {
  return `  ${`[${check.status}]`.padEnd(7)}${check.label}${check.detail ? ` — ${check.detail}` : ''}`;
}

function count(checks: readonly Check[], status: CheckStatus): number {
  return checks.filter((check) => check.status === status).length;
}

/** The text report, ending with the summary line and a newline. */
export function formatChecks(checks: readonly Check[]): string {
  const lines = checks.map(formatCheck);
  lines.push(`${count(checks, 'WARN')} avertissement(s), ${count(checks, 'FAIL')} erreur(s).`);
  return `${lines.join('\n')}\n`;
}

/** The JSON report: `{ ok, warnings, errors, checks: [{ code, status, label, detail }] }`. */
export function checksJson(checks: readonly Check[]): string {
  const report = { ok: count(checks, 'FAIL') === 0, warnings: count(checks, 'WARN'), errors: count(checks, 'FAIL'), checks };
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** 1 when a check failed, else 0. */
export function checksExitCode(checks: readonly Check[]): number {
  return count(checks, 'FAIL') > 0 ? 1 : 0;
}
