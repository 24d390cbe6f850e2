/**
 * A generated application whose records others refer to, served for real: Proprietaire and Animal (many-to-one
 * Animal.proprietaire_id → Proprietaire.id, `on_delete` left to its default, RESTRICT), with French labels and
 * plurals, a DECIMAL, a DOUBLE and a TEXT field; `fw make:crud` for both, `fw db:init`, `fw db:apply` on SQLite or
 * a throw-away MariaDB database, then `tsx app.ts` on an ephemeral port.
 */
import type { DialectName } from '../../runtime/db/index.js';
import { newProject, type CliProject } from './cli.js';
import { HttpClient, linkFramework, serveProject } from './crud-app.js';

const ID = { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true };

export const PROPRIETAIRE_JSON = {
  format_version: 1,
  entity: 'Proprietaire',
  table: 'proprietaires',
  label: 'Propriétaire',
  label_plural: 'Propriétaires',
  fields: [ID, { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } }],
};

export const ANIMAL_JSON = {
  format_version: 1,
  entity: 'Animal',
  table: 'animaux',
  plural: 'animaux',
  label: 'Animal',
  label_plural: 'Animaux',
  fields: [
    ID,
    { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } },
    { name: 'poids', sql_type: 'DECIMAL(6,2)' },
    { name: 'taille', sql_type: 'DOUBLE', nullable: true },
    { name: 'notes', sql_type: 'MEDIUMTEXT', nullable: true },
    { name: 'proprietaire_id', sql_type: 'INT', nullable: true },
  ],
};

export interface RestrictApp {
  readonly project: CliProject;
  readonly url: string;
  client(): HttpClient;
  /** SQL on the project's database with the admin account, no fw code involved. */
  rows(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  exec(sql: string, params?: unknown[]): Promise<void>;
  stop(): Promise<void>;
}

function ok(project: CliProject, args: string[]): void {
  const run = project.run(args);
  if (run.status !== 0) throw new Error(`fw ${args.join(' ')} a échoué (${run.status}) :\n${run.stdout}${run.stderr}`);
}

export async function startRestrictApp(dialect: DialectName): Promise<RestrictApp> {
  const project = newProject('Refuge');
  let child: import('node:child_process').ChildProcess | undefined;
  try {
    project.useDialect(dialect);
    project.write('mvc/entities/proprietaire/proprietaire.json', JSON.stringify(PROPRIETAIRE_JSON, null, 2) + '\n');
    project.write('mvc/entities/animal/animal.json', JSON.stringify(ANIMAL_JSON, null, 2) + '\n');
    // No --on-delete: the default, RESTRICT.
    ok(project, [
      'make:relation',
      '--name',
      'animal_proprietaire',
      '--type',
      'many_to_one',
      '--from',
      'Animal.proprietaire_id',
      '--to',
      'Proprietaire.id',
      '--no-input',
    ]);
    ok(project, ['make:crud', 'Proprietaire', '--public']);
    ok(project, ['make:crud', 'Animal', '--public']);
    ok(project, ['sync:relations']);
    ok(project, ['db:init']);
    ok(project, ['db:apply']);
    linkFramework(project);
    const served = await serveProject(project);
    child = served.child;
    const withDb = async <T>(fn: (db: ReturnType<CliProject['open']>) => Promise<T>): Promise<T> => {
      const db = project.open();
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    };
    return {
      project,
      url: served.url,
      client: () => new HttpClient(served.url),
      rows: (sql, params = []) => withDb((db) => db.fetchAll<Record<string, unknown>>(sql, params)),
      exec: async (sql, params = []) => {
        await withDb((db) => db.execute(sql, params));
      },
      async stop() {
        if (child && child.exitCode === null) {
          const exited = new Promise((resolve) => child!.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        await project.cleanup();
      },
    };
  } catch (err) {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    await project.cleanup();
    throw err;
  }
}
