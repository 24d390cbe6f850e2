// The cap on the ids of a bulk delete (docs/crud.md "Bulk delete"), over HTTP on the generated Contacts pages, on
// SQLite and on MariaDB (one body, run twice): 40,000 ids answer 413 naming the limit and delete nothing (SQLite
// used to answer 500, too many SQL variables); 1,000 ids still work.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DialectName } from '../runtime/db/index.js';
import { assertSecurityHeaders } from './helpers/client.js';
import { forms, hiddenFields } from './helpers/crud-html.js';
import { FLASH, dbContacts, seededApp } from './helpers/crud-seed.js';
import { DIALECTS } from './helpers/dialects.js';

const TOO_MANY = "Trop d'identifiants : 40000 reçus, 1000 au plus.";
const JSON_ACCEPT = { Accept: 'application/json' };

/** `ids` fields: the given ids first, then unknown ids up to `count`. */
function idsForm(known: readonly number[], count: number): Array<[string, string]> {
  const fields = known.map((id) => ['ids', String(id)] as [string, string]);
  for (let id = 1_000_000; fields.length < count; id++) fields.push(['ids', String(id)]);
  return fields;
}

function limitsSuite(dialect: DialectName): void {
  const t = suite(`crud-http-bulk-limits: ${dialect}`);
  // The form-field cap (max_form_fields, 1,000 by default: docs/runtime.md) would refuse these bodies first, with its
  // own 413 (http-routing-forms.test.ts): raised here so that the ids cap itself is what answers. Registered before the
  // app's hook, which starts the server with this environment.
  const previous = process.env['MAX_FORM_FIELDS'];
  t.before(() => {
    process.env['MAX_FORM_FIELDS'] = '100000';
  });
  t.after(() => {
    if (previous === undefined) delete process.env['MAX_FORM_FIELDS'];
    else process.env['MAX_FORM_FIELDS'] = previous;
  });
  const seeded = seededApp(t, dialect);

  t('40,000 ids: 413 with « Trop d’identifiants : 40000 reçus, 1000 au plus. » (page and JSON), nothing deleted', async () => {
    const before = await dbContacts(seeded.app);
    const form = idsForm(
      before.map((r) => r.id),
      40_000,
    );
    for (const url of ['/contacts/bulk-delete', '/contacts/bulk-delete/confirm']) {
      const page = await seeded.client.post(url, form);
      assert.is(page.status, 413, `${url} : ${page.text.slice(0, 300)}`);
      assert.match(page.text, 'Contenu trop volumineux');
      assert.ok(
        page.text.includes('<p class="mt-2 text-sm text-gray-700" id="error-detail">Trop d&#39;identifiants : 40000 reçus, 1000 au plus.</p>'),
        page.text,
      );
      assertSecurityHeaders(page.headers, `413 ${url}`);
      const api = await seeded.client.post(url, form, JSON_ACCEPT);
      assert.is(api.status, 413, url);
      assert.equal(JSON.parse(api.text), { success: false, error: { code: 'too_many_ids', message: TOO_MANY } }, url);
    }
    assert.equal(
      (await dbContacts(seeded.app)).map((r) => r.id),
      before.map((r) => r.id),
      'nothing deleted',
    );
    assert.not.match(seeded.app.output(), /Erreur non gérée/);
  });

  t('1,000 ids: the confirmation page lists the known ones, the confirmation deletes them', async () => {
    const before = await dbContacts(seeded.app);
    const chosen = before.slice(0, 5).map((r) => r.id);
    const form = idsForm(chosen, 1000);
    assert.is(form.length, 1000);
    const page = await seeded.client.post('/contacts/bulk-delete', form);
    assert.is(page.status, 200, page.text.slice(0, 300));
    const confirm = forms(page.text).find((f) => f.attrs['action'] === '/contacts/bulk-delete/confirm')!;
    assert.equal(
      hiddenFields(confirm)
        .filter(([n]) => n === 'ids')
        .map(([, v]) => Number(v)),
      chosen,
    );
    const res = await seeded.client.post('/contacts/bulk-delete/confirm', form);
    assert.is(res.status, 302);
    assert.is(res.headers.get('location'), '/contacts');
    assert.equal(
      (await dbContacts(seeded.app)).map((r) => r.id),
      before.map((r) => r.id).filter((id) => !chosen.includes(id)),
    );
    assert.ok((await seeded.get('/contacts')).text.includes(`>${FLASH.bulkDeleted(5)}</div>`));
  });

  t.run();
}

for (const dialect of DIALECTS) limitsSuite(dialect);
