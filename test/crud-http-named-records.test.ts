// How a record is named (`display`) and the fields' constraints, in generated pages served for real on SQLite and
// MariaDB (test/helpers/crud-named-app.ts): the pattern in the relation's select and filter, the list's and CSV's
// `_label` column, the many-to-many links of a detail page, the detail title, the flashes, the 409 texts and the
// bulk-delete confirmation, and a public detail page's title; the form refuses values outside the constraints with their messages, the create form
// starts from the defaults, and the database itself refuses such rows (CHECK) and fills the DEFAULTs. A JSON write checked by
// the entity's validate() alone meets the same rules and messages (a 422 envelope naming each field). The form marks its
// required fields and sums up its errors at the top, each linking to its field (docs/crud.md "Required fields and the error
// summary"); the CSV starts with a byte-order mark and splits its cells as a French spreadsheet expects.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import type { HttpClient } from './helpers/crud-app.js';
import { csvCells, csvLines, decode, fieldError, inputValue, selectOptions } from './helpers/crud-html.js';
import { startNamedApp, type NamedApp } from './helpers/crud-named-app.js';
import { DIALECTS } from './helpers/dialects.js';

function flash(html: string): string {
  const match = /<div[^>]*role="(?:alert|status)"[^>]*>([\s\S]*?)<\/div>/.exec(html);
  return match
    ? decode(match[1]!.replace(/<[^>]+>/g, ''))
        .replace(/\s+/g, ' ')
        .trim()
    : '';
}

const heading = (html: string): string => decode(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.trim() ?? '');

/** The error summary of a form page: its heading and its links (href → text). */
function errorSummary(html: string): { heading: string; links: Array<[string, string]> } | null {
  const block = /<div id="error-summary"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1];
  if (block === undefined) return null;
  const heading = /<h2 id="error-summary-title" tabindex="-1" autofocus[^>]*>([\s\S]*?)<\/h2>/.exec(block)?.[1] ?? '';
  const links = [...block.matchAll(/<a href="#([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map((m): [string, string] => [m[1]!, decode(m[2]!.trim())]);
  return { heading: decode(heading.trim()), links };
}

/** Every id of a page. */
const ids = (html: string): Set<string> => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));

/** The label of a field, its tags kept (the required mark is in it). */
const labelOf = (html: string, name: string): string => new RegExp(`<label for="field-${name}"[^>]*>([\\s\\S]*?)</label>`).exec(html)?.[1] ?? '';

const REQUIRED_MARK = '<span class="text-red-700" aria-hidden="true"> *</span><span class="sr-only"> (obligatoire)</span>';

const VALID: Array<[string, string]> = [
  ['prenom', 'Jean'],
  ['nom', 'Dupont'],
  ['age', '40'],
  ['cotisation', '20'],
  ['code', 'AB123'],
  ['pseudo', 'jdup'],
  ['pays', 'France'],
];

