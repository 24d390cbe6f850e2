/**
 * The operators' page of fw-mvc/jobs (docs/jobs.md "The operators' page") over HTTP on a real server, on SQLite and
 * on MariaDB: the login redirect and the 403, the counts per queue and state, the failed and dead jobs with their
 * last error, the CRUD list's search, filters and pages, retry and discard by id and by filter, the CSRF refusal, and
 * its menu entry, shown only to the users its role check lets in (docs/runtime.md "The menu").
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAuthRoutes } from '../runtime/auth/index.js';
import { hashPassword } from '../runtime/auth/passwords.js';
import { addUserRole, createRole, createUser } from '../runtime/auth/users.js';
import { closeDatabase, getDatabase } from '../runtime/db/index.js';
import type { Router } from '../runtime/index.js';
import { defineJob, JobWorker, jobsTablesStatements, registerJobsPage } from '../runtime/jobs/index.js';
import { emitAppLayout } from '../emitters/crud/views-record.js';
import { openAuthDatabase, SessionClient, type AuthDatabase } from './helpers/auth-client.js';
import { DIALECTS } from './helpers/dialects.js';
import { startApp, type TestApp } from './helpers/server.js';

const PASSWORD = 'correct horse battery';
const ERROR = 'SMTP injoignable : délai dépassé <après 3 s>';

const boom = defineJob<{ n: number }>(
  'page.boom',
  () => {
    throw new Error(ERROR);
  },
  { attempts: 1 },
);
const flaky = defineJob<{ n: number }>(
  'page.flaky',
  () => {
    throw new Error('réponse 502');
  },
  { attempts: 3 },
);
const ok = defineJob<{ n: number }>('page.ok', () => undefined, { queue: 'mails' });

function routes(router: Router): void {
  registerAuthRoutes(router);
  registerJobsPage(router, { roles: ['admin'], perPage: 10 });
  // A public entry, then the operators' page: the menu shows the second only to the admins.
  router.menu('/login', 'Connexion');
  router.menu('/admin/jobs', 'Tâches');
}

/** The hrefs of the header's nav, in order. */
function navLinks(html: string): string[] {
  const nav = /<nav aria-label="[^"]*"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]!);
}

/** The ids of the jobs the page's table lists, in order. */
function listed(html: string): number[] {
  return [...html.matchAll(/data-job="(\d+)"/g)].map((match) => Number(match[1]));
}

/** The count the summary shows for `queue` and `state`. */
function summaryCount(html: string, queue: string, state: string): number {
  const row = new RegExp(`<tr data-queue="${queue}">([\\s\\S]*?)</tr>`).exec(html);
  if (!row) return 0;
  const cell = new RegExp(`data-state="${state}">(?:<a [^>]*>)?(?:<span [^>]*>)?(\\d+)`).exec(row[1]!);
  return Number(cell?.[1] ?? -1);
}

async function statusOf(id: number): Promise<string | null> {
  const row = await getDatabase().fetchOne<{ status: string }>('SELECT status FROM fw_jobs WHERE id = ?', [id]);
  return row?.status ?? null;
}

