/**
 * Who may read a private file at `/media` (runtime/media/access.ts), on a real server and both dialects: a file a
 * media row links to a record follows every read rule registered for its entity (`recordReadRule`: the permission or
 * a role of the page, and the record must exist; an application's ownership rule beside it), a variant follows its
 * image, a file no row links and an entity without rule stay readable by any signed-in user, a rule that throws is a
 * 500, never the file; the refusal comes before any 304 or 206.
 */
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiSuccess, closeDatabase, getUser, requestSession, type Router } from '../runtime/index.js';
import { createMediaRecord, registerMediaReadRule, recordReadRule } from '../runtime/media/index.js';
import type { AuthDatabase } from './helpers/auth-client.js';
import { assertSecurityHeaders, sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';
import { openMediaDatabase } from './helpers/uploads.js';
import { DIALECTS } from './helpers/dialects.js';

/** `/as/<email>?roles=a,b&permissions=c`: signs in as that user. */
function routes(router: Router): void {
  router.add(
    'GET',
    '/as/{email}',
    (request) => {
      const query = new URLSearchParams(request.query);
      const list = (name: string): string[] => (query.get(name) ?? '').split(',').filter(Boolean);
      requestSession(request).set('user', { id: 1, email: request.routeParams.email, roles: list('roles'), permissions: list('permissions') });
      return apiSuccess({ ok: true });
    },
    { public: true },
  );
  router.add('GET', '/login', () => apiSuccess({ login: true }), { public: true });
}

const FILES = {
  first: 'documents/note_un.pdf',
  second: 'documents/note_deux.pdf',
  gone: 'documents/note_supprimee.pdf',
  other: 'documents/autre.pdf',
  orphan: 'documents/sans_ligne.pdf',
  image: 'images/plan.jpg',
  medium: 'images/medium/plan.jpg',
};

for (const dialect of DIALECTS) {
  const t = suite(`/media follows the read rules of the owning record (${dialect})`);
  let database: AuthDatabase;
  let app: TestApp;
  const removals: Array<() => void> = [];
  const cookies = new Map<string, string>();

  /** The cookie of a user signed in with those roles and permissions (made once). */
  async function as(email: string, roles = '', permissions = ''): Promise<string> {
    const key = `${email}|${roles}|${permissions}`;
    if (!cookies.has(key)) cookies.set(key, sessionCookie((await app.fetch(`/as/${email}?roles=${roles}&permissions=${permissions}`)).cookies)!);
    return cookies.get(key)!;
  }
  const read = (file: string, cookie: string, headers: Record<string, string> = {}) => app.fetch(`/media/${file}`, { headers: { cookie, ...headers } });

  t.before(async () => {
    database = await openMediaDatabase(dialect);
    app = await startApp({ routes, config: { ...database.config, media_public_categories: [] } });
    await database.db.execute('CREATE TABLE notes (id INT NOT NULL PRIMARY KEY, titre VARCHAR(50) NOT NULL)');
    await database.db.execute("INSERT INTO notes (id, titre) VALUES (1, 'un'), (2, 'deux')");
    const root = path.join(app.project.root, 'storage', 'uploads');
    for (const file of Object.values(FILES)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), `contenu de ${file}`);
    }
    await createMediaRecord('Note', 1, FILES.first);
    await createMediaRecord('Note', '2', FILES.second);
    await createMediaRecord('Note', 3, FILES.gone);
    await createMediaRecord('Note', 2, FILES.image, { role: 'cover' });
    await createMediaRecord('Autre', 1, FILES.other);
    // What the generated pages register (the role block's `show`), and an ownership rule of the application.
    removals.push(registerMediaReadRule('Note', recordReadRule({ permission: 'note.show', roles: ['juriste'], table: 'notes', keyColumn: 'id' }), 'pages'));
    removals.push(registerMediaReadRule('Note', (request, id) => id !== '2' || getUser(request)?.email === 'titulaire@example.test', 'owner'));
  });
  t.after(async () => {
    for (const remove of removals) remove();
    await app?.close();
    await closeDatabase();
    await database?.close();
  });

  t('the role, the permission or the admin role of the page read the file; another user gets 403', async () => {
    for (const cookie of [await as('j@example.test', 'juriste'), await as('p@example.test', '', 'note.show'), await as('a@example.test', 'admin')]) {
      const ok = await read(FILES.first, cookie);
      assert.is(ok.status, 200);
      assert.is(ok.text, `contenu de ${FILES.first}`);
    }
    const refused = await read(FILES.first, await as('s@example.test', 'stagiaire'));
    assert.is(refused.status, 403);
    assert.not.match(refused.text, 'contenu de documents');
    assertSecurityHeaders(refused.headers, '403');
  });

  t('every rule of the entity must allow: the ownership rule refuses another juriste, the file and its variant alike', async () => {
    const owner = await as('titulaire@example.test', 'juriste');
    const colleague = await as('collegue@example.test', 'juriste');
    for (const file of [FILES.second, FILES.image, FILES.medium]) {
      assert.is((await read(file, owner)).status, 200, file);
      assert.is((await read(file, colleague)).status, 403, file);
    }
  });

  t('a refused user never gets a 304 or a 206', async () => {
    const etag = (await read(FILES.first, await as('j@example.test', 'juriste'))).headers.get('etag')!;
    const stranger = await as('s@example.test', 'stagiaire');
    for (const headers of [
      { 'if-none-match': etag },
      { 'if-none-match': '*' },
      { range: 'bytes=0-3' },
      { 'if-modified-since': new Date().toUTCString() },
    ] as Array<Record<string, string>>) {
      assert.is((await read(FILES.first, stranger, headers)).status, 403, JSON.stringify(headers));
    }
    assert.is((await read(FILES.first, await as('j@example.test', 'juriste'), { 'if-none-match': etag })).status, 304);
  });

  t('the record must exist, as its page answers 404 without it', async () => {
    assert.is((await read(FILES.gone, await as('a@example.test', 'admin'))).status, 403);
  });

  t('no row, or an entity without rule: any signed-in user, as before; anonymous: the login', async () => {
    const anyone = await as('s@example.test', 'stagiaire');
    assert.is((await read(FILES.orphan, anyone)).status, 200);
    assert.is((await read(FILES.other, anyone)).status, 200);
    assert.is((await app.fetch(`/media/${FILES.first}`)).status, 302);
  });

  t('a rule that throws answers 500, never the file; removing a rule restores what the others say', async () => {
    const remove = registerMediaReadRule('Autre', () => {
      throw new Error('règle en panne');
    });
    const broken = await read(FILES.other, await as('a@example.test', 'admin'));
    assert.is(broken.status, 500);
    assert.not.match(broken.text, `contenu de ${FILES.other}`);
    remove();
    assert.is((await read(FILES.other, await as('a@example.test', 'admin'))).status, 200);
  });

  t('registerMediaReadRule refuses what is not a rule', () => {
    assert.throws(() => registerMediaReadRule('', () => true), /nom d’entité invalide/);
    assert.throws(() => registerMediaReadRule('Note', 'oui' as never), /doit être une fonction/);
    assert.throws(() => recordReadRule({ permission: 'x.show', roles: null, table: 'notes; DROP TABLE notes', keyColumn: 'id' }), /identifiant SQL invalide/);
  });

  t.run();
}
