// The label a `display` gives lives in the regenerable descriptions (docs/entities.md "How a record is named"):
// `make:crud` writes it into the description of the entity that shows the record (a many-to-one's list, CSV and
// select) and the pattern into the entity's own; a changed `display` reaches both with `fw sync:entity`, and
// `--check` then finds nothing stale. Without `display`, the descriptions hold the default label column.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newProject, type CliProject } from './helpers/cli.js';
import { MEMBRE_JSON } from './helpers/crud-named-app.js';

const t = suite('crud-display-sync');
let project: CliProject;

const INSCRIPTION = {
  format_version: 1,
  entity: 'Inscription',
  table: 'inscriptions',
  fields: [
    { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true },
    { name: 'titre', sql_type: 'VARCHAR(80)' },
    { name: 'membre_id', sql_type: 'INT' },
  ],
};

function ok(args: string[]): string {
  const run = project.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} :\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

t.before(() => {
  project = newProject('Club');
});
t.after(async () => {
  await project?.cleanup();
});

t('make:crud writes the pattern’s SQL into the related description and the pattern into the entity’s own', () => {
  project.write('mvc/entities/membre/membre.json', JSON.stringify(MEMBRE_JSON, null, 2) + '\n');
  project.write('mvc/entities/inscription/inscription.json', JSON.stringify(INSCRIPTION, null, 2) + '\n');
  ok(['make:relation', '--name', 'inscription_membre', '--type', 'many_to_one', '--from', 'Inscription.membre_id', '--to', 'Membre.id', '--no-input']);
  ok(['make:crud', 'Membre']);
  ok(['make:crud', 'Inscription']);
  ok(['sync:relations']);
  assert.is(project.run(['build:model', '--check']).status, 0, 'à jour après la génération');
  // The description's strings are TypeScript literals: `\'` inside them is a quote.
  const inscription = project.read('mvc/models/inscription_crud.ts').replace(/\\'/g, "'");
  assert.ok(
    inscription.includes("NULLIF(TRIM(CONCAT(COALESCE(r_membre_id.Prenom, ''), ' ', COALESCE(r_membre_id.Nom, ''))), '') AS membre_id_label"),
    inscription,
  );
  assert.ok(inscription.includes("SELECT Id AS id, NULLIF(TRIM(CONCAT(COALESCE(Prenom, ''), ' ', COALESCE(Nom, ''))), '') AS label FROM membres"));
  assert.ok(project.read('mvc/models/membre_crud.ts').includes("display: { fields: ['prenom', 'nom'], pattern: '{prenom} {nom}' }"));
});

t('a changed display reaches both descriptions with sync:entity; --check then finds nothing stale', () => {
  project.write('mvc/entities/membre/membre.json', JSON.stringify({ ...MEMBRE_JSON, display: ['nom'] }, null, 2) + '\n');
  const stale = project.run(['build:model', '--check']);
  assert.is(stale.status, 2, stale.stdout + stale.stderr);
  ok(['sync:entity', 'Membre']);
  const inscription = project.read('mvc/models/inscription_crud.ts');
  assert.ok(inscription.includes('r_membre_id.Nom AS membre_id_label'), inscription);
  assert.not.ok(inscription.includes('CONCAT'));
  assert.ok(project.read('mvc/models/membre_crud.ts').includes("display: { fields: ['nom'], pattern: '{nom}' }"));
  const check = project.run(['build:model', '--check']);
  assert.is(check.status, 0, check.stdout + check.stderr);
});

t.run();
