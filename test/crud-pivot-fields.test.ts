// Pivot fields, through the real CLI and a served application on SQLite and MariaDB: the extra fields of a
// many-to-many pivot (a vaccine given to an animal on a date, with a rank and a dose) are edited in the generated
// form, one row per link, validated by their types with each message beside its input and the values kept on a 422,
// saved in the pivot with the record (insert, update, delete of links), and shown on the detail page. The generated
// project type-checks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpClient, linkFramework, serveProject } from './helpers/crud-app.js';
import { newProject, type CliProject } from './helpers/cli.js';
import { fieldError, inputValue, selectOptions } from './helpers/crud-html.js';
import { ID, ok, writeEntity } from './helpers/crud-cli-project.js';
import type { DialectName } from '../runtime/db/index.js';
import { DIALECTS } from './helpers/dialects.js';
import { runTsc } from './helpers/typecheck.js';

const VACCIN = { format_version: 1, entity: 'Vaccin', table: 'vaccins', fields: [ID, { name: 'nom', sql_type: 'VARCHAR(60)' }] };
const ANIMAL = { format_version: 1, entity: 'Animal', table: 'animaux', plural: 'animaux', fields: [ID, { name: 'nom', sql_type: 'VARCHAR(80)' }] };
const PIVOT_FIELDS = [
  { name: 'date_injection', sql_type: 'DATE', label: 'Date d’injection' },
  { name: 'rang', sql_type: 'TINYINT UNSIGNED', nullable: true },
  { name: 'dose', sql_type: 'DECIMAL(4,2)', nullable: true },
];

function build(dialect: DialectName): CliProject {
  const project = newProject('Clinique');
  try {
    project.useDialect(dialect);
    writeEntity(project, VACCIN);
    writeEntity(project, ANIMAL);
    ok(project, ['make:relation', '--name', 'animal_vaccin', '--type', 'many_to_many', '--from', 'Animal.id', '--to', 'Vaccin.id', '--no-input']);
    project.editJson<{ relations: Array<Record<string, unknown>> }>('mvc/entities/relations.json', (data) => {
      data.relations[0]!['pivot_fields'] = PIVOT_FIELDS;
    });
    ok(project, ['make:crud', 'Vaccin', '--public']);
    ok(project, ['make:crud', 'Animal', '--public']);
    ok(project, ['sync:relations']);
    ok(project, ['db:init']);
    ok(project, ['db:apply']);
    linkFramework(project);
    return project;
  } catch (err) {
    void project.cleanup();
    throw err;
  }
}

interface PivotRow {
  animal: number;
  vaccin: number;
  date: string;
  rang: number | null;
  dose: string | null;
}

async function pivotRows(project: CliProject): Promise<PivotRow[]> {
  const db = project.open();
  try {
    const rows = await db.fetchAll<Record<string, unknown>>(
      'SELECT AnimalId AS a, VaccinId AS v, DateInjection AS d, Rang AS r, Dose AS dose FROM animal_vaccin ORDER BY AnimalId, VaccinId',
    );
    return rows.map((row) => ({
      animal: Number(row['a']),
      vaccin: Number(row['v']),
      date: row['d'] instanceof Date ? row['d'].toISOString().slice(0, 10) : String(row['d']).slice(0, 10),
      rang: row['r'] === null ? null : Number(row['r']),
      dose: row['dose'] === null ? null : Number(row['dose']).toFixed(2),
    }));
  } finally {
    await db.close();
  }
}

