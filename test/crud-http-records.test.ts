// One record at a time in the generated Contacts pages, served for real (test/helpers/crud-seed.ts) and checked over
// HTTP on SQLite and on MariaDB (one body, run twice): detail, edit, create and update with their 422 pages, single
// delete with and without HX-Request, bulk delete (docs/crud.md "Routes", "Partial updates (htmx,
// optional)", "Bulk delete").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { HttpClient } from './helpers/crud-app.js';
import {
  decode,
  emptyState,
  fieldError,
  forms,
  hiddenFields,
  hxAttrs,
  inputValue,
  isChecked,
  parseLink,
  rowIds,
  selectOptions,
  textareaValue,
} from './helpers/crud-html.js';
import { CONFIRM_DELETE, EMPTY, FLASH, HX, MSG, dbContact, dbContacts, dbCount, seededApp } from './helpers/crud-seed.js';
import { DIALECTS } from './helpers/dialects.js';

function crudSuite(dialect: DialectName): void {
  const t = suite(`crud-http-records: ${dialect}`);
  const seeded = seededApp(t, dialect);
  const { get } = seeded;

  t('show and edit: an id that is not a positive integer, or unknown, gives 404', async () => {
    for (const id of ['abc', '1.5', '0', '-1', '00', '1e2', '%201', '999999', '99999999999999999999']) {
      for (const suffix of ['', '/edit']) {
        const res = await get(`/contacts/${id}${suffix}`);
        assert.is(res.status, 404, `/contacts/${id}${suffix}`);
        assert.match(res.text, /Page introuvable/);
      }
    }
    for (const id of ['abc', '1.5', '0', '-1', '999999']) {
      const count = await dbCount(seeded.app);
      assert.is(
        (
          await seeded.client.post(`/contacts/${id}`, [
            ['nom', 'X'],
            ['prenom', 'Y'],
            ['email', 'xy@exemple.fr'],
          ])
        ).status,
        404,
        `POST /contacts/${id}`,
      );
      assert.is((await seeded.client.post(`/contacts/${id}/delete`)).status, 404, `POST /contacts/${id}/delete`);
      assert.is(await dbCount(seeded.app), count);
    }
  });

  t('show and edit: the detail and the form filled with the record (values, checkbox, selected ville)', async () => {
    const rows = await dbContacts(seeded.app);
    const r = rows.find((x) => x.notes === 'Rappeler mardi')!; // i = 7: actif 1, ville 1 (Lyon), telephone set
    assert.is(r.ville_id, 1);
    const show = await get(`/contacts/${r.id}`);
    assert.is(show.status, 200);
    for (const value of [r.nom, r.prenom, r.email, r.telephone!, 'Rappeler mardi', 'Lyon', 'Oui'])
      assert.ok(show.text.includes(`>${value}</dd>`), `détail : ${value}`);
    const edit = await get(`/contacts/${r.id}/edit`);
    assert.is(edit.status, 200);
    const form = forms(edit.text).find((f) => f.attrs['action'] === `/contacts/${r.id}`)!;
    assert.ok(form, 'formulaire de modification vers POST /contacts/{id}');
    assert.is(form.attrs['method'], 'post');
    assert.is(inputValue(form.body, 'nom'), r.nom);
    assert.is(inputValue(form.body, 'prenom'), r.prenom);
    assert.is(inputValue(form.body, 'email'), r.email);
    assert.is(inputValue(form.body, 'telephone'), r.telephone!);
    assert.is(textareaValue(form.body, 'notes'), 'Rappeler mardi');
    assert.ok(isChecked(form.body, 'actif'), 'actif coché');
    const villes = selectOptions(form.body, 'field-ville_id');
    assert.equal(
      villes.filter((o) => o.selected).map((o) => o.value),
      ['1'],
      'Lyon sélectionnée',
    );
    assert.equal(
      villes.map((o) => o.label),
      ['—', 'Lyon', 'Nantes', 'Paris'],
    );
    // A record with actif 0, no ville, no telephone.
    const other = rows.find((x) => x.actif === 0 && x.ville_id === null && x.telephone === null && x.notes === null)!;
    const edit2 = await get(`/contacts/${other.id}/edit`);
    assert.not.ok(isChecked(edit2.text, 'actif'), 'actif décoché');
    assert.equal(
      selectOptions(edit2.text, 'field-ville_id')
        .filter((o) => o.selected)
        .map((o) => o.value),
      [],
    );
    assert.is(inputValue(edit2.text, 'telephone'), '');
    assert.is(inputValue(edit2.text, 'nom'), other.nom);
  });

  // --- create / update ---

  t('create: invalid → 422 with the messages and the values entered; nothing inserted', async () => {
    const count = await dbCount(seeded.app);
    const cases: Array<{ form: Array<[string, string]>; errors: Record<string, string> }> = [
      {
        form: [
          ['nom', ''],
          ['prenom', 'Jean <b>'],
          ['email', 'jean@exemple.fr'],
          ['telephone', '06 11'],
          ['actif', '1'],
          ['notes', 'Une "note" & <i>'],
          ['ville_id', '2'],
        ],
        errors: { nom: MSG.nomRequired },
      },
      {
        form: [
          ['nom', 'Nouveau'],
          ['prenom', 'Jean'],
          ['email', 'pas-une-adresse'],
          ['telephone', ''],
          ['notes', ''],
          ['ville_id', '888'],
        ],
        errors: { email: MSG.emailInvalid },
      },
      {
        form: [
          ['nom', ''],
          ['prenom', 'Jean'],
          ['email', 'x@'],
          ['ville_id', ''],
        ],
        errors: { nom: MSG.nomRequired, email: MSG.emailInvalid },
      },
    ];
    for (const { form, errors } of cases) {
      const res = await seeded.client.post('/contacts', form);
      assert.is(res.status, 422, JSON.stringify(form));
      assertSecurityHeaders(res.headers, '422');
      for (const [field, message] of Object.entries(errors)) assert.is(fieldError(res.text, field), message, `${field} : ${JSON.stringify(form)}`);
      for (const field of ['nom', 'prenom', 'email', 'telephone']) if (!(field in errors)) assert.is(fieldError(res.text, field), undefined, field);
      const entered = new Map(form);
      for (const field of ['nom', 'prenom', 'email', 'telephone'])
        assert.is(inputValue(res.text, field), entered.get(field) ?? '', `valeur de ${field} gardée`);
      if (entered.has('notes')) assert.is(textareaValue(res.text, 'notes'), entered.get('notes'));
      assert.is(isChecked(res.text, 'actif'), entered.get('actif') === '1', 'actif gardé');
      assert.equal(
        selectOptions(res.text, 'field-ville_id')
          .filter((o) => o.selected)
          .map((o) => o.value),
        entered.get('ville_id') ? [entered.get('ville_id')] : [],
      );
    }
    // Entered text is escaped when shown again.
    const escaped = await seeded.client.post('/contacts', cases[0]!.form);
    assert.ok(escaped.text.includes('value="Jean &lt;b&gt;"'), 'prénom échappé');
    assert.not.ok(escaped.text.includes('<b>') || escaped.text.includes('<i>'), 'aucune balise saisie dans la page');
    assert.is(await dbCount(seeded.app), count, 'rien n’est inséré');
  });

  t('create: notes over the 65,535 UTF-8 bytes of their TEXT column → 422 under the field, never 500 from MariaDB', async () => {
    const count = await dbCount(seeded.app);
    const res = await seeded.client.post('/contacts', [
      ['nom', 'Long'],
      ['prenom', 'Texte'],
      ['email', 'long.texte@exemple.fr'],
      ['notes', 'é'.repeat(32_768)],
    ]);
    assert.is(res.status, 422, res.text.slice(0, 300));
    assert.is(fieldError(res.text, 'notes'), 'Le champ « Notes » est trop long : 65\u202f535 octets au plus (une lettre accentuée en compte 2, un emoji 4).');
    assert.is(await dbCount(seeded.app), count, 'rien n’est inséré');
  });

  t('create and update: a duplicate email → 422 with the message under the email field; nothing written', async () => {
    const rows = await dbContacts(seeded.app);
    const count = rows.length;
    const created = await seeded.client.post('/contacts', [
      ['nom', 'Nouveau'],
      ['prenom', 'Jean'],
      ['email', 'c05@exemple.fr'],
      ['actif', '1'],
      ['ville_id', '1'],
    ]);
    assert.is(created.status, 422);
    assertSecurityHeaders(created.headers, '422 doublon');
    assert.is(inputValue(created.text, 'nom'), 'Nouveau');
    assert.is(inputValue(created.text, 'email'), 'c05@exemple.fr');
    assert.ok(isChecked(created.text, 'actif'));
    assert.equal(
      selectOptions(created.text, 'field-ville_id')
        .filter((o) => o.selected)
        .map((o) => o.value),
      ['1'],
    );
    assert.is(await dbCount(seeded.app), count, 'rien n’est inséré');
    const r = rows.find((x) => x.email === 'c12@exemple.fr')!;
    const updated = await seeded.client.post(`/contacts/${r.id}`, [
      ['nom', 'Dupont'],
      ['prenom', 'Paul'],
      ['email', 'c11@exemple.fr'],
    ]);
    assert.is(updated.status, 422);
    assert.is(inputValue(updated.text, 'prenom'), 'Paul');
    assert.is(inputValue(updated.text, 'email'), 'c11@exemple.fr');
    assert.equal(await dbContact(seeded.app, r.id), r, 'ligne inchangée');
    // The message is shown, and on the email field (as the generated UNIQUE_COLUMNS map intends), on both dialects.
    for (const res of [created, updated]) {
      assert.ok(res.text.includes(MSG.duplicate), 'message de doublon affiché');
      assert.is(fieldError(res.text, 'email'), MSG.duplicate, 'message sous le champ email');
    }
  });

  t('create: success → 302 to /contacts, the flash on the next page only, the row stored', async () => {
    const count = await dbCount(seeded.app);
    const res = await seeded.client.post('/contacts', [
      ['nom', 'Nouveau'],
      ['prenom', 'Jean'],
      ['email', 'jean.nouveau@exemple.fr'],
      ['telephone', '06 12 34 56 78'],
      ['actif', '1'],
      ['notes', 'Cree par HTTP'],
      ['ville_id', '2'],
    ]);
    assert.is(res.status, 302);
    assert.is(res.headers.get('location'), '/contacts');
    assertSecurityHeaders(res.headers, '302');
    assert.is(await dbCount(seeded.app), count + 1);
    const stored = (await dbContacts(seeded.app)).find((r) => r.email === 'jean.nouveau@exemple.fr')!;
    assert.equal(
      { ...stored, id: 0 },
      { id: 0, nom: 'Nouveau', prenom: 'Jean', email: 'jean.nouveau@exemple.fr', telephone: '06 12 34 56 78', actif: 1, notes: 'Cree par HTTP', ville_id: 2 },
    );
    const next = await get('/contacts');
    assert.ok(next.text.includes(`>${FLASH.created}</div>`), 'flash affiché');
    assert.is(rowIds(next.text)[0], stored.id, 'la nouvelle ligne est en tête (id DESC)');
    assert.not.ok((await get('/contacts')).text.includes(FLASH.created), 'flash consommé');
  });

  t('update: invalid → 422 and row unchanged; success → 302, flash, row changed', async () => {
    const rows = await dbContacts(seeded.app);
    const r = rows.find((x) => x.email === 'c10@exemple.fr')!;
    const before = { ...r };
    for (const [form, field, message] of [
      [
        [
          ['nom', '  '],
          ['prenom', 'Paul'],
          ['email', r.email],
        ],
        'nom',
        MSG.nomRequired,
      ],
      [
        [
          ['nom', 'Dupont'],
          ['prenom', 'Paul'],
          ['email', 'faux@'],
        ],
        'email',
        MSG.emailInvalid,
      ],
    ] as Array<[Array<[string, string]>, string, string]>) {
      const res = await seeded.client.post(`/contacts/${r.id}`, form);
      assert.is(res.status, 422, JSON.stringify(form));
      assertSecurityHeaders(res.headers, '422 modification');
      assert.is(fieldError(res.text, field), message);
      assert.is(inputValue(res.text, 'prenom'), 'Paul', 'valeur saisie, pas celle de la base');
      assert.is(inputValue(res.text, 'email'), new Map(form).get('email'));
      assert.ok(
        forms(res.text).some((f) => f.attrs['action'] === `/contacts/${r.id}`),
        'le formulaire renvoie vers la même fiche',
      );
      assert.equal(await dbContact(seeded.app, r.id), before, 'ligne inchangée');
    }
    // Keeping its own email is not a duplicate; actif unchecked becomes 0; the ville changes.
    const ok = await seeded.client.post(`/contacts/${r.id}`, [
      ['nom', 'Dupont'],
      ['prenom', 'Paul'],
      ['email', r.email],
      ['telephone', '07 00 00 00 00'],
      ['notes', 'Modifie'],
      ['ville_id', '888'],
    ]);
    assert.is(ok.status, 302);
    assert.is(ok.headers.get('location'), '/contacts');
    assertSecurityHeaders(ok.headers, '302 modification');
    assert.equal(await dbContact(seeded.app, r.id), {
      id: r.id,
      nom: 'Dupont',
      prenom: 'Paul',
      email: r.email,
      telephone: '07 00 00 00 00',
      actif: 0,
      notes: 'Modifie',
      ville_id: 888,
    });
    assert.ok((await get('/contacts')).text.includes(`>${FLASH.updated}</div>`));
    const again = await seeded.client.post(`/contacts/${r.id}`, [
      ['nom', 'Dupont'],
      ['prenom', 'Paul'],
      ['email', 'paul.dupont@exemple.fr'],
      ['actif', '1'],
      ['ville_id', '1'],
    ]);
    assert.is(again.status, 302);
    const after = (await dbContact(seeded.app, r.id))!;
    assert.is(after.email, 'paul.dupont@exemple.fr');
    assert.is(after.actif, 1);
    assert.is(after.ville_id, 1);
    assert.is(await dbCount(seeded.app), rows.length, 'pas de ligne en plus');
  });

  // --- delete ---

  t('delete without HX-Request: 302 back to the list with q, filters, sort and page; flash', async () => {
    const state = '/contacts?q=exemple&actif=1&sort=email&direction=asc&page=2';
    const page = await get(state);
    const form = forms(page.text).find((f) => /^\/contacts\/\d+\/delete$/.test(f.attrs['action'] ?? ''))!;
    const id = Number(/(\d+)\/delete$/.exec(form.attrs['action']!)![1]);
    const count = await dbCount(seeded.app);
    const res = await seeded.client.post(form.attrs['action']!, hiddenFields(form));
    assert.is(res.status, 302);
    assertSecurityHeaders(res.headers, '302 suppression');
    const { path, params } = parseLink(res.headers.get('location')!);
    assert.is(path, '/contacts');
    assert.equal(Object.fromEntries(params), { actif: '1', direction: 'asc', page: '2', q: 'exemple', sort: 'email' });
    assert.is(await dbCount(seeded.app), count - 1);
    assert.is(await dbContact(seeded.app, id), undefined);
    const back = await get(res.headers.get('location')!);
    assert.is(back.status, 200);
    assert.ok(back.text.includes(`>${FLASH.deleted}</div>`));
    assert.match(back.text, /<span aria-current="page"[^>]*>2<\/span>/);
    // Without any state: back to /contacts.
    const plain = await seeded.client.post(`/contacts/${rowIds((await get('/contacts')).text)[5]}/delete`);
    assert.is(plain.status, 302);
    assert.is(plain.headers.get('location'), '/contacts');
    assert.is(await dbCount(seeded.app), count - 2);
  });

  t('delete with HX-Request: the list fragment with the posted q, filters, sort and page, and the flash', async () => {
    const state = '/contacts?q=exemple&actif=1&sort=email&direction=asc&page=2';
    const page = await get(state, HX);
    const deleteForms = forms(page.text).filter((f) => /^\/contacts\/\d+\/delete$/.test(f.attrs['action'] ?? ''));
    const form = deleteForms[1]!;
    const id = Number(/(\d+)\/delete$/.exec(form.attrs['action']!)![1]);
    const count = await dbCount(seeded.app);
    const res = await seeded.client.post(form.attrs['hx-post']!, hiddenFields(form), HX);
    assert.is(res.status, 200);
    assertSecurityHeaders(res.headers, 'fragment après suppression');
    assert.not.match(res.text, /<html\b|<!DOCTYPE/i);
    assert.ok(res.text.includes(`>${FLASH.deleted}</div>`), 'flash dans le fragment');
    assert.is(await dbCount(seeded.app), count - 1);
    assert.is(await dbContact(seeded.app, id), undefined);
    assert.not.ok(rowIds(res.text).includes(id));
    assert.match(res.text, /<span aria-current="page"[^>]*>2<\/span>/, 'toujours la page 2');
    // The same rows as the list in that state, now.
    const expected = await get(state, HX);
    assert.equal(rowIds(res.text), rowIds(expected.text));
    assert.not.ok(expected.text.includes(FLASH.deleted), 'le flash n’est montré qu’une fois');
    for (const f of forms(res.text).filter((x) => /\/delete$/.test(x.attrs['action'] ?? ''))) {
      assert.equal(Object.fromEntries(hiddenFields(f).filter(([n]) => n !== 'csrf_token')), {
        actif: '1',
        direction: 'asc',
        page: '2',
        q: 'exemple',
        sort: 'email',
      });
    }
    // A search with no result left: the empty state with the search context.
    const lone = (await dbContacts(seeded.app)).find((r) => r.nom === 'Hourra!')!;
    const emptied = await seeded.client.post(`/contacts/${lone.id}/delete`, [['q', 'Hourra']], HX);
    assert.is(emptied.status, 200);
    assert.equal(emptyState(emptied.text), { context: 'search', message: EMPTY.search });
  });

  t('delete from the detail page: a POST form with its token; htmx confirms it (hx-post, hx-confirm) and is sent to the list', async () => {
    const id = rowIds((await get('/contacts')).text)[2]!;
    const show = await get(`/contacts/${id}`);
    const form = forms(show.text).find((f) => f.attrs['action'] === `/contacts/${id}/delete`)!;
    assert.ok(form, 'formulaire de suppression sur la fiche');
    assert.is(form.attrs['method'], 'post');
    assert.equal(
      Object.fromEntries(hxAttrs(form).map((name) => [name, form.attrs[name]])),
      { 'hx-post': `/contacts/${id}/delete`, 'hx-confirm': CONFIRM_DELETE },
      'hx-post (so that htmx asks hx-confirm), no target, no pushed URL',
    );
    assert.is(form.attrs['id'], 'crud-delete');
    assert.is(new Map(hiddenFields(form)).get('csrf_token'), await seeded.client.csrfToken());
    // What htmx sends (HX-Target: the form itself): deleted, and a full load of the list where the flash shows.
    const count = await dbCount(seeded.app);
    const res = await seeded.client.post(form.attrs['hx-post']!, hiddenFields(form), { ...HX, 'HX-Target': 'crud-delete', 'HX-Trigger': 'crud-delete' });
    assert.is(res.status, 200);
    assert.is(res.headers.get('hx-redirect'), '/contacts');
    assert.is(res.text, '');
    assertSecurityHeaders(res.headers, 'HX-Redirect');
    assert.is(await dbCount(seeded.app), count - 1);
    assert.is(await dbContact(seeded.app, id), undefined);
    assert.ok((await get('/contacts')).text.includes(`>${FLASH.deleted}</div>`));
    // Without the script: the POST form, a redirect to the list.
    const other = rowIds((await get('/contacts')).text)[2]!;
    const plain = await seeded.client.post(`/contacts/${other}/delete`);
    assert.is(plain.status, 302);
    assert.is(plain.headers.get('location'), '/contacts');
  });

  t('delete: without or with a wrong CSRF token → 403 and nothing deleted; unknown id → 404', async () => {
    const id = rowIds((await get('/contacts')).text)[0]!;
    const count = await dbCount(seeded.app);
    const noToken = await seeded.client.request('POST', `/contacts/${id}/delete`, { form: [['q', 'x']] });
    assert.is(noToken.status, 403);
    assertSecurityHeaders(noToken.headers, '403');
    const badToken = await seeded.client.request('POST', `/contacts/${id}/delete`, { form: [['csrf_token', 'f'.repeat(64)]], headers: HX });
    assert.is(badToken.status, 403);
    const otherSession = await new HttpClient(seeded.app.url).request('POST', `/contacts/${id}/delete`, {
      form: [['csrf_token', await seeded.client.csrfToken()]],
    });
    assert.is(otherSession.status, 403, 'le jeton d’une autre session est refusé');
    for (const url of ['/contacts/bulk-delete', '/contacts/bulk-delete/confirm', '/contacts', `/contacts/${id}`]) {
      assert.is(
        (
          await seeded.client.request('POST', url, {
            form: [
              ['ids', String(id)],
              ['nom', 'X'],
              ['prenom', 'Y'],
              ['email', 'csrf@exemple.fr'],
            ],
          })
        ).status,
        403,
        url,
      );
    }
    assert.is(await dbCount(seeded.app), count);
    assert.ok(await dbContact(seeded.app, id));
    assert.is((await seeded.client.post('/contacts/999999/delete')).status, 404);
    assert.is(await dbCount(seeded.app), count);
  });

  // --- bulk delete ---

  t('bulk delete: scalar or repeated ids, junk dropped, duplicates removed; the confirmation page lists them', async () => {
    const rows = await dbContacts(seeded.app);
    const [a, b] = [rows[3]!, rows[4]!];
    const count = await dbCount(seeded.app);
    const res = await seeded.client.post('/contacts/bulk-delete', [
      ['ids', String(b.id)],
      ['ids', 'x'],
      ['ids', '0'],
      ['ids', '-2'],
      ['ids', '1.5'],
      ['ids', ''],
      ['ids', String(a.id)],
      ['ids', String(b.id)],
      ['ids', ` ${a.id}`],
    ]);
    assert.is(res.status, 200);
    assert.match(res.text, /<html\b/);
    assert.ok(res.text.includes('Confirmer la suppression'));
    const items = [...res.text.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => decode(m[1]!));
    assert.equal(items, [`#${a.id} ${a.nom}`, `#${b.id} ${b.nom}`]);
    const confirm = forms(res.text).find((f) => f.attrs['action'] === '/contacts/bulk-delete/confirm')!;
    assert.ok(confirm, 'formulaire de confirmation');
    assert.is(confirm.attrs['method'], 'post');
    assert.equal(hxAttrs(confirm), []);
    assert.is(new Map(hiddenFields(confirm)).get('csrf_token'), await seeded.client.csrfToken());
    assert.equal(
      hiddenFields(confirm)
        .filter(([n]) => n === 'ids')
        .map(([, v]) => Number(v)),
      [a.id, b.id],
      'les ids, sans doublon ni rebut',
    );
    assert.is(await dbCount(seeded.app), count, 'rien n’est supprimé avant la confirmation');
    // A scalar.
    const one = await seeded.client.post('/contacts/bulk-delete', [['ids', String(a.id)]]);
    assert.is(one.status, 200);
    assert.equal(
      [...one.text.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => decode(m[1]!)),
      [`#${a.id} ${a.nom}`],
    );
    // Unknown ids are not listed.
    const unknown = await seeded.client.post('/contacts/bulk-delete', [
      ['ids', '999999'],
      ['ids', String(b.id)],
    ]);
    assert.equal(
      hiddenFields(forms(unknown.text).find((f) => f.attrs['action'] === '/contacts/bulk-delete/confirm')!)
        .filter(([n]) => n === 'ids')
        .map(([, v]) => Number(v)),
      [b.id],
    );
    assert.is(await dbCount(seeded.app), count);
  });

  t('bulk delete: nothing usable → 302 at once, nothing deleted; confirm deletes exactly those ids', async () => {
    const count = await dbCount(seeded.app);
    for (const form of [
      [],
      [['ids', '']],
      [
        ['ids', 'x'],
        ['ids', '0'],
        ['ids', '-2'],
        ['ids', '1.5'],
      ],
    ] as Array<Array<[string, string]>>) {
      for (const url of ['/contacts/bulk-delete', '/contacts/bulk-delete/confirm']) {
        const res = await seeded.client.post(url, form);
        assert.is(res.status, 302, `${url} ${JSON.stringify(form)}`);
        assert.is(res.headers.get('location'), '/contacts');
        assertSecurityHeaders(res.headers, '302 sélection vide');
      }
    }
    assert.is(await dbCount(seeded.app), count);
    assert.ok((await get('/contacts')).text.includes(FLASH.noneSelected));

    // Through the page: two checkboxes of the list, the confirmation page, its form.
    const ids = rowIds((await get('/contacts?sort=email&direction=asc')).text).slice(2, 5);
    const page = await seeded.client.post('/contacts/bulk-delete', [
      ...ids.map((id) => ['ids', String(id)] as [string, string]),
      ['ids', String(ids[0])],
      ['ids', 'junk'],
    ]);
    const confirm = forms(page.text).find((f) => f.attrs['action'] === '/contacts/bulk-delete/confirm')!;
    const before = await dbContacts(seeded.app);
    const res = await seeded.client.post(confirm.attrs['action']!, hiddenFields(confirm));
    assert.is(res.status, 302);
    assert.is(res.headers.get('location'), '/contacts');
    assertSecurityHeaders(res.headers, '302 suppression groupée');
    const after = await dbContacts(seeded.app);
    assert.is(after.length, before.length - 3, 'exactement trois lignes supprimées');
    assert.equal(
      after.map((r) => r.id),
      before.map((r) => r.id).filter((id) => !ids.includes(id)),
    );
    assert.ok((await get('/contacts')).text.includes(`>${FLASH.bulkDeleted(3)}</div>`), 'flash : une phrase avec le nombre');
    // Confirm with repeated, junk and unknown ids.
    const [x, y] = [after[0]!.id, after[1]!.id];
    const direct = await seeded.client.post('/contacts/bulk-delete/confirm', [
      ['ids', String(x)],
      ['ids', String(x)],
      ['ids', '-1'],
      ['ids', String(y)],
      ['ids', '999999'],
    ]);
    assert.is(direct.status, 302);
    assert.equal(
      (await dbContacts(seeded.app)).map((r) => r.id),
      after.map((r) => r.id).filter((id) => id !== x && id !== y),
    );
  });

  t.run();
}

for (const dialect of DIALECTS) crudSuite(dialect);