function namedSuite(dialect: DialectName): void {
  const t = suite(`crud-http-named-records: ${dialect}`);
  let app: NamedApp;
  let client: HttpClient;

  t.before(async () => {
    app = await startNamedApp(dialect);
    client = app.client();
    await client.csrfToken('/membres/new');
  });
  t.after(async () => {
    await app?.stop();
  });

  t('the create form starts from the defaults; a valid member is created and the flash names it', async () => {
    const page = await client.get('/membres/new');
    assert.is(inputValue(page.text, 'pays'), 'France');
    assert.is(inputValue(page.text, 'cotisation'), '20');
    const res = await client.post('/membres', VALID);
    assert.is(res.status, 302);
    const list = await client.get(res.headers.get('location')!);
    assert.is(flash(list.text), 'Enregistrement « Jean Dupont » créé.');
  });

  t('a public detail page is titled by the display pattern, its text kept, the key when nothing is left', async () => {
    await app.exec("INSERT INTO benevoles (id, nom, ville) VALUES (1, 'Durand', 'Lyon'), (2, 'Martin', NULL)");
    const page = await client.get('/benevoles/1');
    assert.is(page.status, 200);
    assert.is(heading(page.text), 'Durand (Lyon)');
    assert.match(decode(/<title>([\s\S]*?)<\/title>/.exec(page.text)?.[1] ?? ''), /^Durand \(Lyon\) · /);
    assert.is(heading((await client.get('/benevoles/2')).text), 'Martin ()');
  });

  t('the form refuses values outside the constraints, each with its message (422)', async () => {
    const set = (changes: Record<string, string>): Array<[string, string]> => VALID.map(([k, v]) => [k, changes[k] ?? v]);
    const res = await client.post('/membres', set({ age: '3', cotisation: '600', code: 'ab123', pseudo: 'jd' }));
    assert.is(res.status, 422);
    assert.is(fieldError(res.text, 'age'), 'Le champ « Age » doit être supérieur ou égal à 5.');
    assert.is(fieldError(res.text, 'cotisation'), 'Le champ « Cotisation » doit être inférieur ou égal à 500.');
    assert.is(fieldError(res.text, 'code'), 'Le code : deux majuscules puis trois chiffres (AB123).');
    assert.is(fieldError(res.text, 'pseudo'), 'Le champ « Pseudo » doit contenir au moins 3 caractères.');
    const over = await client.post('/membres', set({ age: '121' }));
    assert.is(fieldError(over.text, 'age'), 'Le champ « Age » doit être inférieur ou égal à 120.');
    assert.is(Number((await app.rows('SELECT COUNT(*) AS n FROM membres'))[0]!['n']), 1);
  });

  t('the form marks its required fields, explains the mark once, and has no summary before it is sent', async () => {
    const page = await client.get('/membres/new');
    for (const name of ['prenom', 'nom', 'age', 'cotisation', 'pays']) {
      assert.ok(labelOf(page.text, name).endsWith(REQUIRED_MARK), `${name} : ${labelOf(page.text, name)}`);
      assert.match(page.text, new RegExp(`<input [^>]*id="field-${name}"[^>]* required[ >]`), name);
    }
    for (const name of ['code', 'pseudo']) {
      assert.not.ok(labelOf(page.text, name).includes('*'), name);
      assert.not.match(page.text, new RegExp(`<input [^>]*id="field-${name}"[^>]* required[ >]`), name);
    }
    assert.is(page.text.split('Les champs marqués d’un astérisque (*) sont obligatoires.').length, 2, 'la légende, une fois');
    assert.is(errorSummary(page.text), null);
    const relation = await client.get('/inscriptions/new');
    assert.ok(labelOf(relation.text, 'membre_id').endsWith(REQUIRED_MARK), labelOf(relation.text, 'membre_id'));
    assert.match(relation.text, /<select id="field-membre_id"[^>]* required[ >]/);
  });

  t('a form sent back with errors sums them up at the top, each a link to its field; numbers are written as the page writes them', async () => {
    const set = (changes: Record<string, string>): Array<[string, string]> => VALID.map(([k, v]) => [k, changes[k] ?? v]);
    const res = await client.post('/membres', set({ prenom: '', age: '3', cotisation: '12.5.0', code: 'ab123' }));
    assert.is(res.status, 422);
    const summary = errorSummary(res.text);
    assert.ok(summary, 'le résumé des erreurs');
    assert.is(summary!.heading, 'Le formulaire contient 4 erreurs :');
    assert.equal(summary!.links, [
      ['field-prenom', 'Le champ « Prenom » est obligatoire.'],
      ['field-age', 'Le champ « Age » doit être supérieur ou égal à 5.'],
      ['field-cotisation', 'Le champ « Cotisation » doit être un nombre décimal (par exemple 12,50).'],
      ['field-code', 'Le code : deux majuscules puis trois chiffres (AB123).'],
    ]);
    const present = ids(res.text);
    for (const [id, message] of summary!.links) {
      assert.ok(present.has(id), `#${id} existe`);
      assert.is(fieldError(res.text, id.slice('field-'.length)), message, `le message sous ${id}`);
    }
    assert.ok(res.text.indexOf('id="error-summary"') < res.text.indexOf('<form method="post"'), 'le résumé précède le formulaire');
    const places = await client.post('/membres', set({ cotisation: '12,505' }));
    assert.equal(errorSummary(places.text)!.links, [['field-cotisation', 'Le champ « Cotisation » doit comporter au plus 2 décimales.']]);
    assert.is(errorSummary(places.text)!.heading, 'Le formulaire contient une erreur :');
    const relation = await client.post('/inscriptions', [
      ['titre', ''],
      ['membre_id', ''],
    ]);
    assert.is(relation.status, 422);
    assert.equal(
      errorSummary(relation.text)!.links.map(([id]) => id),
      ['field-titre', 'field-membre_id'],
    );
    for (const [id] of errorSummary(relation.text)!.links) assert.ok(ids(relation.text).has(id), id);
  });

  t("a JSON write checked by the entity alone: a 422 envelope naming each field with the form's messages; the defaults fill what is absent", async () => {
    const post = (body: unknown): Promise<Response> =>
      fetch(`${client.base}/api/membres`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await post({ prenom: 'Ana', nom: 'Lima', age: 3, cotisation: '600', code: 'ab123', pseudo: 'jd', pays: 'Brésil' });
    assert.is(refused.status, 422);
    const envelope = (await refused.json()) as { success: boolean; error: { code: string; details: Record<string, string> } };
    assert.is(envelope.success, false);
    assert.is(envelope.error.code, 'validation_error');
    // The same words as the form's (the test above and 'the form refuses values outside the constraints').
    assert.equal(envelope.error.details, {
      age: 'Le champ « Age » doit être supérieur ou égal à 5.',
      cotisation: 'Le champ « Cotisation » doit être inférieur ou égal à 500.',
      code: 'Le code : deux majuscules puis trois chiffres (AB123).',
      pseudo: 'Le champ « Pseudo » doit contenir au moins 3 caractères.',
    });
    const over = await post({ prenom: 'Ana', nom: 'Lima', age: 121, cotisation: '-0.01' });
    assert.equal(((await over.json()) as { error: { details: unknown } }).error.details, {
      age: 'Le champ « Age » doit être inférieur ou égal à 120.',
      cotisation: 'Le champ « Cotisation » doit être supérieur ou égal à 0.',
    });
    const accepted = await post({ prenom: 'Ana', nom: 'Lima', age: 30 });
    assert.is(accepted.status, 201);
    const row = ((await accepted.json()) as { data: Record<string, unknown> }).data;
    assert.is(row['Cotisation'], '20.00');
    assert.is(row['Pays'], 'France');
    assert.is(row['Code'], null);
  });

  t('the CSV starts with the byte-order mark, splits its cells on ;, keeps accents and writes decimals as the page does', async () => {
    const created = await client.post('/membres', [
      ['prenom', 'Élodie'],
      ['nom', 'Lefèvre'],
      ['age', '33'],
      ['cotisation', '12,5'],
      ['pays', 'Côte d’Ivoire'],
    ]);
    assert.is(created.status, 302);
    const res = await fetch(`${client.base}/membres/export.csv`);
    assert.is(res.status, 200);
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'la marque d’ordre des octets');
    const lines = csvLines(bytes.subarray(3).toString('utf8'));
    const line = lines.find((l) => l.includes('Lefèvre'));
    assert.ok(line, lines.join('\n'));
    const cells = csvCells(line!);
    assert.ok(cells.includes('Élodie') && cells.includes('Côte d’Ivoire'), cells.join(' | '));
    assert.ok(cells.includes('12,50'), cells.join(' | '));
    await app.exec("DELETE FROM membres WHERE Nom = 'Lefèvre'");
  });

  t('the database refuses rows outside the constraints (CHECK) and fills the defaults', async () => {
    const refused = async (sql: string): Promise<boolean> => {
      try {
        await app.exec(sql);
        return false;
      } catch {
        return true;
      }
    };
    assert.ok(await refused("INSERT INTO membres (Prenom, Nom, Age) VALUES ('A', 'B', 4)"), 'age < 5');
    assert.ok(await refused("INSERT INTO membres (Prenom, Nom, Age) VALUES ('A', 'B', 121)"), 'age > 120');
    assert.ok(await refused("INSERT INTO membres (Prenom, Nom, Age, Cotisation) VALUES ('A', 'B', 30, '500.01')"), 'cotisation > 500');
    assert.ok(await refused("INSERT INTO membres (Prenom, Nom, Age, Pseudo) VALUES ('A', 'B', 30, 'ab')"), 'pseudo < 3 caractères');
    // SQLite has no REGEXP: the pattern is the form's alone there (docs/entities.md "Constraints").
    assert.is(await refused("INSERT INTO membres (Prenom, Nom, Age, Code) VALUES ('A', 'B', 30, 'ab123')"), dialect === 'mariadb', 'code hors motif');
    await app.exec("INSERT INTO membres (Prenom, Nom, Age) VALUES ('Marie', 'Curie', 66)");
    const [row] = await app.rows("SELECT Pays, Cotisation FROM membres WHERE Nom = 'Curie'");
    assert.is(row!['Pays'], 'France');
    assert.is(Number(row!['Cotisation']), 20);
    await app.exec("DELETE FROM membres WHERE Nom = 'Curie' OR Prenom = 'A'");
    // The CHECKs and DEFAULTs leave the tables as their entities describe them.
    const diff = app.project.run(['migration:diff', '--all', '--check']);
    assert.is(diff.status, 0, diff.stdout + diff.stderr);
    assert.equal(
      (await app.rows('SELECT Prenom, Nom FROM membres')).map((r) => `${String(r['Prenom'])} ${String(r['Nom'])}`),
      ['Jean Dupont'],
    );
  });

  t('the pattern names the member in the select and filter of the relation, the list, the CSV, the links and the detail title', async () => {
    const [member] = await app.rows("SELECT Id FROM membres WHERE Nom = 'Dupont'");
    const id = Number(member!['Id']);
    const form = await client.get('/inscriptions/new');
    assert.ok(
      selectOptions(form.text, 'field-membre_id').some((o) => o.value === String(id) && o.label === 'Jean Dupont'),
      'le select de la relation',
    );
    const created = await client.post('/inscriptions', [
      ['titre', 'Tournoi'],
      ['membre_id', String(id)],
    ]);
    assert.is(created.status, 302);
    const list = await client.get('/inscriptions');
    assert.ok(decode(list.text).includes('Jean Dupont'), 'la colonne de la liste');
    assert.ok(
      selectOptions(list.text, 'filter-membre_id').some((o) => o.label === 'Jean Dupont'),
      'le filtre de la liste',
    );
    const csv = await client.get('/inscriptions/export.csv');
    assert.ok(
      csvLines(csv.text)
        .slice(1)
        .some((line) => csvCells(line).includes('Jean Dupont')),
      'la colonne _label du CSV',
    );
    const group = await client.post('/groupes', [
      ['nom', 'Juniors'],
      ['membre_ids', String(id)],
    ]);
    assert.is(group.status, 302);
    const [groupe] = await app.rows('SELECT Id FROM groupes');
    const groupPage = await client.get(`/groupes/${String(groupe!['Id'])}`);
    assert.ok(decode(groupPage.text).includes('Jean Dupont'), 'les liens many-to-many de la fiche');
    const show = await client.get(`/membres/${id}`);
    assert.is(heading(show.text), 'Jean Dupont');
    // Without display, the title stays as it was.
    assert.match(heading(groupPage.text), /^Groupe #\d+$/);
  });

  t('a refused delete (409) and the bulk-delete confirmation name the member; the update and delete flashes too', async () => {
    const [member] = await app.rows("SELECT Id FROM membres WHERE Nom = 'Dupont'");
    const id = Number(member!['Id']);
    const one = await client.post(`/membres/${id}/delete`);
    assert.is(one.status, 409);
    assert.match(flash(one.text), /^Suppression impossible : 1 inscription fait encore référence à Membre « Jean Dupont »\./);
    const confirm = await client.post('/membres/bulk-delete', [['ids', String(id)]]);
    assert.ok(decode(confirm.text).includes(`<li>#${id} Jean Dupont</li>`), 'la confirmation');
    const bulk = await client.post('/membres/bulk-delete/confirm', [['ids', String(id)]]);
    assert.is(bulk.status, 409);
    assert.ok(flash(bulk.text).includes(`#${id} Jean Dupont (1 inscription)`), flash(bulk.text));
    const updated = await client.post(
      `/membres/${id}`,
      VALID.map(([k, v]) => [k, k === 'prenom' ? 'Jeanne' : v]),
    );
    assert.is(flash((await client.get(updated.headers.get('location')!)).text), 'Enregistrement « Jeanne Dupont » mis à jour.');
    await app.exec('DELETE FROM inscriptions');
    const deleted = await client.post(`/membres/${id}/delete`);
    assert.is(flash((await client.get(deleted.headers.get('location')!)).text), 'Enregistrement « Jeanne Dupont » supprimé.');
  });

  t.run();
}

for (const dialect of DIALECTS) namedSuite(dialect);
