/**
 * A tiny stand-in for the diagnostic commands, run in a project folder by test/helpers/diagnostics-families.ts:
 * `run([command, ...families])` gathers the context for `<command>`, runs the checks of each family in order, prints
 * `{ command, ok, summary, checks }` as JSON and resolves to 1 when a check FAILs, else 0. It runs in the test
 * file's command runner (docs/testing.md#how-fw-runs-in-tests), or as a process of its own
 * (`node diagnostics-runner.js <command> <family>…`) when FW_TEST_CLI=process.
 */
import { pathToFileURL } from 'node:url';
import { runChecks, type CheckFunction } from '../../cli/checks/check.js';
import { projectContext, type DiagnosticCommand } from '../../cli/checks/context.js';
import { DB_CHECKS } from '../../cli/checks/db.js';
import { MIGR_CHECKS } from '../../cli/checks/migr.js';
import { ROUTE_CHECKS } from '../../cli/checks/route.js';

const FAMILIES: Record<string, readonly CheckFunction[]> = { route: ROUTE_CHECKS, migr: MIGR_CHECKS, db: DB_CHECKS };

export async function run(args: readonly string[]): Promise<number> {
  const [command, ...families] = args as [DiagnosticCommand, ...string[]];
  const checks = families.flatMap((family) => {
    const found = FAMILIES[family];
    if (!found) throw new Error(`famille inconnue : ${family}`);
    return found;
  });
  const results = await runChecks(checks, projectContext(process.cwd(), command));
  const count = (status: string): number => results.filter((check) => check.status === status).length;
  const summary = { ok: count('OK'), warn: count('WARN'), fail: count('FAIL'), skip: count('SKIP'), info: count('INFO') };
  process.stdout.write(`${JSON.stringify({ command, ok: summary.fail === 0, summary, checks: results })}\n`);
  return summary.fail > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // A stalled database's socket must not keep the process alive: the report is written (pipes are synchronous).
  process.exit(await run(process.argv.slice(2)));
}