for (const dialect of DIALECTS) {
  const test = suite<{ app: TestApp; data: AuthDatabase; dead: number[]; failed: number; running: number; scheduled: number }>(
    `jobs page over HTTP (${dialect})`,
  );

  test.before(async (context) => {
    context.data = await openAuthDatabase(dialect, 'fw_jobs_page');
    for (const statement of jobsTablesStatements(dialect)) await context.data.db.execute(statement);
    context.app = await startApp({
      routes,
      files: { 'mvc/views/layouts/app.html': emitAppLayout() },
      config: { ...context.data.config, jobs_in_serve: false },
    });
  });

  test.before.each(async (context) => {
    await context.data.reset();
    await getDatabase().execute('DELETE FROM fw_jobs');
    const adminId = await createUser({ email: 'admin@example.test', passwordHash: await hashPassword(PASSWORD) });
    await createUser({ email: 'lecteur@example.test', passwordHash: await hashPassword(PASSWORD) });
    await createRole('admin', context.data.db);
    await addUserRole(adminId, 'admin', context.data.db);
    // Three dead jobs and one failed one, made by a worker; then waiting jobs, a scheduled one and a running one.
    const dead = [];
    for (let n = 0; n < 3; n++) dead.push((await boom.enqueue({ n })).id);
    const failed = (await flaky.enqueue({ n: 0 })).id;
    assert.is(await new JobWorker({ queues: { default: 2 } }).runOnce(), 4);
    for (let n = 0; n < 12; n++) await ok.enqueue({ n });
    const scheduled = (await ok.enqueue({ n: 99 }, { delayMs: 3_600_000 })).id;
    const running = (await ok.enqueue({ n: 100 })).id;
    await getDatabase().execute("UPDATE fw_jobs SET status = 'running', locked_by = 'ailleurs', locked_until = run_at WHERE id = ?", [running]);
    Object.assign(context, { dead, failed, running, scheduled });
  });

  test.after(async ({ app, data }) => {
    await closeDatabase();
    await app.close();
    await data.close();
  });

  async function admin(app: TestApp): Promise<SessionClient> {
    const client = new SessionClient(app.base);
    assert.is((await client.login('admin@example.test', PASSWORD)).status, 302);
    return client;
  }

  test('anonymous: the login page; a signed-in user without the role: 403, and nothing changes', async ({ app, dead }) => {
    const anonymous = new SessionClient(app.base);
    const page = await anonymous.get('/admin/jobs?state=dead');
    assert.is(page.status, 302);
    assert.is(page.headers.get('location'), '/login?next=%2Fadmin%2Fjobs%3Fstate%3Ddead');
    const post = await anonymous.post(`/admin/jobs/${dead[0]}/retry`);
    assert.is.not(post.status, 200);
    const reader = new SessionClient(app.base);
    assert.is((await reader.login('lecteur@example.test', PASSWORD)).status, 302);
    assert.is((await reader.get('/admin/jobs')).status, 403);
    const refused = await reader.post(`/admin/jobs/${dead[0]}/retry`, [], '/');
    assert.is(refused.status, 403);
    assert.is((await reader.post('/admin/jobs/discard', [], '/')).status, 403);
    assert.is(await statusOf(dead[0]!), 'dead');
    assert.is(Number((await getDatabase().fetchOne<{ n: number }>('SELECT COUNT(*) AS n FROM fw_jobs'))!.n), 18);
  });

  test('the menu entry of the page: hidden from a visitor and from a user without the role, shown to an admin', async ({ app }) => {
    const anonymous = await new SessionClient(app.base).get('/login');
    assert.is(anonymous.status, 200);
    assert.equal(navLinks(anonymous.text), ['/login'], 'a visitor');
    const reader = new SessionClient(app.base);
    assert.is((await reader.login('lecteur@example.test', PASSWORD)).status, 302);
    const refused = await reader.get('/admin/jobs');
    assert.is(refused.status, 403);
    assert.equal(navLinks(refused.text), ['/login'], 'a user without the role');
    const page = await (await admin(app)).get('/admin/jobs');
    assert.is(page.status, 200);
    assert.equal(navLinks(page.text), ['/login', '/admin/jobs'], 'an admin');
    assert.match(page.text, '<a href="/admin/jobs" class="font-semibold text-gray-900" aria-current="page">Tâches</a>');
  });

  test('the counts per queue and state, the dead and failed jobs with their last error, the pages', async ({ app, dead, failed }) => {
    const client = await admin(app);
    const page = await client.get('/admin/jobs');
    assert.is(page.status, 200);
    assert.match(page.text, 'Tâches de fond');
    assert.match(page.text, 'id="current-user">admin@example.test', 'in the application layout');
    assert.equal(
      ['queued', 'running', 'scheduled', 'failed', 'dead'].map((state) => summaryCount(page.text, 'default', state)),
      [0, 0, 0, 1, 3],
    );
    assert.equal(
      ['queued', 'running', 'scheduled', 'failed', 'dead'].map((state) => summaryCount(page.text, 'mails', state)),
      [12, 1, 1, 0, 0],
    );
    assert.match(page.text, '18 tâche(s)');
    assert.is(listed(page.text).length, 10);
    const last = await client.get('/admin/jobs?page=2');
    assert.is(listed(last.text).length, 8);
    assert.equal(listed(last.text).slice(-4), [failed, dead[2], dead[1], dead[0]]);
    assert.match(last.text, 'SMTP injoignable : délai dépassé &lt;après 3 s&gt;', 'the last error, escaped');
    assert.match(last.text, 'réponse 502');
    assert.match(last.text, 'aria-current="page"');
  });

  test('filters and search: by state, by queue, by name, by the text of the error', async ({ app, dead, failed, scheduled, running }) => {
    const client = await admin(app);
    assert.equal(listed((await client.get('/admin/jobs?state=dead')).text), [...dead].reverse());
    assert.equal(listed((await client.get('/admin/jobs?state=failed')).text), [failed]);
    assert.equal(listed((await client.get('/admin/jobs?state=scheduled')).text), [scheduled]);
    assert.equal(listed((await client.get('/admin/jobs?state=running&queue=mails')).text), [running]);
    assert.equal(listed((await client.get('/admin/jobs?queue=default&name=page.flaky')).text), [failed]);
    assert.equal(listed((await client.get(`/admin/jobs?q=${encodeURIComponent('injoignable')}`)).text), [...dead].reverse());
    const none = await client.get('/admin/jobs?state=dead&queue=mails');
    assert.equal(listed(none.text), []);
    assert.match(none.text, 'Aucun résultat pour ces filtres.');
    const sorted = await client.get('/admin/jobs?state=dead&sort=id&direction=asc');
    assert.equal(listed(sorted.text), dead);
    // A partial update (htmx): the counts and the rows, without the layout.
    const partial = await client.get('/admin/jobs?state=dead', { 'HX-Request': 'true' });
    assert.is(partial.status, 200);
    assert.not.match(partial.text, '<html');
    assert.is(summaryCount(partial.text, 'default', 'dead'), 3);
    assert.equal(listed(partial.text), [...dead].reverse());
  });

  test('retry and discard one job: a POST with the CSRF token; without it, 403 and nothing changes', async ({ app, dead, running }) => {
    const client = await admin(app);
    const refused = await client.request('POST', `/admin/jobs/${dead[0]}/retry`, [['state', 'dead']]);
    assert.is(refused.status, 403);
    assert.is(await statusOf(dead[0]!), 'dead');
    const retried = await client.post(`/admin/jobs/${dead[0]}/retry`, [['state', 'dead']], '/admin/jobs');
    assert.is(retried.status, 302);
    assert.is(retried.headers.get('location'), '/admin/jobs?state=dead');
    const after = await client.get('/admin/jobs?state=dead');
    assert.match(after.text, `Tâche ${dead[0]} relancée.`);
    assert.equal(listed(after.text), [dead[2], dead[1]]);
    // Waiting again from zero attempts, its last error kept but not failed (docs/jobs.md "The operators' page").
    assert.is(await statusOf(dead[0]!), 'queued');
    assert.equal(listed((await client.get('/admin/jobs?state=failed&name=page.boom')).text), []);
    const waiting = await client.get('/admin/jobs?state=queued&name=page.boom');
    assert.equal(listed(waiting.text), [dead[0]]);
    assert.match(waiting.text, 'boom');
    const discarded = await client.post(`/admin/jobs/${dead[1]}/discard`, [], '/admin/jobs');
    assert.is(discarded.status, 302);
    assert.is(await statusOf(dead[1]!), null);
    assert.equal(listed((await client.get('/admin/jobs?state=dead')).text), [dead[2]]);
    // A running job is left to its worker; an unknown id is a 404.
    await client.post(`/admin/jobs/${running}/discard`, [], '/admin/jobs');
    assert.is(await statusOf(running), 'running');
    assert.match((await client.get('/admin/jobs')).text, 'Rien n’a été abandonné : la tâche est en cours.');
    assert.is((await client.post('/admin/jobs/999999/retry', [], '/admin/jobs')).status, 404);
  });

  test('retry and discard by the current filter: only the jobs it lists', async ({ app, dead, failed }) => {
    const client = await admin(app);
    assert.is((await client.request('POST', '/admin/jobs/retry', [['state', 'dead']])).status, 403);
    const retried = await client.post(
      '/admin/jobs/retry',
      [
        ['state', 'dead'],
        ['queue', 'default'],
      ],
      '/admin/jobs',
    );
    assert.is(retried.status, 302);
    const page = await client.get(retried.headers.get('location')!);
    assert.match(page.text, '3 tâche(s) relancée(s).');
    assert.equal(listed(page.text), []);
    for (const id of dead) assert.is(await statusOf(id), 'queued');
    assert.equal(listed((await client.get('/admin/jobs?state=failed')).text), [failed]);
    assert.equal(listed((await client.get('/admin/jobs?state=queued&name=page.boom')).text), [dead[2], dead[1], dead[0]]);
    assert.is(summaryCount((await client.get('/admin/jobs')).text, 'default', 'dead'), 0);
    const discarded = await client.post('/admin/jobs/discard', [['q', '502']], '/admin/jobs');
    assert.match((await client.get(discarded.headers.get('location')!)).text, '1 tâche(s) abandonnée(s).');
    assert.is(await statusOf(failed), null);
    assert.is(Number((await getDatabase().fetchOne<{ n: number }>('SELECT COUNT(*) AS n FROM fw_jobs'))!.n), 17);
  });

  test.run();
}
