// Many-to-many drift and links, through the real CLI and a served application on SQLite and MariaDB: a many-to-many
// relation edited in the generated form (saved with the record, shown on the detail page), then an entity change
// (a wider column, a new field) brought into the CRUD by sync:entity without touching a manual file, with
// `--check` telling CI when the regenerable files are stale.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpClient, linkFramework, serveProject } from './helpers/crud-app.js';
import { newProject, type CliProject } from './helpers/cli.js';
import { ok, writeEntity } from './helpers/crud-cli-project.js';
import type { DialectName } from '../runtime/db/index.js';
import { DIALECTS } from './helpers/dialects.js';

const ID = { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true };
const ETIQUETTE = { format_version: 1, entity: 'Etiquette', table: 'etiquette', fields: [ID, { name: 'nom', sql_type: 'VARCHAR(60)' }] };
const PRODUIT = {
  format_version: 1,
  entity: 'Produit',
  table: 'produit',
  fields: [ID, { name: 'libelle', sql_type: 'VARCHAR(200)' }, { name: 'stock', sql_type: 'SMALLINT', list: { filter: true } }],
};
/** The files of the CRUD pages that are the user's: sync:entity must leave every byte of them. */
const MANUAL = [
  'mvc/controllers/produit_controller.ts',
  'mvc/models/produit_model.ts',
  'mvc/forms/produit_form.ts',
  'mvc/views/produit/index.html',
  'mvc/views/produit/show.html',
  'mvc/views/produit/form.html',
  'mvc/views/produit/_table.html',
  'mvc/views/produit/_results.html',
  'mvc/views/produit/_pagination.html',
];
const REGENERABLE = [
  'mvc/models/produit_crud.ts',
  'mvc/forms/produit_fields.ts',
  'mvc/views/produit/_fields.html',
  'mvc/views/produit/_list_head.html',
  'mvc/views/produit/_list_cells.html',
];

function build(dialect: DialectName): CliProject {
  const project = newProject('Boutique');
  project.useDialect(dialect);
  writeEntity(project, ETIQUETTE);
  writeEntity(project, PRODUIT);
  ok(project, ['make:relation', '--name', 'produit_etiquette', '--type', 'many_to_many', '--from', 'Produit.id', '--to', 'Etiquette.id', '--no-input']);
  // Two pivot fields the form does not edit (binary ones: the fields it can edit make rows of inputs, see
  // crud-pivot-fields.test.ts): a NOT NULL one filled with a default on insert, a nullable one left NULL.
  project.editJson<{ relations: Array<Record<string, unknown>> }>('mvc/entities/relations.json', (data) => {
    data.relations[0]!['pivot_fields'] = [
      { name: 'empreinte', sql_type: 'BLOB' },
      { name: 'note', sql_type: 'BLOB', nullable: true },
    ];
  });
  ok(project, ['make:crud', 'Etiquette', '--public']);
  ok(project, ['make:crud', 'Produit', '--public']);
  ok(project, ['sync:relations']);
  ok(project, ['db:init']);
  ok(project, ['db:apply']);
  linkFramework(project);
  return project;
}

async function pivotRows(project: CliProject): Promise<Array<{ p: number; e: number; empreinte: string | null; note: unknown }>> {
  const db = project.open();
  try {
    const rows = await db.fetchAll<{ p: unknown; e: unknown; empreinte: unknown; note: unknown }>(
      'SELECT ProduitId AS p, EtiquetteId AS e, Empreinte AS empreinte, Note AS note FROM produit_etiquette ORDER BY ProduitId, EtiquetteId',
    );
    return rows.map((r) => ({
      p: Number(r.p),
      e: Number(r.e),
      empreinte: r.empreinte === null ? null : Buffer.from(r.empreinte as Uint8Array).toString('hex'),
      note: r.note,
    }));
  } finally {
    await db.close();
  }
}

