// A generated project with every field type, a role block, an entity without relations and one with the four kinds of
// media (`--media`): `fw make:crud` for each, then `tsc --noEmit` over the project (strict), and the role block enforced
// by the generated controller, run through tsx (docs/crud.md "Permissions").
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, newProject, type CliProject } from './helpers/cli.js';
import { CONTACT, CONTACT_VILLE, ID, VILLE, linkPackages, ok, writeEntity } from './helpers/crud-cli-project.js';
import { PRODUIT } from './helpers/crud-media.js';
import { runTsc } from './helpers/typecheck.js';

const projects: CliProject[] = [];

test.after(async () => {
  for (const made of projects) await made.cleanup();
});

function fresh(): CliProject {
  const made = newProject('Carnet');
  projects.push(made);
  return made;
}

const FICHE = {
  format_version: 1,
  entity: 'Fiche',
  table: 'fiches',
  description: 'Une fiche avec tous les types',
  fields: [
    ID,
    { name: 'quantite', sql_type: 'INT', list: { filter: true } },
    { name: 'grand', sql_type: 'BIGINT UNSIGNED' },
    { name: 'petit', sql_type: 'TINYINT', nullable: true },
    { name: 'prix', sql_type: 'DECIMAL(10,2)' },
    { name: 'remise', sql_type: 'DECIMAL(5,2)', nullable: true },
    { name: 'ratio', sql_type: 'FLOAT', nullable: true },
    { name: 'jour', sql_type: 'DATE' },
    { name: 'rappel', sql_type: 'DATE', nullable: true },
    { name: 'moment', sql_type: 'DATETIME', nullable: true },
    { name: 'heure', sql_type: 'TIME', nullable: true },
    { name: 'resume', sql_type: 'TEXT', nullable: true },
    { name: 'code', sql_type: 'CHAR(5)', list: { filter: true } },
    { name: 'courriel', sql_type: 'VARCHAR(190)', nullable: true },
    { name: 'site_url', sql_type: 'VARCHAR(255)', nullable: true },
    { name: 'telephone', sql_type: 'VARCHAR(30)' },
    { name: 'publie', sql_type: 'BOOLEAN', list: { filter: true } },
    { name: 'archive', sql_type: 'BOOLEAN', nullable: true },
    { name: 'contact_id', sql_type: 'INT' },
  ],
  // export names a role that index does not (comptable): the export needs both.
  rbac: { permissions: { index: ['admin', 'editeur'], delete: ['admin'], export: ['admin', 'comptable'] } },
};

/** No relation at all, and a primary key that is entered (not auto-increment). */
const ETIQUETTE = {
  format_version: 1,
  entity: 'Etiquette',
  table: 'etiquettes',
  fields: [
    { name: 'code', sql_type: 'INT', primary_key: true },
    { name: 'libelle', sql_type: 'VARCHAR(50)', unique: true, constraints: { not_empty: true } },
    { name: 'couleur', sql_type: 'CHAR(7)', nullable: true },
  ],
};

let typed: CliProject;

function tsc(target: CliProject): { status: number | null; output: string } {
  const result = runTsc(target.root, ['--noEmit', '-p', 'tsconfig.json']);
  return { status: result.status, output: result.stdout + result.stderr };
}

test('a project with every field type, a role block, an entity without relations and one with media type-checks after make:crud', () => {
  typed = fresh();
  for (const definition of [VILLE, CONTACT, FICHE, ETIQUETTE, PRODUIT]) writeEntity(typed, definition);
  ok(typed, CONTACT_VILLE);
  ok(typed, ['make:relation', '--name', 'fiche_contact', '--type', 'many_to_one', '--from', 'Fiche.contact_id', '--to', 'Contact.id', '--no-input']);
  for (const entity of ['Ville', 'Contact', 'Fiche', 'Etiquette']) ok(typed, ['make:crud', entity]);
  ok(typed, ['make:crud', 'Produit', '--media']);
  linkPackages(typed);
  const checked = tsc(typed);
  assert.is(checked.output, '');
  assert.is(checked.status, 0);
});

