/**
 * The operators' page of `fw-mvc/jobs` (docs/jobs.md "The operators' page"): `registerJobsPage(router)` in
 * `mvc/routes.ts` adds, behind the login and for the given roles only (`admin` by default), the counts of each
 * state per queue and the list of jobs, built with the CRUD list (`listPage`, `ListQuery`, the `crud/` templates):
 * search, filters (state, queue, name), sort and pages; retry and discard one job or every job of the current
 * search and filters (POST, CSRF checked by the application as on every signed-in route).
 */
import { BaseController, errorPage, type Context } from '../controller.js';
import { getDatabase } from '../db/database.js';
import type { Request } from '../http/request.js';
import { markAccess, type Handler, type Router } from '../http/router.js';
import { AuthMiddleware } from '../middleware.js';
import { isAuthenticated, userHasRole } from '../session/session.js';
import { trans } from '../translations.js';
import { isHtmx } from '../crud/htmx.js';
import { parseId } from '../crud/ids.js';
import { listPage } from '../crud/list-page.js';
import { ListQuery, type ListSpec } from '../crud/list-query.js';
import { dateText, discardJobs, failedSql, jobCounts, jobState, retryJobs, JOB_STATES, type JobState } from './admin.js';
import { JOBS_TABLE } from './schema.js';

/** What `registerJobsPage` may be told. */
export interface JobsPageOptions {
  /** The roles that may see and act (any one of them); `['admin']` by default. */
  readonly roles?: readonly string[];
  /** The page's path, `/admin/jobs` by default. */
  readonly path?: string;
  /** Jobs per page, 25 by default. */
  readonly perPage?: number;
}

/** The states shown in the counts, in this order (`done` jobs are listed, not counted). */
export const JOBS_PAGE_STATES: readonly JobState[] = ['queued', 'running', 'scheduled', 'failed', 'dead'];

/** How many ids one retry or discard by filter changes per statement. */
const BATCH = 500;

/** A date written as the table holds it, to compare with `run_at` (digits, dashes, colons and a space only). */
function sqlDate(now: Date): string {
  return `'${dateText(now)}'`;
}

/** The state of a row as operators read it (docs/jobs.md): `failed` and `scheduled` are `queued` jobs. */
function stateSql(now: Date): string {
  return `(CASE WHEN t.status <> 'queued' THEN t.status WHEN ${failedSql('t.')} THEN 'failed' WHEN t.run_at > ${sqlDate(now)} THEN 'scheduled' ELSE 'queued' END)`;
}

/** The allow-lists of the list at `now`: the state filter compares with the clock of the request. */
export function jobsListSpec(now: Date = new Date()): ListSpec {
  return {
    sortable: { id: 't.id', name: 't.name', queue: 't.queue', status: 't.status', attempts: 't.attempts', run_at: 't.run_at' },
    defaultSort: 'id',
    searchable: ['t.name', 't.queue', 't.last_error'],
    filters: {
      state: { column: stateSql(now), kind: 'text', match: `${stateSql(now)} = ?` },
      queue: { column: 't.queue', kind: 'text', match: 't.queue = ?' },
      name: { column: 't.name', kind: 'text', match: 't.name = ?' },
    },
  };
}

const SELECT = `SELECT t.id, t.name, t.queue, t.status, t.attempts, t.max_attempts, t.run_at, t.locked_by, t.last_error, t.finished_at FROM ${JOBS_TABLE} t`;
const COUNT = `SELECT COUNT(*) AS total FROM ${JOBS_TABLE} t`;

interface RawJob {
  id: number | string;
  name: string;
  queue: string;
  status: string;
  attempts: number | string;
  max_attempts: number | string;
  run_at: unknown;
  locked_by: string | null;
  last_error: string | null;
  finished_at: unknown;
}

/** One row of the page's table. */
function viewRow(row: RawJob, now: Date): Record<string, unknown> {
  const runAt = dateText(row.run_at);
  const state = jobState({ status: row.status, lastError: row.last_error, attempts: Number(row.attempts), runAt }, now);
  return {
    id: Number(row.id),
    name: row.name,
    queue: row.queue,
    state,
    state_label: trans(`jobs.state.${state}`),
    attempts: Number(row.attempts),
    max_attempts: Number(row.max_attempts),
    run_at: runAt,
    locked_by: row.locked_by,
    last_error: row.last_error,
    finished_at: row.finished_at === null || row.finished_at === undefined ? null : dateText(row.finished_at),
    can_retry: row.status === 'dead' || row.status === 'queued',
    can_discard: row.status !== 'running',
  };
}

/** The counts per queue as rows of the summary table, and the totals. */
async function summary(now: Date): Promise<{ queues: Array<{ queue: string; counts: Record<string, number> }>; totals: Record<string, number> }> {
  const counts = await jobCounts(getDatabase(), now);
  const totals: Record<string, number> = Object.fromEntries(JOB_STATES.map((state) => [state, 0]));
  const queues = [...counts].map(([queue, entry]) => {
    for (const state of JOB_STATES) totals[state]! += entry[state];
    return { queue, counts: entry };
  });
  return { queues, totals };
}

