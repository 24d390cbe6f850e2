/**
 * The check model shared by the diagnostic commands (`auth:doctor` today; `fw doctor`, `project:check` and
 * `project:audit` reuse the same checks). A check is a function over a read-only project context that returns
 * results; a command gathers the context once, runs the checks it wants and prints their results
 * (cli/diagnostic-report.ts). See cli/checks/README.md.
 */
import type { ProjectContext } from './context.js';

/** OK, WARN (works, but risky), FAIL (broken: the command exits 1), SKIP (could not be checked), INFO (a fact). */
export type CheckStatus = 'OK' | 'WARN' | 'FAIL' | 'SKIP' | 'INFO';

export interface CheckResult {
  /** Stable, never reused: `FW-<FAMILY>-<NNN>` (`FW-AUTH-001`). Scripts and documentation refer to it. */
  readonly id: string;
  /** The family the check belongs to (`auth`…): a command runs one family or several. */
  readonly family: string;
  /** What was checked, as the report shows it. */
  readonly label: string;
  readonly status: CheckStatus;
  /** What was found. */
  readonly detail?: string;
  /** What to do about it, when there is something to do. */
  readonly hint?: string;
  /** The project file the result is about (posix path from the project's root), with a 1-based line and column. */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

/** A check: reads the context (never writes anything) and returns one result or several. */
export type CheckFunction = (context: ProjectContext) => Promise<CheckResult[]>;

/** What a check knows about itself before it runs: its id, family and label. */
export interface CheckDefinition {
  readonly id: string;
  readonly family: string;
  readonly label: string;
}

/** A result of `definition` with `status`, `detail` and, when not empty, `hint`. */
export function result(definition: CheckDefinition, status: CheckStatus, detail: string, hint = ''): CheckResult {
  const base = { id: definition.id, family: definition.family, label: definition.label, status, detail };
  return hint.trim() ? { ...base, hint: hint.trim() } : base;
}

/** `problem` and `advice` as a result's detail and hint: the problem without its final period, the advice trimmed. */
export function problem(definition: CheckDefinition, status: CheckStatus, summary: string, advice: string): CheckResult {
  return result(definition, status, summary.trim().replace(/[.]$/, ''), advice);
}

/** The one line a report shows after the label: `detail : hint`, or either alone. */
export function detailLine(check: CheckResult): string {
  const detail = check.detail ?? '';
  if (!check.hint) return detail;
  return detail ? `${detail} : ${check.hint}` : check.hint;
}

/** Runs `checks` in order over one context, their results concatenated in the same order. */
export async function runChecks(checks: readonly CheckFunction[], context: ProjectContext): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) results.push(...(await check(context)));
  return results;
}
