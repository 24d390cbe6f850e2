// The generated Contacts list served for real (test/helpers/crud-app.ts) on SQLite and on MariaDB, with two routes
// of the project's own that write by hand through the Database API (`getDatabase().execute`, `transaction`): the
// total the page shows follows them at once, not after the count's window (docs/crud.md "What a list page costs");
// and pages read keys first (past KEYS_FIRST_OFFSET, a sort no index orders) show the rows and labels the plain
// query gives.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { KEYS_FIRST_OFFSET } from '../runtime/crud/index.js';
import type { DialectName } from '../runtime/db/index.js';
import { rowIds } from './helpers/crud-html.js';
import { HttpClient, buildCrudApp, serveProject } from './helpers/crud-app.js';
import type { CliProject } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

/** The project's routes that write by hand, as a user would add them to mvc/routes.ts. */
const HAND_WRITTEN = `import { Response, getDatabase, transaction, type Request } from 'fw-mvc';

/** One contact inserted with hand-written SQL through the Database API. */
export async function insertOne(request: Request): Promise<Response> {
  const n = request.field('n') ?? '0';
  await getDatabase().execute('INSERT INTO contacts (Nom, Prenom, Email, Actif) VALUES (?, ?, ?, 1)', ['Main' + n, 'Hand', 'hand' + n + '@exemple.fr']);
  return new Response(200, 'ok', 'text/plain; charset=utf-8');
}

/** The hand-written contacts deleted in a transaction. */
export async function deleteHandWritten(): Promise<Response> {
  const deleted = await transaction((tx) => tx.execute("DELETE FROM contacts WHERE Prenom = 'Hand'"));
  return new Response(200, String(deleted), 'text/plain; charset=utf-8');
}
`;

const SEEDED = KEYS_FIRST_OFFSET + 30;
const PER_PAGE = 20;

/** The number the page shows as its total (`id="crud-total"`). */
function shownTotal(html: string): number {
  const match = /id="crud-total"[^>]*>\s*([\d\s\u00a0\u202f,.]+)/.exec(html);
  assert.ok(match, 'le total affiché');
  return Number(match[1]!.replace(/[^\d]/g, ''));
}

