/**
 * The security checks (cli/checks/sec.ts) run as a command runs them, for test/helpers/sec-checks.ts:
 * `run([root])` gathers the context of `root`, runs SEC_CHECKS and prints the report as `--json` prints it
 * (`{ command, env, ok, summary, checks }`), resolving to 1 on a FAIL. It runs in the test file's command runner
 * (docs/testing.md#how-fw-runs-in-tests), or as `node sec-runner.js <root>` when FW_TEST_CLI=process.
 */
import { pathToFileURL } from 'node:url';
import { runChecks } from '../../cli/checks/check.js';
import { projectContext } from '../../cli/checks/context.js';
import { SEC_CHECKS } from '../../cli/checks/sec.js';

export async function run(args: readonly string[]): Promise<number> {
  const context = projectContext(args[0]!);
  const checks = await runChecks(SEC_CHECKS, context);
  const count = (status: string): number => checks.filter((check) => check.status === status).length;
  const summary = { ok: count('OK'), warn: count('WARN'), fail: count('FAIL'), skip: count('SKIP'), info: count('INFO') };
  process.stdout.write(JSON.stringify({ command: 'sec', env: context.appEnv, ok: summary.fail === 0, summary, checks }));
  return summary.fail === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await run(process.argv.slice(2));
