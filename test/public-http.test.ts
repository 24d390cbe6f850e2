// The generated public pages served for real on SQLite and on MariaDB (one body, run twice): the list (latest 100,
// newest first, excluded fields absent, thumbnails, empty state), the detail (fields, media read-only, 404), the form
// (422 with messages and values, duplicate, success 302 + row + flash, CSRF), the static pages
// (docs/generators.md, docs/decisions.md#public-pages).
import type { ChildProcess } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { newProject, type CliProject } from './helpers/cli.js';
import { HttpClient, linkFramework, serveProject } from './helpers/crud-app.js';
import { ok } from './helpers/crud-cli-project.js';
import { decode, fieldError, inputValue, isChecked, tags, textareaValue } from './helpers/crud-html.js';
import { generatePublicSite } from './helpers/public-project.js';
import { DIALECTS } from './helpers/dialects.js';

const SECRET = 'hash-secret-a-ne-pas-montrer';

function publicSuite(dialect: DialectName): void {
  const t = suite(`public-http: ${dialect}`);
  let project: CliProject | undefined;
  let child: ChildProcess | undefined;
  let client: HttpClient;
  const p = (): CliProject => project!;
  const rows = async (sql: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> => {
    const db = p().open();
    try {
      return await db.fetchAll(sql, params);
    } finally {
      await db.close();
    }
  };
  const count = async (): Promise<number> => Number((await rows('SELECT COUNT(*) AS n FROM annonces'))[0]!['n']);
  /** The record ids the list links to, in page order. */
  const listIds = (html: string): number[] => [...html.matchAll(/<a href="\/annonces\/(\d+)"/g)].map((m) => Number(m[1]));

  t.before(async () => {
    project = newProject('Vitrine');
    project.useDialect(dialect);
    generatePublicSite(project);
    for (const args of [['db:init'], ['upload:init'], ['media:init'], ['db:apply']]) ok(project, args);
    linkFramework(project);
    const served = await serveProject(project);
    child = served.child;
    client = new HttpClient(served.url);
    await client.csrfToken('/annonces/new');
  });
  t.after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await project?.cleanup();
  });

  t('an empty table: the list shows the empty state', async () => {
    const res = await client.get('/annonces');
    assert.is(res.status, 200);
    assert.match(res.text, 'Aucun élément à afficher pour le moment.');
    assert.not.match(res.text, '<table');
  });

  t('the list: the latest 100 rows, newest first, without the excluded fields, with the cover thumbnails', async () => {
    const inserts: string[] = [];
    for (let i = 1; i <= 105; i++) {
      inserts.push(
        `INSERT INTO annonces (Titre, Email, Prix, Disponible, Description, CategorieId, PasswordHash, IsActive, CreatedAt) VALUES ('Annonce ${i}', 'a${i}@exemple.fr', '${i}.50', ${i % 2}, 'Texte ${i}', 42, '${SECRET}', 1, '2026-01-01 10:00:00')`,
      );
    }
    await p().sql(inserts);
    const media = (id: number, path: string, role: string, position: number, name: string): string =>
      `INSERT INTO media (entity_name, entity_id, path, original_name, mime_type, size, role, position, alt_text, created_at) VALUES ('Annonce', '${id}', '${path}', '${name}', 'image/jpeg', 10, '${role}', ${position}, NULL, '2026-01-01 10:00:00')`;
    await p().sql([
      media(105, 'images/couverture.jpg', 'cover', 0, 'couverture.jpg'),
      media(105, 'images/g1.jpg', 'gallery', 0, 'g1.jpg'),
      media(105, 'images/g2.jpg', 'gallery', 1, 'g2.jpg'),
      media(105, 'documents/plan.pdf', 'plan', 0, 'Plan du lieu.pdf'),
      media(105, 'documents/a1.pdf', 'annexes', 0, 'Annexe 1.pdf'),
      media(105, 'documents/a2.pdf', 'annexes', 1, 'Annexe 2.pdf'),
      media(7, 'images/autre.jpg', 'cover', 0, 'autre.jpg'),
    ]);
    const res = await client.get('/annonces');
    assert.is(res.status, 200);
    const ids = listIds(res.text);
    assert.equal(
      ids,
      Array.from({ length: 100 }, (_, i) => 105 - i),
    );
    assert.match(res.text, '>Annonce 105</a>');
    assert.match(res.text, /<a href="\/annonces\/new" class="[^"]*">Ajouter<\/a>/, 'lien vers le formulaire public');
    // A DECIMAL with the French separator, as on the CRUD pages.
    assert.match(res.text, '105,50');
    assert.not.match(res.text, '105.50');
    for (const hidden of [SECRET, '2026-01-01 10', 'Password', 'Created', 'Categorie', 'Texte 105']) assert.not.match(res.text, hidden, `absent : ${hidden}`);
    const images = tags(res.text, 'img').map((tag) => tag.attrs['src']);
    assert.equal(images, ['/media/images/couverture.jpg', '/media/images/autre.jpg']);
  });

  t('the detail: its fields, its media in declaration order, the back link; an unknown id gives 404', async () => {
    const res = await client.get('/annonces/105');
    assert.is(res.status, 200);
    const text = decode(res.text);
    assert.match(text, /<h1[^>]*>Annonce 105<\/h1>/);
    assert.match(text, 'Texte 105');
    assert.match(text, 'a105@exemple.fr');
    assert.not.match(text, SECRET);
    const order = ['media-photo-title', 'media-galerie-title', 'media-plan-title', 'media-annexes-title'].map((id) => text.indexOf(`id="${id}"`));
    assert.ok(
      order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)),
      `ordre : ${order.join(', ')}`,
    );
    assert.equal(
      tags(res.text, 'img').map((tag) => tag.attrs['src']),
      ['/media/images/couverture.jpg', '/media/images/g1.jpg', '/media/images/g2.jpg'],
    );
    for (const [href, name] of [
      ['/media/documents/plan.pdf', 'Plan du lieu.pdf'],
      ['/media/documents/a1.pdf', 'Annexe 1.pdf'],
      ['/media/documents/a2.pdf', 'Annexe 2.pdf'],
    ]) {
      assert.match(text, `<a href="${href}" class="font-medium text-blue-700 hover:underline">${name}</a>`);
    }
    assert.match(text, /<a href="\/annonces"[^>]*>← Retour à la liste<\/a>/);
    const plain = await client.get('/annonces/3');
    assert.is(plain.status, 200);
    assert.not.match(plain.text, 'media-');
    for (const id of ['999999', 'abc', '0', '-1', '1.5']) {
      const missing = await client.get(`/annonces/${id}`);
      assert.is(missing.status, 404, id);
      assert.match(decode(missing.text), 'Élément introuvable.');
      assert.match(missing.text, 'aria-label="Navigation principale"', 'dans le gabarit public');
    }
  });

  t('nothing to name a record with but its password: the detail is headed by the key, the password never shown', async () => {
    await p().sql([`INSERT INTO cles (Password, Actif) VALUES ('${SECRET}', 1)`]);
    const [row] = await rows('SELECT Id FROM cles');
    const id = Number(row!['Id']);
    const res = await client.get(`/cles/${id}`);
    assert.is(res.status, 200);
    const text = decode(res.text);
    assert.match(text, new RegExp(`<title>#${id} · Cles`));
    assert.match(text, new RegExp(`<h1[^>]*>#${id}</h1>`));
    assert.match(text, /<dt[^>]*>Actif<\/dt>\s*<dd[^>]*>Oui<\/dd>/);
    assert.not.match(text, SECRET);
    const list = await client.get('/cles');
    assert.is(list.status, 200);
    assert.match(list.text, `<a href="/cles/${id}" class="font-medium text-blue-700 hover:underline">#${id}</a>`);
    assert.not.match(list.text, SECRET);
    assert.not.match(list.text, '/cles/new', 'pas de formulaire public, pas de lien');
  });

  t('secrets under other names and account flags: on no public page, in no public form', async () => {
    const secrets = ['jeton-api-42', 'secret-mfa-42', 'jeton-reset-42', 'sel-42', 'cle-api-42'];
    await p().sql([
      `INSERT INTO comptes (Pseudo, ApiToken, MfaSecret, ResetPasswordToken, PasswordSalt, ApiKey, IsAdmin, IsActive) VALUES ('camille', '${secrets.join("', '")}', 1, 1)`,
    ]);
    const [row] = await rows('SELECT Id FROM comptes');
    const list = await client.get('/comptes');
    const show = await client.get(`/comptes/${Number(row!['Id'])}`);
    for (const res of [list, show]) {
      assert.is(res.status, 200);
      const text = decode(res.text);
      assert.match(text, 'camille');
      for (const hidden of [...secrets, 'Api', 'Mfa', 'Reset', 'Salt', 'Is admin', 'Is active', 'Oui']) assert.not.match(text, hidden, `absent : ${hidden}`);
    }
    const form = await client.get('/comptes/new');
    assert.equal(
      tags(form.text, 'input').map((tag) => tag.attrs['name']),
      ['csrf_token', 'pseudo'],
    );
  });

  t('the form: input kinds of docs/generators.md, required = not nullable, no excluded field', async () => {
    const res = await client.get('/annonces/new');
    assert.is(res.status, 200);
    const inputs = new Map(tags(res.text, 'input').map((tag) => [tag.attrs['name'], tag.attrs]));
    const kinds = Object.fromEntries(
      ['titre', 'email', 'telephone', 'site_web', 'prix', 'surface', 'pieces', 'disponible', 'debut', 'visite'].map((name) => [
        name,
        inputs.get(name)?.['type'],
      ]),
    );
    assert.equal(kinds, {
      titre: 'text',
      email: 'email',
      telephone: 'tel',
      site_web: 'url',
      prix: 'number',
      surface: 'number',
      pieces: 'number',
      disponible: 'checkbox',
      debut: 'date',
      visite: 'datetime-local',
    });
    assert.is(inputs.get('prix')!['step'], '0.01');
    assert.is(inputs.get('surface')!['step'], 'any');
    assert.ok('required' in inputs.get('titre')! && 'required' in inputs.get('email')!);
    assert.not.ok('required' in inputs.get('telephone')! || 'required' in inputs.get('prix')!);
    assert.is(textareaValue(res.text, 'description'), '');
    for (const name of ['id', 'categorie_id', 'password_hash', 'is_active', 'created_at']) assert.not.ok(inputs.has(name), name);
    assert.ok(inputs.has('csrf_token'));
  });

  t('an invalid form comes back with 422, its messages and the values entered; nothing saved', async () => {
    const before = await count();
    const res = await client.post('/annonces', [
      ['titre', ''],
      ['email', 'pas-une-adresse'],
      ['telephone', '06 11 22'],
      ['prix', '12.345'],
      ['disponible', '1'],
      ['description', 'Un <b>texte</b> & "plus"'],
    ]);
    assert.is(res.status, 422);
    assert.match(fieldError(res.text, 'titre') ?? '', /obligatoire/);
    assert.ok(fieldError(res.text, 'email'), 'message sous email');
    assert.ok(fieldError(res.text, 'prix'), 'message sous prix');
    assert.is(inputValue(res.text, 'email'), 'pas-une-adresse');
    assert.is(inputValue(res.text, 'telephone'), '06 11 22');
    assert.is(inputValue(res.text, 'prix'), '12.345');
    assert.ok(isChecked(res.text, 'disponible'));
    assert.is(textareaValue(res.text, 'description'), 'Un <b>texte</b> & "plus"');
    assert.is(await count(), before);
  });

  t('a long text is bounded by its column in UTF-8 bytes (TEXT: 65,535): 422 above, saved below, never 500', async () => {
    const before = await count();
    const res = await client.post('/annonces', [
      ['titre', 'Trop long'],
      ['email', 'long@exemple.fr'],
      ['description', 'x'.repeat(70_000)],
    ]);
    assert.is(res.status, 422, res.text.slice(0, 300));
    assert.is(
      fieldError(res.text, 'description'),
      'Le champ « Description » est trop long : 65\u202f535 octets au plus (une lettre accentuée en compte 2, un emoji 4).',
    );
    assert.is(await count(), before);
    const accented = 'é'.repeat(30_000);
    const saved = await client.post('/annonces', [
      ['titre', 'Long et accentué'],
      ['email', 'long@exemple.fr'],
      ['description', accented],
    ]);
    assert.is(saved.status, 302, saved.text.slice(0, 300));
    const [row] = await rows('SELECT Description FROM annonces WHERE Email = ?', ['long@exemple.fr']);
    assert.is(row!['Description'], accented);
  });

  t('an e-mail already taken: 422 with the message on the field', async () => {
    const before = await count();
    const res = await client.post('/annonces', [
      ['titre', 'Doublon'],
      ['email', 'a1@exemple.fr'],
    ]);
    assert.is(res.status, 422);
    assert.is(fieldError(res.text, 'email'), 'Cette valeur est déjà utilisée.');
    assert.is(inputValue(res.text, 'titre'), 'Doublon');
    assert.is(await count(), before);
  });

  t('a value taken in a column the form leaves out: 422 with a message above the form, never 500', async () => {
    // A unique index added by hand on a column INSERT_PUBLIC_FORM fills with its default (is_active: false).
    await p().sql(['CREATE UNIQUE INDEX uq_comptes_actif ON comptes (IsActive)']);
    const first = await client.post('/comptes', [['pseudo', 'dominique']]);
    assert.is(first.status, 302, first.text.slice(0, 500));
    const second = await client.post('/comptes', [['pseudo', 'sacha']]);
    assert.is(second.status, 422, second.text.slice(0, 500));
    assert.match(decode(second.text), /<div role="alert"[^>]*><p>Cet envoi n’a pas pu être enregistré : une de ses valeurs est déjà utilisée.<\/p>/);
    assert.is(inputValue(second.text, 'pseudo'), 'sacha');
    assert.equal(
      (await rows("SELECT Pseudo FROM comptes WHERE Pseudo <> 'camille' ORDER BY Id")).map((row) => row['Pseudo']),
      ['dominique'],
    );
  });

  t('a valid form: 302 to the empty form, the row saved by INSERT_PUBLIC_FORM, the flash shown once', async () => {
    const res = await client.post('/annonces', [
      ['titre', 'Studio lumineux'],
      ['email', 'studio@exemple.fr'],
      ['prix', '450.5'],
      ['surface', '21,5'],
      ['pieces', '1'],
      ['disponible', '1'],
      ['debut', '2026-05-01'],
      ['visite', '2026-04-20T18:30'],
      ['description', 'Calme.'],
    ]);
    assert.is(res.status, 302, res.text.slice(0, 500));
    assert.is(res.headers.get('location'), '/annonces/new');
    const [row] = await rows('SELECT * FROM annonces WHERE Email = ?', ['studio@exemple.fr']);
    assert.ok(row, 'ligne enregistrée');
    assert.is(row!['Titre'], 'Studio lumineux');
    assert.is(String(row!['Prix']).replace(/0$/, ''), '450.5');
    assert.is(Number(row!['Surface']), 21.5);
    assert.is(Number(row!['Disponible']), 1);
    assert.is(Number(row!['IsActive']), 0);
    assert.is(row!['PasswordHash'], '');
    assert.ok(row!['CreatedAt'], 'created_at rempli');
    const page = await client.get('/annonces/new');
    assert.match(decode(page.text), 'Merci, votre envoi a bien été enregistré.');
    assert.is(inputValue(page.text, 'titre'), '');
    assert.not.match(decode((await client.get('/annonces/new')).text), 'Merci, votre envoi');
    assert.equal(listIds((await client.get('/annonces')).text).slice(0, 1), [Number(row!['Id'])]);
  });

  t('without the CSRF token: 403, nothing saved', async () => {
    const before = await count();
    const res = await client.request('POST', '/annonces', {
      form: [
        ['titre', 'Sans jeton'],
        ['email', 'csrf@exemple.fr'],
      ],
    });
    assert.is(res.status, 403);
    assert.is(await count(), before);
  });

  t('the static pages: a page, the landing page, the contact page', async () => {
    const about = await client.get('/a-propos');
    assert.is(about.status, 200);
    assert.match(about.text, /<h1[^>]*>À propos<\/h1>/);
    assert.match(decode(about.text), 'Page générée automatiquement.');
    assert.is((await client.get('/landing')).status, 200);
    const contact = await client.get('/contact');
    assert.is(contact.status, 200);
    const text = decode(contact.text);
    for (const part of ['Nous contacter', 'Coordonnées', 'Adresse e-mail', 'Téléphone', '12 rue de l’Exemple, 75001 Paris', 'contact@exemple.fr'])
      assert.match(text, part);
    assert.not.match(contact.text, '<form');
  });

  t.run();
}

for (const dialect of DIALECTS) publicSuite(dialect);
