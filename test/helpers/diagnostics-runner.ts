/**
 * A tiny stand-in for the diagnostic commands, run as a process in a project folder by test/helpers/diagnostics.ts:
 * `node diagnostics-runner.js <command> <family>…` gathers the context for `<command>`, runs the checks of each family
 * in order, prints `{ command, ok, summary, checks }` as JSON and exits 1 when a check FAILs, else 0.
 */
import { runChecks, type CheckFunction } from '../../cli/checks/check.js';
import { projectContext, type DiagnosticCommand } from '../../cli/checks/context.js';
import { DB_CHECKS } from '../../cli/checks/db.js';
import { MIGR_CHECKS } from '../../cli/checks/migr.js';
import { ROUTE_CHECKS } from '../../cli/checks/route.js';

const FAMILIES: Record<string, readonly CheckFunction[]> = { route: ROUTE_CHECKS, migr: MIGR_CHECKS, db: DB_CHECKS };

const [command, ...families] = process.argv.slice(2) as [DiagnosticCommand, ...string[]];
const checks = families.flatMap((family) => {
  const found = FAMILIES[family];
  if (!found) throw new Error(`famille inconnue : ${family}`);
  return found;
});
const results = await runChecks(checks, projectContext(process.cwd(), command));
const count = (status: string): number => results.filter((check) => check.status === status).length;
const summary = { ok: count('OK'), warn: count('WARN'), fail: count('FAIL'), skip: count('SKIP'), info: count('INFO') };
process.stdout.write(`${JSON.stringify({ command, ok: summary.fail === 0, summary, checks: results })}\n`);
// A stalled database's socket must not keep the process alive: the report is written (pipes are synchronous).
process.exit(summary.fail > 0 ? 1 : 0);
