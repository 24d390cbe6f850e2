/**
 * The report of the doctor-style commands: one line per check, two spaces, the tag (`[OK]`, `[WARN]`, `[FAIL]`,
 * `[SKIP]`, `[INFO]`) padded to 7, the label, ` — detail`; then `N avertissement(s), M erreur(s).` With `--json`,
 * the same checks as an object. Exit 1 when any check fails. The results of the shared checks (cli/checks/) become
 * report lines through `reportCheck` (`auth:doctor`, `i18n:check`: their `code` names kept). `fw doctor`,
 * `project:check` and `project:audit` print the results themselves with their ids (`formatReport`, `reportJson`:
 * `{ command, env, ok, summary, checks }`, schemas/diagnostics-report.schema.json, docs/diagnostics.md).
 */
import { detailLine, type CheckResult, type CheckStatus } from './checks/check.js';

export type { CheckStatus };

export interface Check {
  /** A stable identifier for scripts (`sql_files`, `tables`…). */
  readonly code: string;
  readonly status: CheckStatus;
  readonly label: string;
  readonly detail: string;
}

/** A shared check's result as a report line: `code` is its name in the JSON report, the detail is `detail : hint`. */
export function reportCheck(result: CheckResult, code: string): Check {
  return { code, status: result.status, label: result.label, detail: detailLine(result) };
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

/** The report of `fw doctor`, `project:check` and `project:audit`: every result with its id. */
export interface DiagnosticReport {
  readonly command: string;
  /** The environment judged: `env/<env>` was read. */
  readonly env: string;
  readonly ok: boolean;
  readonly summary: Readonly<Record<'ok' | 'warn' | 'fail' | 'skip' | 'info', number>>;
  readonly checks: readonly CheckResult[];
}

function tally(results: readonly CheckResult[], status: CheckStatus): number {
  return results.filter((check) => check.status === status).length;
}

/** The report of `results` (schemas/diagnostics-report.schema.json; docs/diagnostics.md). */
export function diagnosticReport(command: string, env: string, results: readonly CheckResult[]): DiagnosticReport {
  const summary = {
    ok: tally(results, 'OK'),
    warn: tally(results, 'WARN'),
    fail: tally(results, 'FAIL'),
    skip: tally(results, 'SKIP'),
    info: tally(results, 'INFO'),
  };
  const checks = results.map((check) => {
    const { id, family, label, status, detail, hint, file, line, column } = check;
    return {
      id,
      family,
      label,
      status,
      detail: detail ?? '',
      ...(hint ? { hint } : {}),
      ...(file !== undefined ? { file } : {}),
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
    };
  });
  return { command, env, ok: summary.fail === 0, summary, checks };
}

/** `  [FAIL] FW-ENV-002 Label — detail : hint`: the line of `formatCheck` with the id after the tag. */
export function formatResult(result: CheckResult): string {
  const detail = detailLine(result);
  return `  ${`[${result.status}]`.padEnd(7)}${result.id} ${result.label}${detail ? ` — ${detail}` : ''}`;
}

/** The text report: one line per result, then the summary line of every diagnostic command. */
export function formatReport(report: DiagnosticReport): string {
  const lines = report.checks.map(formatResult);
  lines.push(`${report.summary.warn} avertissement(s), ${report.summary.fail} erreur(s).`);
  return `${lines.join('\n')}\n`;
}

/** The JSON report, two-space indented, ending with a newline. */
export function reportJson(report: DiagnosticReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