async function serve<T>(project: CliProject, fn: (client: HttpClient) => Promise<T>): Promise<T> {
  const { url, child } = await serveProject(project);
  try {
    return await fn(new HttpClient(url));
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

for (const dialect of DIALECTS) {
  test(`${dialect}: many-to-many links in the form, saved with the record, shown on the detail page`, async () => {
    const project = build(dialect);
    try {
      await serve(project, async (client) => {
        await client.csrfToken('/produits/new');
        for (const nom of ['Bio', 'Écologique', 'Promo']) {
          const made = await client.post('/etiquettes', [['nom', nom]]);
          assert.is(made.status, 302, made.text);
        }
        const form = await client.get('/produits/new');
        assert.match(form.text, /<select id="field-etiquette_ids" name="etiquette_ids" multiple/);
        assert.match(form.text, /<option value="2">Écologique<\/option>/);

        const created = await client.post('/produits', [
          ['libelle', 'Écrou'],
          ['stock', '3'],
          ['etiquette_ids', '1'],
          ['etiquette_ids', '2'],
        ]);
        assert.is(created.status, 302, created.text);
        let pivot = await pivotRows(project);
        assert.equal(
          pivot.map((r) => [r.p, r.e]),
          [
            [1, 1],
            [1, 2],
          ],
        );
        assert.ok(
          pivot.every((r) => r.empreinte === '' && r.note === null),
          JSON.stringify(pivot),
        );

        const show = await client.get('/produits/1');
        assert.match(show.text, /<dt[^>]*>Etiquettes<\/dt>\s*<dd[^>]*>Bio, Écologique<\/dd>/);
        const edit = await client.get('/produits/1/edit');
        // In MariaDB's order on both dialects (É between B and P, not after Z as SQLite's bytes would put it).
        assert.match(edit.text, /<option value="1" selected>Bio<\/option><option value="2" selected>Écologique<\/option><option value="3">Promo<\/option>/);

        // An unknown id is refused with the form again; nothing changes.
        const refused = await client.post('/produits/1', [
          ['libelle', 'Écrou'],
          ['stock', '3'],
          ['etiquette_ids', '99'],
        ]);
        assert.is(refused.status, 422);
        assert.equal(
          (await pivotRows(project)).map((r) => r.e),
          [1, 2],
        );

        // The list filters by a link (the rows linked to the chosen Etiquette), offered as a select of their labels.
        assert.is(
          (
            await client.post('/produits', [
              ['libelle', 'Vis'],
              ['stock', '9'],
              ['etiquette_ids', '3'],
            ])
          ).status,
          302,
        );
        const list = await client.get('/produits');
        assert.match(list.text, /<select id="filter-etiquette_ids" name="etiquette_ids"/);
        const linkedTo = async (id: string): Promise<string[]> =>
          [...(await client.get(`/produits?etiquette_ids=${id}`)).text.matchAll(/<td class="[^"]*truncate[^"]*">([^<]*)<\/td>/g)]
            .map((m) => m[1]!)
            .filter((v) => v === 'Écrou' || v === 'Vis');
        assert.equal(await linkedTo('2'), ['Écrou']);
        assert.equal(await linkedTo('3'), ['Vis']);
        assert.equal(await linkedTo('1'), ['Écrou']);
        assert.is((await client.post('/produits/2/delete', [])).status, 302);

        // Keep 2, drop 1, add 3: the link kept keeps its pivot values.
        const db = project.open();
        await db.execute("UPDATE produit_etiquette SET Empreinte = X'01ab' WHERE EtiquetteId = 2").finally(() => db.close());
        const updated = await client.post('/produits/1', [
          ['libelle', 'Écrou'],
          ['stock', '3'],
          ['etiquette_ids', '2,3'],
        ]);
        assert.is(updated.status, 302, updated.text);
        pivot = await pivotRows(project);
        assert.equal(
          pivot.map((r) => r.e),
          [2, 3],
        );
        assert.equal(
          pivot.map((r) => r.empreinte),
          ['01ab', ''],
        );

        // Nothing selected: no link left. Deleting the record removes its links (the pivot cascades).
        assert.is(
          (
            await client.post('/produits/1', [
              ['libelle', 'Écrou'],
              ['stock', '3'],
            ])
          ).status,
          302,
        );
        assert.equal(await pivotRows(project), []);
        assert.is(
          (
            await client.post('/produits', [
              ['libelle', 'Vis'],
              ['stock', '1'],
              ['etiquette_ids', '3'],
            ])
          ).status,
          302,
        );
        assert.is((await client.post('/produits/3/delete', [])).status, 302);
        assert.equal(await pivotRows(project), []);
      });
    } finally {
      await project.cleanup();
    }
  });

  test(`${dialect}: an entity change reaches the CRUD through sync:entity; manual files untouched; --check for CI`, async () => {
    const project = build(dialect);
    try {
      const manual = Object.fromEntries(MANUAL.map((file) => [file, fs.readFileSync(project.path(file))]));
      assert.is(project.run(['build:model', '--check']).status, 0);
      assert.is(project.run(['make:crud', 'Produit', '--check']).status, 0);

      project.editJson<{ fields: Array<Record<string, unknown>> }>('mvc/entities/produit/produit.json', (data) => {
        data.fields[1]!['sql_type'] = 'VARCHAR(250)';
        data.fields.push({ name: 'code_barre', sql_type: 'VARCHAR(20)', nullable: true });
      });
      const stale = project.run(['build:model', '--check']);
      assert.is(stale.status, 2, stale.stdout + stale.stderr);
      for (const file of [...REGENERABLE, 'mvc/entities/produit/produit_base.ts'])
        assert.ok(stale.stdout.includes(`  ${file}\n`), `${file} :\n${stale.stdout}`);
      const staleCrud = project.run(['make:crud', 'Produit', '--check']);
      assert.is(staleCrud.status, 2);
      assert.ok(staleCrud.stdout.includes('  mvc/models/produit_crud.ts\n'), staleCrud.stdout);
      assert.ok(!project.read('mvc/forms/produit_fields.ts').includes('code_barre'), '--check wrote nothing');

      const synced = ok(project, ['sync:entity', 'Produit']);
      assert.match(synced, /mvc\/models\/produit_crud\.ts/);
      for (const file of MANUAL) assert.ok(fs.readFileSync(project.path(file)).equals(manual[file]!), `${file} changed`);
      assert.is(project.run(['build:model', '--check']).status, 0);
      assert.is(project.run(['make:crud', 'Produit', '--check']).status, 0);

      ok(project, ['migration:make', 'produit_code_barre', '--from-diff', 'Produit']);
      ok(project, ['migration:apply']);
      await serve(project, async (client) => {
        await client.csrfToken('/produits/new');
        const form = await client.get('/produits/new');
        assert.match(form.text, /name="code_barre"/);
        const long = 'É'.repeat(220);
        const created = await client.post('/produits', [
          ['libelle', long],
          ['stock', '4'],
          ['code_barre', '3760001234567'],
        ]);
        assert.is(created.status, 302, created.text);
        const show = await client.get('/produits/1');
        assert.ok(show.text.includes(long));
        assert.match(show.text, /<dt[^>]*>Code barre<\/dt>\s*<dd[^>]*>3760001234567<\/dd>/);
        const list = await client.get('/produits');
        assert.match(list.text, /3760001234567/);
        const csv = await client.get('/produits/export.csv');
        assert.ok(csv.text.split('\r\n')[0]!.includes('"Code barre"'), csv.text);
        assert.ok(csv.text.includes('3760001234567'));
        const tooLong = await client.post('/produits', [
          ['libelle', 'x'.repeat(251)],
          ['stock', '4'],
        ]);
        assert.is(tooLong.status, 422);
      });
    } finally {
      await project.cleanup();
    }
  });
}

test.run();