test('tsc refuses a form whose cleaned values do not fit the entity, naming the mismatch; the form as written passes', () => {
  const file = 'mvc/forms/etiquette_form.ts';
  const written = typed.read(file);
  const fieldsConst = /import \{ (\w+) \} from '\.\/etiquette_fields\.js';/.exec(written)?.[1];
  assert.ok(fieldsConst, written);
  // The user's own field for `couleur`, an integer where the entity keeps a string.
  typed.write(
    file,
    written
      .replace("import { Form } from 'fw-mvc';", "import { Form, IntegerField } from 'fw-mvc';")
      .replace(
        `export class EtiquetteForm extends Form<typeof ${fieldsConst}> {\n  static fields = ${fieldsConst};`,
        `export class EtiquetteForm extends Form<typeof EtiquetteForm.fields> {\n  static fields = { ...${fieldsConst}, couleur: new IntegerField({ required: false }) };`,
      ),
  );
  try {
    assert.is.not(typed.read(file), written);
    const refused = tsc(typed);
    assert.is(refused.status, 2);
    assert.match(refused.output, 'mvc/controllers/etiquette_controller.ts');
    assert.match(refused.output, 'les valeurs du formulaire ne correspondent pas à l’entité');
    assert.not.match(refused.output, 'mvc/forms/etiquette_form.ts', 'the form itself is valid TypeScript');
  } finally {
    typed.write(file, written);
  }
});

/** Calls actions of the generated FicheController for signed-in users with given roles (no tables: the role check comes first). */
const RBAC_PROBE = `import { Request } from 'fw-mvc';
import { FicheController } from './controllers/fiche_controller.js';

type Action = (request: Request) => Promise<{ status: number }>;

/** The status an action answers, or 'passed' when it went past the role check (and then failed on the missing table). */
async function status(action: Action, roles: string[], method = 'GET'): Promise<number | string> {
  const request = new Request({ method, body: { ids: ['1'] } });
  request.routeParams['id'] = '1';
  request.state['session'] = { get: (key: string) => (key === 'user' ? { id: 1, roles } : undefined) };
  try {
    return (await action(request)).status;
  } catch (error) {
    // Past the role check, the action queries the project's SQLite file, which has no tables (db:apply was never run):
    // only that failure means 'passed'; any other error is returned as is, so the comparison shows it.
    const e = error as { name?: string; message?: string; code?: string };
    if (e?.name === 'SqliteError' && e.code === 'SQLITE_ERROR' && e.message === 'no such table: fiches') return 'passed';
    return \`\${e?.name}: \${e?.message} (\${e?.code})\`;
  }
}

const c = FicheController;
console.log(JSON.stringify({
  index: { lecteur: await status(c.index, ['lecteur']), editeur: await status(c.index, ['editeur']) },
  exportCsv: {
    lecteur: await status(c.exportCsv, ['lecteur']),
    editeur: await status(c.exportCsv, ['editeur']),
    comptable: await status(c.exportCsv, ['comptable']),
    admin: await status(c.exportCsv, ['admin']),
    'editeur+comptable': await status(c.exportCsv, ['editeur', 'comptable']),
  },
  indexComptable: await status(c.index, ['comptable']),
  bulkDelete: { editeur: await status(c.bulkDelete, ['editeur'], 'POST') },
  bulkDeleteConfirm: { editeur: await status(c.bulkDeleteConfirm, ['editeur'], 'POST') },
  destroy: { editeur: await status(c.destroy, ['editeur'], 'POST') },
  show: { lecteur: await status(c.show, ['lecteur']) },
}));
`;

test('the role block is enforced by the generated controller: index, delete need their roles; export needs index and export', () => {
  typed.write('mvc/rbac_probe.ts', RBAC_PROBE);
  const loader = pathToFileURL(path.join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const result = spawnSync(process.execPath, ['--import', loader, 'mvc/rbac_probe.ts'], { cwd: typed.root, encoding: 'utf8', timeout: 60_000 });
  assert.is(result.status, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout), {
    index: { lecteur: 403, editeur: 'passed' },
    // The export needs `index` (docs/crud.md "Permissions") and, declared here, `export` too: an editeur may see the
    // list but not download it; a comptable may export but not see the list, so not download it either.
    exportCsv: { lecteur: 403, editeur: 403, comptable: 403, admin: 'passed', 'editeur+comptable': 'passed' },
    indexComptable: 403,
    bulkDelete: { editeur: 403 },
    bulkDeleteConfirm: { editeur: 403 },
    destroy: { editeur: 403 },
    // No `show` roles: open to every signed-in user.
    show: { lecteur: 'passed' },
  });
});

test.run();
