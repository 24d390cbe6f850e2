/**
 * A generated club application whose members are named by a pattern and whose fields carry constraints, served
 * for real (docs/entities.md "How a record is named", "Constraints"): Membre (`display: "{prenom} {nom}"`, an age
 * between 5 and 120, a fee between 0 and 500 by default 20, a code `[A-Z]{2}[0-9]{3}`, a pseudonym of 3 characters
 * at least, a country by default `France`), Inscription (many-to-one to Membre, RESTRICT) and Groupe (many-to-many
 * to Membre); `fw make:crud` for the three, and Benevole (`display: "{nom} ({ville})"`) with its public detail page
 * alone (`fw make:public-show`); `fw db:init`, `fw db:apply` on SQLite or MariaDB, then `tsx app.ts`. Its
 * `mvc/api_routes.ts` takes a member as JSON (`POST /api/membres`) and answers the entity's `validate()`: a 422
 * envelope whose details name each refused field, else 201 with the row as it would be written.
 */
import type { DialectName } from '../../runtime/db/index.js';
import { newProject, type CliProject } from './cli.js';
import { HttpClient, linkFramework, serveProject } from './crud-app.js';

const ID = { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true };

export const MEMBRE_JSON = {
  format_version: 1,
  entity: 'Membre',
  table: 'membres',
  label: 'Membre',
  label_plural: 'Membres',
  display: '{prenom} {nom}',
  fields: [
    ID,
    { name: 'prenom', sql_type: 'VARCHAR(50)' },
    { name: 'nom', sql_type: 'VARCHAR(50)' },
    { name: 'age', sql_type: 'INT', constraints: { min: 5, max: 120 } },
    { name: 'cotisation', sql_type: 'DECIMAL(6,2)', default: 20, constraints: { min: 0, max: 500 } },
    {
      name: 'code',
      sql_type: 'VARCHAR(5)',
      nullable: true,
      constraints: { pattern: '[A-Z]{2}[0-9]{3}', pattern_message: 'Le code : deux majuscules puis trois chiffres (AB123).' },
    },
    { name: 'pseudo', sql_type: 'VARCHAR(30)', nullable: true, constraints: { min_length: 3 } },
    { name: 'pays', sql_type: 'VARCHAR(40)', default: 'France' },
  ],
};

const INSCRIPTION_JSON = {
  format_version: 1,
  entity: 'Inscription',
  table: 'inscriptions',
  label: 'Inscription',
  label_plural: 'Inscriptions',
  fields: [ID, { name: 'titre', sql_type: 'VARCHAR(80)' }, { name: 'membre_id', sql_type: 'INT' }],
};

const GROUPE_JSON = {
  format_version: 1,
  entity: 'Groupe',
  table: 'groupes',
  label: 'Groupe',
  label_plural: 'Groupes',
  fields: [ID, { name: 'nom', sql_type: 'VARCHAR(80)' }],
};

const BENEVOLE_JSON = {
  format_version: 1,
  entity: 'Benevole',
  table: 'benevoles',
  label: 'Bénévole',
  label_plural: 'Bénévoles',
  display: '{nom} ({ville})',
  fields: [
    ID,
    { name: 'nom', sql_type: 'VARCHAR(80)' },
    { name: 'ville', sql_type: 'VARCHAR(80)', nullable: true },
    { name: 'note', sql_type: 'TEXT', nullable: true },
  ],
};

/** A JSON write of a member, checked by the entity alone (no form): what an API of the project would do. */
const API_ROUTES = `import { apiError, apiSuccess, type Request, type Router } from 'fw-mvc';
import { Membre, type MembreData } from './entities/membre/index.js';

export function registerApiRoutes(router: Router): void {
  router.add(
    'POST',
    '/api/membres',
    (request: Request) => {
      const membre = new Membre(request.jsonBody as Partial<MembreData>);
      const errors = membre.validate();
      if (Object.keys(errors).length > 0) return apiError('Données invalides.', 422, 'validation_error', errors);
      return apiSuccess(membre.toRow(), 201);
    },
    { public: true, csrf: false, api: true },
  );
}
`;

export interface NamedApp {
  readonly project: CliProject;
  client(): HttpClient;
  rows(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  exec(sql: string, params?: unknown[]): Promise<void>;
  stop(): Promise<void>;
}

function ok(project: CliProject, args: string[]): void {
  const run = project.run(args);
  if (run.status !== 0) throw new Error(`fw ${args.join(' ')} a échoué (${run.status}) :\n${run.stdout}${run.stderr}`);
}

export async function startNamedApp(dialect: DialectName): Promise<NamedApp> {
  const project = newProject('Club');
  let child: import('node:child_process').ChildProcess | undefined;
  try {
    project.useDialect(dialect);
    project.write('mvc/entities/membre/membre.json', JSON.stringify(MEMBRE_JSON, null, 2) + '\n');
    project.write('mvc/entities/inscription/inscription.json', JSON.stringify(INSCRIPTION_JSON, null, 2) + '\n');
    project.write('mvc/entities/groupe/groupe.json', JSON.stringify(GROUPE_JSON, null, 2) + '\n');
    project.write('mvc/entities/benevole/benevole.json', JSON.stringify(BENEVOLE_JSON, null, 2) + '\n');
    ok(project, [
      'make:relation',
      '--name',
      'inscription_membre',
      '--type',
      'many_to_one',
      '--from',
      'Inscription.membre_id',
      '--to',
      'Membre.id',
      '--no-input',
    ]);
    ok(project, ['make:relation', '--name', 'groupe_membre', '--type', 'many_to_many', '--from', 'Groupe.id', '--to', 'Membre.id', '--no-input']);
    for (const entity of ['Membre', 'Inscription', 'Groupe']) ok(project, ['make:crud', entity, '--public']);
    ok(project, ['sync:relations']);
    ok(project, ['build:model']);
    ok(project, ['make:public-show', 'Benevole']);
    project.write('mvc/api_routes.ts', API_ROUTES);
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
