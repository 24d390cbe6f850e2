/**
 * The snapshots' Contact list served for real: the fixture project's entities (test/fixtures/project/: Contact with
 * nine fields and a ville, Ville, Tag), `fw make:crud --public` for Ville and Contact, SQLite, and records made
 * through the form pages. Its list has ten columns of data besides the selection boxes and the actions, what the
 * list at any width is checked on (crud-list-widths-browser.test.ts, scripts/screenshots.mjs --wide).
 */
import type { DialectName } from '../../runtime/db/index.js';
import { HttpClient, enableHtmx, linkFramework, serveBuiltApp, type CrudApp, type CrudAppOptions } from './crud-app.js';
import { newProject, type CliProject } from './cli.js';
import { copyFixtureEntities } from './fixture-project.js';

/** The list's path. */
export const WIDE_LIST = '/contacts';
/** How many contacts wideRecords creates. */
export const WIDE_CONTACT_COUNT = 12;

function ok(project: CliProject, args: string[]): void {
  const run = project.run(args);
  if (run.status !== 0) throw new Error(`fw ${args.join(' ')} a échoué (${run.status}) :\n${run.stdout}${run.stderr}`);
}

/** Builds the fixture project's CRUD (CLI processes only) without serving it. */
export function buildWideApp(dialect: DialectName, options: CrudAppOptions = {}): CliProject {
  const project = newProject('Carnet');
  try {
    project.useDialect(dialect);
    copyFixtureEntities(project.root);
    ok(project, ['build:model']);
    ok(project, ['make:crud', 'Ville', '--public']);
    ok(project, ['make:crud', 'Contact', '--public']);
    ok(project, ['db:init']);
    ok(project, ['db:apply']);
    linkFramework(project);
    if (options.htmx) enableHtmx(project);
    return project;
  } catch (err) {
    void project.cleanup();
    throw err;
  }
}

/** Two villes and WIDE_CONTACT_COUNT contacts, every column filled (one long e-mail), through the form pages. */
export async function wideRecords(url: string): Promise<void> {
  const client = new HttpClient(url);
  const create = async (path: string, form: Array<[string, string]>): Promise<void> => {
    const result = await client.post(path, form);
    if (result.status !== 303 && result.status !== 302) throw new Error(`POST ${path} : ${result.status}\n${result.text.slice(0, 2000)}`);
  };
  await create('/villes', [
    ['nom', 'Lyon'],
    ['code_postal', '69001'],
  ]);
  await create('/villes', [
    ['nom', 'Saint-Rémy-de-Provence'],
    ['code_postal', '13210'],
  ]);
  const prenoms = ['Élodie', 'Bruno', 'Chloé', 'David', 'Emma', 'Félix'];
  for (let i = 1; i <= WIDE_CONTACT_COUNT; i++) {
    const n = String(i).padStart(2, '0');
    await create('/contacts', [
      ['nom', i === 2 ? 'De La Fontaine-Beaumarchais' : `Nom-${n}`],
      ['prenom', prenoms[i % prenoms.length]!],
      ['email', i === 3 ? 'une.adresse.vraiment.tres.longue@exemple-de-domaine.fr' : `contact${i}@exemple.fr`],
      ['telephone', `04 72 00 00 ${n}`],
      ['date_naissance', `19${70 + i}-0${(i % 9) + 1}-1${i % 10}`],
      ['solde', `${i * 37},50`],
      ['nb_visites', String(i * 3)],
      ...(i % 3 === 0 ? [] : [['actif', '1'] as [string, string]]),
      ['ville_id', String((i % 2) + 1)],
    ]);
  }
}

/** Builds, serves and fills the fixture project's CRUD. */
export async function startWideApp(dialect: DialectName, options: CrudAppOptions = {}): Promise<CrudApp> {
  const app = await serveBuiltApp(buildWideApp(dialect, options));
  try {
    await wideRecords(app.url);
  } catch (err) {
    await app.stop();
    throw err;
  }
  return app;
}
