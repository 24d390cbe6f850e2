/**
 * What the migration tests share: a command that must succeed, the migration files, `fw migration:make`, a query
 * on the project's database, and the Ville / Contact project the key and rebuild tests start from.
 */
import fs from 'node:fs';
import * as assert from 'uvu/assert';
import type { Database, DialectName } from '../../runtime/db/index.js';
import { lines, newProject, type CliProject } from './cli.js';

export const MIGRATIONS = 'mvc/migrations';

/** Runs `fw <args>`, which must exit 0; its output lines. */
export function okLines(project: CliProject, args: string[]): string[] {
  const run = project.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  return lines(run.stdout);
}

/** The `.sql` files of mvc/migrations/, sorted. */
export function migrationFiles(project: CliProject): string[] {
  return fs
    .readdirSync(project.path(MIGRATIONS))
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

/** `fw migration:make <args>`, which must succeed and write exactly one file; its name. */
export function makeMigration(project: CliProject, args: string[]): string {
  const before = migrationFiles(project);
  okLines(project, ['migration:make', ...args]);
  const made = migrationFiles(project).filter((f) => !before.includes(f));
  assert.is(made.length, 1);
  return made[0]!;
}

/** Rows of a query run on the project's database (admin account). */
export async function query<T extends object>(project: { open(): Database }, sql: string): Promise<T[]> {
  const db = project.open();
  try {
    return await db.fetchAll<T>(sql);
  } finally {
    await db.close();
  }
}

export const CONTACT_FILE = 'mvc/entities/contact/contact.json';

/**
 * `fw new Carnet` with Ville and Contact (a nullable `ville_id`, a nullable unique `code`) and their many-to-one,
 * built, the database made for `dialect`, and the migration `init --from-entities` written and applied; `init` is its
 * file. When a step fails, the project is cleaned up before the error is thrown.
 */
export async function newVilleContactProject(dialect: DialectName): Promise<{ project: CliProject; init: string }> {
  const project = newProject('Carnet');
  try {
    for (const name of ['Ville', 'Contact']) okLines(project, ['make:entity', name, '--no-input']);
    project.editJson<{ fields: unknown[] }>(CONTACT_FILE, (data) => {
      data.fields.push({ name: 'ville_id', sql_type: 'INT', nullable: true });
      data.fields.push({ name: 'code', sql_type: 'VARCHAR(20)', nullable: true, unique: true });
    });
    okLines(project, ['make:relation', '--no-input', '--name', 'contact_ville', '--type', 'many_to_one', '--from', 'Contact.ville_id', '--to', 'Ville.id']);
    okLines(project, ['build:model']);
    project.useDialect(dialect);
    okLines(project, ['db:init']);
    const init = makeMigration(project, ['init', '--from-entities']);
    okLines(project, ['migration:apply']);
    return { project, init };
  } catch (err) {
    await project.cleanup();
    throw err;
  }
}
