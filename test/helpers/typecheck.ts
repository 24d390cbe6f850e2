/**
 * `tsc <args>` for the tests, waited for synchronously: through the run's type-checker (`typecheck-server.ts`) when
 * `scripts/test.mjs` started one (FW_TEST_TYPECHECK, its socket), else, and with FW_TEST_TSC=process, as a `tsc`
 * process of its own (docs/testing.md "How `tsc` runs in tests").
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TSC, type Run } from './cli.js';

const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'typecheck-client.js');

/** Runs `tsc <args>` in `cwd` (`['--noEmit', '-p', 'tsconfig.json']` by default) and returns its exit code and output. */
export function runTsc(cwd: string, args: readonly string[] = ['--noEmit', '-p', 'tsconfig.json']): Run {
  const socket = process.env.FW_TEST_TYPECHECK;
  const command = socket && process.env.FW_TEST_TSC !== 'process' ? [CLIENT, socket, ...args] : [TSC, ...args];
  const result = spawnSync(process.execPath, command, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