function pageHandler(base: string, perPage: number): Handler {
  return async (request) => {
    const now = new Date();
    const page = await listPage<RawJob>(request, jobsListSpec(now), { select: SELECT, count: COUNT, perPage, keysFirst: false });
    const { query, pagination } = page;
    const context = pagination.context();
    const sortUrls: Record<string, string> = {};
    const sortStates: Record<string, string> = {};
    for (const key of Object.keys(query.spec.sortable)) {
      sortUrls[key] = query.sortUrl(base, key);
      sortStates[key] = query.sortState(key);
    }
    const partial = isHtmx(request);
    const view: Context = {
      title: trans('jobs.title'),
      base,
      key: 'id',
      rows: page.rows.map((row) => viewRow(row, now)),
      pagination: context,
      total_label: trans('jobs.count', { count: context.total }),
      q: query.q,
      sort: query.sort ?? '',
      direction: query.sort ? query.direction : '',
      filters: query.filters,
      states: JOB_STATES.map((state) => ({ value: state, label: trans(`jobs.state.${state}`) })),
      summary_states: JOBS_PAGE_STATES.map((state) => ({ value: state, label: trans(`jobs.state.${state}`) })),
      summary: await summary(now),
      sort_urls: sortUrls,
      sort_states: sortStates,
      is_filtered: query.isFiltered,
      empty_context: query.emptyContext,
      empty_message: query.isFiltered ? trans(query.emptyMessageKey) : trans('jobs.empty'),
      reset_url: base,
      state: query.formState(context.page),
      partial,
      // The CRUD templates' actions: none of theirs (no export, creation or bulk delete); the rows carry their own.
      allowed: { export: false, create: false, delete: false, show: false, update: false },
    };
    const response = BaseController.render(partial ? 'jobs/_partial.html' : 'jobs/index.html', { request, context: view });
    response.headers.Vary = 'HX-Request';
    return response;
  };
}

/** The list's URL with the search, filters, sort and page a form carried. */
function backUrl(base: string, request: Request): string {
  const query = ListQuery.fromRequest({ params: request.body }, jobsListSpec());
  const page = parseId(request.body.page?.[0]);
  const target = query.urlWithState(base);
  return page && page > 1 ? `${target}${target.includes('?') ? '&' : '?'}page=${page}` : target;
}

type Act = (ids: readonly number[]) => Promise<number>;

const ACTIONS: Record<'retry' | 'discard', Act> = {
  retry: (ids) => retryJobs(getDatabase(), { ids }),
  discard: (ids) => discardJobs(getDatabase(), { ids }),
};

/** Retries or discards the job of the route's `{id}`; 404 for an id that is not a job. */
function oneHandler(base: string, action: keyof typeof ACTIONS): Handler {
  return async (request) => {
    const id = parseId(request.routeParams.id);
    const found = id === null ? null : await getDatabase().fetchOne(`SELECT id FROM ${JOBS_TABLE} WHERE id = ?`, [id]);
    if (id === null || !found) return errorPage(404, request);
    const changed = await ACTIONS[action]([id]);
    const message = changed === 1 ? trans(`jobs.${action}_one`, { id }) : trans(`jobs.${action}_none`);
    return BaseController.redirectWithFlash(request, backUrl(base, request), message, changed === 1 ? 'success' : 'warning');
  };
}

/** Retries or discards every job of the search and filters the form carried (a form without any acts on all jobs). */
function filterHandler(base: string, action: keyof typeof ACTIONS): Handler {
  return async (request) => {
    const query = ListQuery.fromRequest({ params: request.body }, jobsListSpec());
    const where = query.where();
    const rows = await getDatabase().fetchAll<{ id: number | string }>(`SELECT t.id FROM ${JOBS_TABLE} t ${where.sql} ORDER BY t.id`, where.params);
    const ids = rows.map((row) => Number(row.id));
    let changed = 0;
    for (let at = 0; at < ids.length; at += BATCH) changed += await ACTIONS[action](ids.slice(at, at + BATCH));
    return BaseController.redirectWithFlash(
      request,
      backUrl(base, request),
      trans(`jobs.${action}_many`, { count: changed }),
      changed > 0 ? 'success' : 'warning',
    );
  };
}

/**
 * The handler behind the login, for a user holding one of `roles` (403 otherwise), marked with that check so that a
 * menu entry for the page shows only to those users (docs/runtime.md "The menu").
 */
function guarded(roles: readonly string[], handler: Handler): Handler {
  const may = (request: Request): boolean => isAuthenticated(request) && roles.some((role) => userHasRole(request, role));
  return markAccess((request) => {
    if (!isAuthenticated(request)) return new AuthMiddleware().check(request)!;
    return may(request) ? handler(request) : errorPage(403, request);
  }, may);
}

/**
 * Adds the operators' page: `GET <path>` (the counts and the list), `POST <path>/{id}/retry`,
 * `POST <path>/{id}/discard`, `POST <path>/retry` and `POST <path>/discard` (every job of the search and filters the
 * form carries). Anonymous visitors go to the login page; a signed-in user without one of `roles` gets a 403.
 */
export function registerJobsPage(router: Router, options: JobsPageOptions = {}): void {
  const roles = options.roles ?? ['admin'];
  if (roles.length === 0) throw new TypeError('registerJobsPage : donnez au moins un rôle (roles: ["admin"]).');
  const base = (options.path ?? '/admin/jobs').replace(/\/+$/, '');
  const perPage = options.perPage ?? 25;
  const wrap = (handler: Handler): Handler => guarded(roles, handler);
  router.add('GET', base, wrap(pageHandler(base, perPage)), { name: 'jobs.index' });
  router.add('POST', `${base}/retry`, wrap(filterHandler(base, 'retry')), { name: 'jobs.retry_filter' });
  router.add('POST', `${base}/discard`, wrap(filterHandler(base, 'discard')), { name: 'jobs.discard_filter' });
  router.add('POST', `${base}/{id}/retry`, wrap(oneHandler(base, 'retry')), { name: 'jobs.retry' });
  router.add('POST', `${base}/{id}/discard`, wrap(oneHandler(base, 'discard')), { name: 'jobs.discard' });
}
