// What French users read on generated pages, through the real CLI and a served project (SQLite): the entity's
// `label` / `label_plural` as titles (CRUD and public pages), DATE values shown as stored (04/05/2012) and DATETIME
// values, moments stored in UTC, shown in the application's time zone (APP_TIMEZONE, here America/Montreal:
// `2025-03-10 08:40:00` → 10/03/2025 04:40) in lists, details and public pages, ISO in the zone in the edit form (a
// time typed there is stored in UTC), raw in the CSV; and the input kinds taken from whole words of a field's name
// (`hotel` is a text input, `tel_fixe` a telephone one). docs/decisions.md "Dates and times on pages", docs/crud.md.
import type { ChildProcess } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newProject, type CliProject } from './helpers/cli.js';
import { HttpClient, linkFramework, serveProject } from './helpers/crud-app.js';
import { ID, ok, writeEntity } from './helpers/crud-cli-project.js';
import { csvLines, decode, inputValue, tags } from './helpers/crud-html.js';

const ELEVE = {
  format_version: 1,
  entity: 'Eleve',
  table: 'eleves',
  label: 'Élève',
  label_plural: 'Élèves',
  fields: [
    ID,
    { name: 'nom', sql_type: 'VARCHAR(100)' },
    { name: 'hotel', sql_type: 'VARCHAR(100)', nullable: true },
    { name: 'tel_fixe', sql_type: 'VARCHAR(30)', nullable: true },
    { name: 'telephone', sql_type: 'VARCHAR(30)', nullable: true },
    { name: 'phone', sql_type: 'VARCHAR(30)', nullable: true },
    { name: 'ne_le', sql_type: 'DATE', nullable: true },
    { name: 'arrive_le', sql_type: 'DATETIME', nullable: true },
  ],
};

const EVENEMENT = {
  format_version: 1,
  entity: 'Evenement',
  table: 'evenements',
  label: 'Événement',
  label_plural: 'Événements',
  fields: [ID, { name: 'titre', sql_type: 'VARCHAR(120)' }, { name: 'commence_le', sql_type: 'DATETIME' }, { name: 'jour', sql_type: 'DATE', nullable: true }],
};

let project: CliProject | undefined;
let child: ChildProcess | undefined;
let client: HttpClient;

/** The text of the first element `name` (tags dropped, entities decoded). */
function textOf(html: string, name: string): string {
  const match = new RegExp(`<${name}\\b[^>]*>([\\s\\S]*?)</${name}>`).exec(html);
  return decode((match?.[1] ?? '').replace(/<[^>]*>/g, '')).trim();
}

/** The cells of the list's rows, by record id (the first cell is the checkbox, the last the actions). */
function listCells(html: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const row of html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)) {
    const cells = [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => decode(cell[1]!.replace(/<[^>]*>/g, '')).trim());
    if (cells.length > 2) rows.set(cells[1]!, cells.slice(2, -1));
  }
  return rows;
}

test.before(async () => {
  project = newProject('Classe');
  project.useDialect('sqlite');
  writeEntity(project, ELEVE);
  writeEntity(project, EVENEMENT);
  for (const args of [
    ['make:crud', 'Eleve', '--public'],
    ['make:public-list', 'Evenement'],
    ['make:public-show', 'Evenement'],
    ['make:public-form', 'Evenement'],
    ['db:init'],
    ['db:apply'],
  ]) {
    ok(project, args);
  }
  await project.sql([
    "INSERT INTO eleves (Nom, Hotel, TelFixe, NeLe, ArriveLe) VALUES ('Durand', 'Hôtel du Lac', '01 02 03 04 05', '2012-05-04', '2025-03-10 08:40:00')",
    "INSERT INTO eleves (Nom) VALUES ('Martin')",
    "INSERT INTO evenements (Titre, CommenceLe, Jour) VALUES ('Sortie au musée', '2025-03-10 08:40:00', '2025-03-11')",
  ]);
  linkFramework(project);
  const served = await serveProject(project, { APP_TIMEZONE: 'America/Montreal' });
  child = served.child;
  client = new HttpClient(served.url);
});

test.after(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await project?.cleanup();
});

test('the CRUD list: the label_plural as heading and tab title, dates as French users read them, empty when null', async () => {
  const res = await client.get('/eleves');
  assert.is(res.status, 200);
  assert.is(textOf(res.text, 'h1'), 'Élèves');
  assert.match(textOf(res.text, 'title'), /^Élèves · /);
  assert.match(res.text, /<a href="\/eleves\/new"[^>]*>Ajouter<\/a>/);
  const cells = listCells(res.text);
  // Columns: nom, hotel, tel_fixe, telephone, phone, ne_le, arrive_le.
  assert.equal(cells.get('1'), ['Durand', 'Hôtel du Lac', '01 02 03 04 05', '', '', '04/05/2012', '10/03/2025 04:40']);
  assert.equal(cells.get('2'), ['Martin', '', '', '', '', '', '']);
  assert.not.match(res.text, '2025-03-10');
});