function withHandRoutes(project: CliProject): void {
  project.write('mvc/hand_written.ts', HAND_WRITTEN);
  const routes = project
    .read('mvc/routes.ts')
    .replace(/^(export function registerRoutes\(router: Router\): void \{)$/m, "import { deleteHandWritten, insertOne } from './hand_written.js';\n\n$1")
    .replace(
      /^(export function registerRoutes\(router: Router\): void \{)$/m,
      "$1\n  router.add('POST', '/hand/insert', insertOne, { name: 'hand.insert', public: true });\n  router.add('POST', '/hand/delete', deleteHandWritten, { name: 'hand.delete', public: true });",
    );
  assert.ok(routes.includes("'/hand/insert'"), 'les routes ajoutées à mvc/routes.ts');
  project.write('mvc/routes.ts', routes);
}

function crudSuite(dialect: DialectName): void {
  const t = suite(`crud-http-list-writes: ${dialect}`);
  let project: CliProject | undefined;
  let stop: (() => Promise<void>) | undefined;
  let client: HttpClient;
  /** Every contact in the list's default order (key descending) with its ville's name, read without fw's list code. */
  let expected: Array<{ id: number; nom: string; prenom: string; ville: string | null }>;

  t.before(async () => {
    project = buildCrudApp(dialect);
    withHandRoutes(project);
    // Enough contacts for pages past KEYS_FIRST_OFFSET; written as another process would, before the server starts.
    const villes = Array.from({ length: 5 }, (_, i) => `('Ville ${i + 1}')`).join(', ');
    const contacts: string[] = [];
    for (let n = 1; n <= SEEDED; n++) {
      const ville = n % 6 === 0 ? 'NULL' : String((n % 5) + 1);
      contacts.push(`('Nom${n % 40}', 'Prenom${n}', 'c${n}@exemple.fr', ${n % 2}, ${ville})`);
    }
    await project.sql([`INSERT INTO villes (Nom) VALUES ${villes}`, `INSERT INTO contacts (Nom, Prenom, Email, Actif, VilleId) VALUES ${contacts.join(', ')}`]);
    const db = project.open();
    try {
      const rows = await db.fetchAll<Record<string, unknown>>(
        'SELECT c.Id, c.Nom, c.Prenom, v.Nom AS Ville FROM contacts c LEFT JOIN villes v ON v.Id = c.VilleId ORDER BY c.Id DESC',
      );
      expected = rows.map((r) => ({
        id: Number(r['Id']),
        nom: String(r['Nom']),
        prenom: String(r['Prenom']),
        ville: r['Ville'] === null ? null : String(r['Ville']),
      }));
    } finally {
      await db.close();
    }
    const served = await serveProject(project);
    client = new HttpClient(served.url);
    stop = async () => {
      if (served.child.exitCode === null) {
        const exited = new Promise((resolve) => served.child.once('exit', resolve));
        served.child.kill('SIGTERM');
        await exited;
      }
    };
  });
  t.after(async () => {
    await stop?.();
    await project?.cleanup();
  });

  t('a hand-written insert and a transaction through the Database API: the total shown follows at once', async () => {
    const first = await client.get('/contacts');
    assert.is(first.status, 200);
    assert.is(shownTotal(first.text), SEEDED);
    // The count is now kept for its window; page 1 stays full whatever the total, so its rows cannot contradict it.
    for (const n of [1, 2]) {
      const inserted = await client.post('/hand/insert', [['n', String(n)]]);
      assert.is(inserted.status, 200, `${inserted.headers.get('location')} ${inserted.text.slice(0, 300)}`);
      assert.is(shownTotal((await client.get('/contacts')).text), SEEDED + n, `après l'insertion n° ${n}`);
    }
    const deleted = await client.post('/hand/delete');
    assert.is(deleted.text, '2');
    assert.is(shownTotal((await client.get('/contacts')).text), SEEDED, 'après la transaction');
  });

  t('far pages (keys first) and the last page: the rows of the plain query, in its order, with their villes', async () => {
    const pages = Math.ceil(SEEDED / PER_PAGE);
    const from = Math.floor(KEYS_FIRST_OFFSET / PER_PAGE) + 1;
    for (const page of [from - 1, from, pages, pages + 3]) {
      const res = await client.get(`/contacts?page=${page}`);
      assert.is(res.status, 200);
      const shown = Math.min(page, pages);
      const rows = expected.slice((shown - 1) * PER_PAGE, shown * PER_PAGE);
      assert.equal(
        rowIds(res.text),
        rows.map((r) => r.id),
        `page ${page}`,
      );
      for (const row of rows) if (row.ville) assert.ok(res.text.includes(row.ville), `page ${page} : ${row.ville}`);
    }
  });

  t('sorts on Prenom (no index) and Nom (40 values: ties), first, far and last pages: the order of the plain query', async () => {
    const pages = Math.ceil(SEEDED / PER_PAGE);
    for (const [sort, value] of [
      ['prenom', (r: (typeof expected)[number]) => r.prenom],
      ['nom', (r: (typeof expected)[number]) => r.nom],
    ] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const sign = direction === 'asc' ? 1 : -1;
        // ASCII with one case: the binary order is utf8mb4_unicode_ci's and fw_sort_key's; the key breaks ties.
        const order = [...expected].sort((a, b) => sign * (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : a.id - b.id));
        for (const page of [1, 2, Math.floor(KEYS_FIRST_OFFSET / PER_PAGE) + 1, pages]) {
          const ids = rowIds((await client.get(`/contacts?sort=${sort}&direction=${direction}&page=${page}`)).text);
          assert.equal(
            ids,
            order.slice((page - 1) * PER_PAGE, page * PER_PAGE).map((r) => r.id),
            `${sort} ${direction}, page ${page}`,
          );
        }
      }
    }
  });

  t.run();
}

for (const dialect of DIALECTS) crudSuite(dialect);