async function animalCount(project: CliProject): Promise<number> {
  const db = project.open();
  try {
    return Number((await db.fetchAll<{ n: unknown }>('SELECT COUNT(*) AS n FROM animaux'))[0]!.n);
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

/** The value of the option selected in a select, '' when none. */
const selected = (html: string, id: string): string => selectOptions(html, id).find((o) => o.selected)?.value ?? '';

for (const dialect of DIALECTS) {
  test(`${dialect}: pivot fields edited per link, validated, saved in one transaction and shown on the detail page`, async () => {
    const project = build(dialect);
    try {
      if (dialect === 'sqlite') {
        const tsc = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
        assert.is(tsc.status, 0, tsc.stdout + tsc.stderr);
      }
      await serve(project, async (client) => {
        await client.csrfToken('/animaux/new');
        for (const nom of ['Rage', 'Leptospirose', 'Toux du chenil']) assert.is((await client.post('/vaccins', [['nom', nom]])).status, 302);

        // The empty form: three empty rows, each a select of the vaccines and the pivot's inputs, typed.
        const empty = (await client.get('/animaux/new')).text;
        assert.equal(
          selectOptions(empty, 'field-vaccin_ids-0').map((o) => o.label),
          ['—', 'Leptospirose', 'Rage', 'Toux du chenil'],
        );
        assert.match(empty, /<input type="date" id="field-vaccin_ids-0-date_injection" name="vaccin_ids.0.date_injection" value=""/);
        assert.match(empty, /<input type="number" id="field-vaccin_ids-2-rang" name="vaccin_ids.2.rang" value=""[^>]*min="0"[^>]*max="255"/);
        assert.not.match(empty, /name="vaccin_ids.3"/);
        assert.match(empty, /<label for="field-vaccin_ids-0-date_injection"[^>]*>Date d’injection<\/label>/);

        // Invalid values: 422, each message beside its input, every value kept, nothing written.
        const bad: Array<[string, string]> = [
          ['nom', 'Médor'],
          ['vaccin_ids.0', '2'],
          ['vaccin_ids.0.date_injection', '2025-02-30'],
          ['vaccin_ids.0.rang', 'deux'],
          ['vaccin_ids.0.dose', '1.5'],
          ['vaccin_ids.1', '1'],
          ['vaccin_ids.1.date_injection', ''],
          ['vaccin_ids.1.rang', '300'],
          ['vaccin_ids.1.dose', '0.123'],
          ['vaccin_ids.2', '2'],
          ['vaccin_ids.2.date_injection', '2025-01-01'],
          ['vaccin_ids.2.rang', ''],
          ['vaccin_ids.2.dose', ''],
        ];
        const refused = await client.post('/animaux', bad);
        assert.is(refused.status, 422);
        const page = refused.text;
        assert.is(fieldError(page, 'vaccin_ids-0-date_injection'), 'Le champ « Date d’injection » doit être une date valide au format AAAA-MM-JJ.');
        assert.is(fieldError(page, 'vaccin_ids-0-rang'), 'Le champ « Rang » doit être un nombre entier.');
        assert.is(fieldError(page, 'vaccin_ids-0-dose'), undefined);
        assert.is(fieldError(page, 'vaccin_ids-1-date_injection'), 'Le champ « Date d’injection » est obligatoire.');
        assert.is(fieldError(page, 'vaccin_ids-1-rang'), 'Le champ « Rang » doit être inférieur ou égal à 255.');
        assert.is(fieldError(page, 'vaccin_ids-1-dose'), 'Le champ « Dose » doit comporter au plus 2 décimales.');
        assert.is(fieldError(page, 'vaccin_ids-2'), 'Ce choix de « Vaccin » figure déjà sur une autre ligne.');
        assert.is(fieldError(page, 'vaccin_ids'), 'Le champ « Vaccins » contient des valeurs à corriger (voir les lignes ci-dessous).');
        assert.match(
          page,
          /<input type="date" id="field-vaccin_ids-0-date_injection" name="vaccin_ids.0.date_injection" value="2025-02-30"[^>]*aria-invalid="true" aria-describedby="field-vaccin_ids-0-date_injection-error"/,
        );
        assert.is(inputValue(page, 'vaccin_ids.0.rang'), 'deux');
        assert.is(inputValue(page, 'vaccin_ids.1.dose'), '0.123');
        assert.is(inputValue(page, 'nom'), 'Médor');
        assert.equal([selected(page, 'field-vaccin_ids-0'), selected(page, 'field-vaccin_ids-1'), selected(page, 'field-vaccin_ids-2')], ['2', '1', '2']);
        assert.is(selected(page, 'field-vaccin_ids-3'), '', 'an empty row to add one more');
        assert.is(await animalCount(project), 0);
        assert.equal(await pivotRows(project), []);

        // Valid: the record and its links with their values; an empty row adds nothing.
        const created = await client.post('/animaux', [
          ['nom', 'Médor'],
          ['vaccin_ids.0', '2'],
          ['vaccin_ids.0.date_injection', '2025-03-12'],
          ['vaccin_ids.0.rang', '1'],
          ['vaccin_ids.0.dose', '1.5'],
          ['vaccin_ids.1', '1'],
          ['vaccin_ids.1.date_injection', '2025-04-01'],
          ['vaccin_ids.1.rang', ''],
          ['vaccin_ids.1.dose', ''],
          ['vaccin_ids.2', ''],
          ['vaccin_ids.2.date_injection', '2025-05-05'],
          ['vaccin_ids.2.rang', 'x'],
          ['vaccin_ids.2.dose', ''],
        ]);
        assert.is(created.status, 302, created.text);
        assert.equal(await pivotRows(project), [
          { animal: 1, vaccin: 1, date: '2025-04-01', rang: null, dose: null },
          { animal: 1, vaccin: 2, date: '2025-03-12', rang: 1, dose: '1.50' },
        ]);

        // The detail page lists each link with its values, dates as users read them.
        const show = (await client.get('/animaux/1')).text;
        assert.match(
          show,
          /<li><span class="font-medium">Rage<\/span><span class="text-gray-600"> · Date d’injection&nbsp;:&nbsp;01\/04\/2025<\/span><span class="text-gray-600"> · Rang&nbsp;:&nbsp;—<\/span><span class="text-gray-600"> · Dose&nbsp;:&nbsp;—<\/span><\/li>/,
        );
        assert.match(
          show,
          /<li><span class="font-medium">Leptospirose<\/span><span class="text-gray-600"> · Date d’injection&nbsp;:&nbsp;12\/03\/2025<\/span><span class="text-gray-600"> · Rang&nbsp;:&nbsp;1<\/span><span class="text-gray-600"> · Dose&nbsp;:&nbsp;1,50<\/span><\/li>/,
        );

        // The edit form shows the links with their values, then three empty rows.
        const edit = (await client.get('/animaux/1/edit')).text;
        assert.equal([selected(edit, 'field-vaccin_ids-0'), selected(edit, 'field-vaccin_ids-1'), selected(edit, 'field-vaccin_ids-4')], ['1', '2', '']);
        assert.is(inputValue(edit, 'vaccin_ids.0.date_injection'), '2025-04-01');
        assert.is(inputValue(edit, 'vaccin_ids.1.date_injection'), '2025-03-12');
        assert.is(inputValue(edit, 'vaccin_ids.1.rang'), '1');
        assert.is(inputValue(edit, 'vaccin_ids.1.dose'), '1.50');
        assert.not.match(edit, /name="vaccin_ids.5"/);

        // An invalid edit changes nothing.
        const badEdit = await client.post('/animaux/1', [
          ['nom', 'Médor'],
          ['vaccin_ids.0', '1'],
          ['vaccin_ids.0.date_injection', 'demain'],
        ]);
        assert.is(badEdit.status, 422);
        assert.is(fieldError(badEdit.text, 'vaccin_ids-0-date_injection'), 'Le champ « Date d’injection » doit être une date valide au format AAAA-MM-JJ.');
        assert.is((await pivotRows(project)).length, 2);

        // Edit: Rage removed, Leptospirose's values changed, Toux du chenil added.
        const updated = await client.post('/animaux/1', [
          ['nom', 'Médor'],
          ['vaccin_ids.0', ''],
          ['vaccin_ids.0.date_injection', '2025-04-01'],
          ['vaccin_ids.1', '2'],
          ['vaccin_ids.1.date_injection', '2025-06-20'],
          ['vaccin_ids.1.rang', '2'],
          ['vaccin_ids.1.dose', ''],
          ['vaccin_ids.2', '3'],
          ['vaccin_ids.2.date_injection', '2025-06-21'],
          ['vaccin_ids.2.rang', '3'],
          ['vaccin_ids.2.dose', '0.25'],
        ]);
        assert.is(updated.status, 302, updated.text);
        assert.equal(await pivotRows(project), [
          { animal: 1, vaccin: 2, date: '2025-06-20', rang: 2, dose: null },
          { animal: 1, vaccin: 3, date: '2025-06-21', rang: 3, dose: '0.25' },
        ]);
        assert.match(
          (await client.get('/animaux/1')).text,
          /Leptospirose<\/span><span class="text-gray-600"> · Date d’injection&nbsp;:&nbsp;20\/06\/2025<\/span><span class="text-gray-600"> · Rang&nbsp;:&nbsp;2</,
        );

        // The other side edits the same pivot: the vaccine's form lists its animals with the values.
        const vaccinEdit = (await client.get('/vaccins/3/edit')).text;
        assert.is(selected(vaccinEdit, 'field-animal_ids-0'), '1');
        assert.is(inputValue(vaccinEdit, 'animal_ids.0.dose'), '0.25');

        // Every row emptied: no link left; the record stays.
        assert.is(
          (
            await client.post('/animaux/1', [
              ['nom', 'Médor'],
              ['vaccin_ids.0', ''],
              ['vaccin_ids.1', ''],
            ])
          ).status,
          302,
        );
        assert.equal(await pivotRows(project), []);
        assert.is(await animalCount(project), 1);
      });
    } finally {
      await project.cleanup();
    }
  });
}

test.run();