test('the CRUD detail: the label as heading, the dates formatted', async () => {
  const res = await client.get('/eleves/1');
  assert.is(res.status, 200);
  assert.is(textOf(res.text, 'h1'), 'Élève #1');
  const details = [...res.text.matchAll(/<dt[^>]*>([\s\S]*?)<\/dt>\s*<dd[^>]*>([\s\S]*?)<\/dd>/g)].map((m) => [decode(m[1]!), decode(m[2]!)]);
  assert.equal(details.slice(-2), [
    ['Ne le', '04/05/2012'],
    ['Arrive le', '10/03/2025 04:40'],
  ]);
  const empty = await client.get('/eleves/2');
  assert.ok(/<dt[^>]*>Arrive le<\/dt>\s*<dd[^>]*><\/dd>/.test(empty.text), 'a null date stays empty');
});

test('the CRUD forms: the label in the heading, ISO values in the date inputs (a DATETIME in the zone), the input kinds from whole words', async () => {
  const res = await client.get('/eleves/1/edit');
  assert.is(res.status, 200);
  assert.is(textOf(res.text, 'h1'), 'Élève · Modifier l’enregistrement');
  assert.is(inputValue(res.text, 'ne_le'), '2012-05-04');
  assert.match(inputValue(res.text, 'arrive_le') ?? '', /^2025-03-10T04:40(:00)?$/);
  const types = Object.fromEntries(
    tags(res.text, 'input')
      .filter((tag) => tag.attrs['name'])
      .map((tag) => [tag.attrs['name'], tag.attrs['type']]),
  );
  assert.equal(
    {
      hotel: types['hotel'],
      tel_fixe: types['tel_fixe'],
      telephone: types['telephone'],
      phone: types['phone'],
      ne_le: types['ne_le'],
      arrive_le: types['arrive_le'],
    },
    { hotel: 'text', tel_fixe: 'tel', telephone: 'tel', phone: 'tel', ne_le: 'date', arrive_le: 'datetime-local' },
  );
  const created = await client.get('/eleves/new');
  assert.is(textOf(created.text, 'h1'), 'Élève · Nouvel enregistrement');
});

test('the CSV keeps the stored values', async () => {
  const res = await client.get('/eleves/export.csv');
  assert.is(res.status, 200);
  const line = csvLines(res.text).find((l) => l.includes('Durand'));
  assert.match(line ?? '', '"2012-05-04";"2025-03-10 08:40:00"');
});

test('a time typed in the form is read in the application zone and stored in UTC; the pages show it back as typed', async () => {
  const edit = await client.get('/eleves/2/edit');
  const token = /name="csrf_token" value="([^"]+)"/.exec(edit.text)?.[1] ?? '';
  // 30 March 2025, 23:15 in Montreal (UTC−4) is 31 March, 03:15 UTC: the day changes too.
  const saved = await client.post('/eleves/2', [
    ['csrf_token', token],
    ['nom', 'Martin'],
    ['arrive_le', '2025-03-30T23:15'],
  ]);
  assert.ok(saved.status === 302 || saved.status === 303, `saved (${saved.status}): ${saved.text.slice(0, 300)}`);
  const line = csvLines((await client.get('/eleves/export.csv')).text).find((l) => l.includes('Martin'));
  assert.match(line ?? '', '"2025-03-31 03:15:00"');
  assert.equal(
    listCells((await client.get('/eleves')).text)
      .get('2')
      ?.at(-1),
    '30/03/2025 23:15',
  );
  const details = (await client.get('/eleves/2')).text;
  assert.ok(/<dt[^>]*>Arrive le<\/dt>\s*<dd[^>]*>30\/03\/2025 23:15<\/dd>/.test(details), 'the detail in the zone');
  assert.match(inputValue((await client.get('/eleves/2/edit')).text, 'arrive_le') ?? '', /^2025-03-30T23:15(:00)?$/);
});

test('the public pages: label_plural on the list and as the detail breadcrumb, label on the form, dates formatted', async () => {
  const list = await client.get('/evenements');
  assert.is(list.status, 200);
  assert.is(textOf(list.text, 'h1'), 'Événements');
  assert.match(textOf(list.text, 'title'), /^Événements/);
  assert.match(list.text, />10\/03\/2025 04:40</);
  assert.match(list.text, />11\/03\/2025</);
  const show = await client.get('/evenements/1');
  assert.is(show.status, 200);
  assert.is(textOf(show.text, 'h1'), 'Sortie au musée');
  assert.match(show.text, /<p class="mb-2 text-sm text-gray-500">Événements<\/p>/);
  assert.match(show.text, />10\/03\/2025 04:40</);
  assert.not.match(show.text, '2025-03-10');
  const form = await client.get('/evenements/new');
  assert.is(form.status, 200);
  assert.is(textOf(form.text, 'h1'), 'Événement');
});

test.run();
