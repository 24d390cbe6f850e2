/** What the migration tests share: a command that must succeed, the migration files, `fw migration:make`. */
import fs from 'node:fs';
import * as assert from 'uvu/assert';
import { lines, type CliProject } from './cli.js';

export const MIGRATIONS = 'mvc/migrations';

/** Runs `fw <args>`, which must exit 0; its output lines. */
export function okLines(project: CliProject, args: string[]): string[] {
  const run = project.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  return lines(run.stdout);
}

/** The `.sql` files of mvc/migrations/, sorted. */
export function migrationFiles(project: CliProject): string[] {
  return fs.readdirSync(project.path(MIGRATIONS)).filter((f) => f.endsWith('.sql')).sort();
}

/** `fw migration:make <args>`, which must succeed and write exactly one file; its name. */
export function makeMigration(project: CliProject, args: string[]): string {
  const before = migrationFiles(project);
  okLines(project, ['migration:make', ...args]);
  const made = migrationFiles(project).filter((f) => !before.includes(f));
  assert.is(made.length, 1);
  return made[0]!;
}
