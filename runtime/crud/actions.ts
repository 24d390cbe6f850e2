/**
 * The actions of the CRUD pages (docs/crud.md "Routes", "The list page", "Bulk delete", "CSV export", "Partial updates
 * (htmx, optional)"), written once for every entity: `crudController()` (controller.ts) binds them to the class an
 * entity's controller extends, whose hooks they call. Behaviour is what docs/crud.md describes, byte for byte:
 * statuses, redirects, flashes, htmx answers, the CSV.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getPath } from '../config.js';
import { BaseController, errorPage, type Context } from '../controller.js';
import { DuplicateError } from '../db/errors.js';
import type { Form, FormClass, FormOptions } from '../forms/form.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { trans } from '../translations.js';
import type { Pagination } from '../pagination.js';
import { csvResponse } from './csv.js';
import type { CrudPermission, CrudRecord } from './description.js';
import { htmxRedirect, htmxTarget, isHtmx } from './htmx.js';
import { parseId, parseIds } from './ids.js';
import { ListQuery, type SqlFragment } from './list-query.js';
import { mediaErrorLinks, type CrudMediaPages, type CrudMediaSubmission } from './media.js';
import type { CrudModelClass } from './model.js';
import { inUseError, inUseMessage, type InUseError } from './references.js';
import type { CrudResource } from './resource.js';

/** A form class as the actions build it: `new Form(null, options)` for a page, `fromRequest` for a POST. */
export interface CrudFormClass<F extends Form = Form> extends FormClass<F> {
  fromRequest(this: FormClass<F>, request: Request, options?: FormOptions): F;
}

/** The pages the actions render, as the `context` hook receives them. */
export type CrudPageName = 'index' | 'results' | 'show' | 'form' | 'bulk_delete';

/** What the actions read of the class they are bound to: its description, model, form, media, and its hooks. */
export interface CrudControllerShape {
  readonly resource: CrudResource;
  readonly model: CrudModelClass;
  readonly form: CrudFormClass;
  readonly media: CrudMediaPages | null;
  scope(request: Request): SqlFragment | null;
  beforeSave(request: Request, record: CrudRecord, form: Form, row: object | null): Promise<void>;
  afterSave(request: Request, id: number, created: boolean): Promise<void>;
  afterDelete(request: Request, ids: readonly number[]): Promise<void>;
  context(request: Request, page: CrudPageName, context: Context): Context;
  readonly show: (request: Request) => Promise<Response>;
}

type Ctl = CrudControllerShape;

function denied(ctl: Ctl, request: Request, permission: CrudPermission): Response | null {
  return ctl.resource.allowed(request, permission) ? null : errorPage(403, request);
}

function render(ctl: Ctl, request: Request, page: CrudPageName, template: string, context: Context, status = 200): Response {
  return BaseController.render(template, { status, request, context: ctl.context(request, page, context) });
}

/** The record of the route's `{id}` within the scope, or null (404): an id that is not a positive integer, unknown, or out of scope. */
async function findOr404(ctl: Ctl, request: Request): Promise<object | null> {
  const id = parseId(request.routeParams.id);
  return id === null ? null : ctl.model.find(id, ctl.scope(request));
}

/** The list's URL with the search, filters, sort and page a delete form carried. */
function listUrl(ctl: Ctl, request: Request): string {
  const query = ListQuery.fromRequest({ params: request.body }, ctl.resource.list);
  const page = parseId(request.body.page?.[0]);
  const target = query.urlWithState(ctl.resource.base);
  return page && page > 1 ? `${target}${target.includes('?') ? '&' : '?'}page=${page}` : target;
}

/** The list page, or its results partial: rows, pagination, sort links, filters, empty state, reset and export links. */
async function results(ctl: Ctl, request: Request, query: ListQuery, rows: object[], pagination: Pagination, partial: boolean): Promise<Response> {
  const resource = ctl.resource;
  const base = resource.base;
  const sortUrls: Record<string, string> = {};
  const sortStates: Record<string, string> = {};
  for (const key of Object.keys(resource.list.sortable)) {
    sortUrls[key] = query.sortUrl(base, key);
    sortStates[key] = query.sortState(key);
  }
  const page = pagination.context();
  const context: Context = {
    title: resource.title,
    base,
    key: resource.key.name,
    rows,
    pagination: page,
    total_label: resource.countLabel(page.total),
    q: query.q,
    sort: query.sort ?? '',
    direction: query.sort ? query.direction : '',
    filters: query.filters,
    filter_choices: await resource.filterChoices(query.filters),
    sort_urls: sortUrls,
    sort_states: sortStates,
    is_filtered: query.isFiltered,
    empty_context: query.emptyContext,
    empty_message: trans(query.emptyMessageKey),
    reset_url: base,
    export_url: query.urlWithState(`${base}/export.csv`),
    // The list's state, carried by the delete forms so that the list comes back as it was.
    state: query.formState(page.page),
    partial,
    // The actions the signed-in user's roles allow: the page hides the others.
    allowed: resource.allowedActions(request),
  };
  // The list image's thumbnails by id: one query for the page's rows.
  if (ctl.media?.listImage) context.thumbnails = await ctl.media.thumbnails(rows.map((row) => resource.idOf(row)));
  const response = partial
    ? render(ctl, request, 'results', `${resource.views}/_results.html`, context)
    : render(ctl, request, 'index', `${resource.views}/index.html`, context);
  response.headers.Vary = 'HX-Request';
  return response;
}

/** The form page; with media, the record's current files and what was sent when `sent` comes back (422). */
async function formPage(ctl: Ctl, request: Request, form: Form, row: object | null, status = 200, sent?: CrudMediaSubmission): Promise<Response> {
  const resource = ctl.resource;
  const id = row ? resource.idOf(row) : null;
  const action = id === null ? resource.base : `${resource.base}/${String(id)}`;
  const context: Context = { title: resource.title, label: resource.label, base: resource.base, key: resource.key.name, form: form.context(), row, action };
  if (ctl.media) {
    const media = await ctl.media.formContext(id, sent);
    context.media = media;
    context.media_errors = mediaErrorLinks(media);
  }
  return render(ctl, request, 'form', `${resource.views}/form.html`, context, status);
}

/** The record to save when the form, the entity's own checks and `beforeSave` accept the values; their messages go on the form otherwise. */
async function validRecord(ctl: Ctl, request: Request, form: Form, row: object | null): Promise<CrudRecord | null> {
  if (!form.isValid()) return null;
  const record = new (ctl.resource.description.entity as unknown as new (data: unknown) => CrudRecord)(form.cleanedData);
  for (const [field, message] of Object.entries(record.validate())) {
    if (form.fieldNames.includes(field)) form.addError(field, message);
  }
  if (!form.isValid()) return null;
  await ctl.beforeSave(request, record, form, row);
  return form.isValid() ? record : null;
}

/**
 * A delete refused because other records still refer to the record(s) (nothing deleted): 409 with `message`. The
 * detail page's form (`from=show`, or htmx's `#crud-delete`) gets that page again, the others the list with its
 * state. htmx does not swap a 409: it follows `HX-Redirect` to that page, where the message waits as a flash.
 */
async function refused(ctl: Ctl, request: Request, message: string, showUrl: string | null): Promise<Response> {
  BaseController.setFlash(request, message, 'error');
  const fromShow = showUrl !== null && (htmxTarget(request) === 'crud-delete' || request.body.from?.[0] === 'show');
  if (isHtmx(request)) {
    const response = htmxRedirect(fromShow ? showUrl : listUrl(ctl, request));
    response.status = 409;
    return response;
  }
  let response: Response;
  if (fromShow) response = await ctl.show(request);
  else {
    const { query, rows, pagination } = await ctl.model.page({ params: request.body }, ctl.scope(request));
    response = await results(ctl, request, query, rows, pagination, false);
  }
  if (response.status === 200) response.status = 409;
  return response;
}

/** The ids of a bulk form within the scope (all of them when there is none). */
async function scopedIds(ctl: Ctl, request: Request, ids: number[]): Promise<number[]> {
  const scope = ctl.scope(request);
  if (!scope || ids.length === 0) return ids;
  const found = new Set((await ctl.model.findMany(ids, scope)).map((row) => ctl.resource.idOf(row)));
  return ids.filter((id) => found.has(id));
}

/** GET /<plural>: the list; an `HX-Request` gets only the results (`_results.html`). */
export async function index(ctl: Ctl, request: Request): Promise<Response> {
  const refusal = denied(ctl, request, 'index');
  if (refusal) return refusal;
  const { query, rows, pagination } = await ctl.model.page(request, ctl.scope(request));
  return results(ctl, request, query, rows, pagination, isHtmx(request));
}

/** GET /<plural>/new: the empty form. */
export async function create(ctl: Ctl, request: Request): Promise<Response> {
  const refusal = denied(ctl, request, 'create');
  if (refusal) return refusal;
  const form = new ctl.form(null, { choices: await ctl.resource.formChoices() });
  return formPage(ctl, request, form, null);
}

/**
 * POST /<plural> and POST /<plural>/{id}: creates or updates. An invalid form comes back with status 422, its
 * messages and the values entered. With media: the upload limit (429), every media id checked (400 / 403, nothing
 * changes), every file checked before any is stored (422), the files stored, then the record and their rows in one
 * transaction; when it fails the files are removed; the files of the media removed or replaced are deleted once it
 * committed (docs/crud.md "Media").
 */
async function save(ctl: Ctl, request: Request, row: object | null): Promise<Response> {
  const resource = ctl.resource;
  const media = ctl.media;
  const id = row ? resource.idOf(row) : null;
  let sent: CrudMediaSubmission | undefined;
  if (media) {
    const limited = await media.guard(request);
    if (limited) return limited;
    // The media ids the form names are checked before anything else is read.
    sent = await media.read(request, id);
    if (sent.refusal) return errorPage(sent.refusal, request);
  }
  const form = ctl.form.fromRequest(request, { choices: await resource.formChoices(request.body) });
  const record = await validRecord(ctl, request, form, row);
  if (!record || (sent && !sent.isValid)) return formPage(ctl, request, form, row, 422, sent);
  // A file that cannot be stored comes back with its message, nothing stays: 422 (an image that cannot be read),
  // 507 (the upload folder full or read-only).
  if (sent && !(await sent.store())) return formPage(ctl, request, form, row, sent.failureStatus, sent);
  let saved: number;
  try {
    if (id === null) saved = await ctl.model.create(record, form.cleanedData, sent);
    else {
      await ctl.model.update(id, record, form.cleanedData, sent);
      saved = id;
    }
  } catch (err) {
    await sent?.discard();
    if (!(err instanceof DuplicateError)) throw err;
    form.addError(resource.duplicateField(err), trans('crud.duplicate'));
    return formPage(ctl, request, form, row, 422, sent);
  }
  if (id !== null) await sent?.finish();
  await ctl.afterSave(request, saved, id === null);
  // The entity's `display` names the record saved (« Enregistrement « Jean Dupont » créé. »); else the plain message.
  const label = resource.recordLabel({ ...record, [resource.key.name]: saved });
  const message =
    label === null ? trans(id === null ? 'crud.created' : 'crud.updated') : trans(id === null ? 'crud.created_named' : 'crud.updated_named', { record: label });
  return BaseController.redirectWithFlash(request, resource.base, message);
}

export async function store(ctl: Ctl, request: Request): Promise<Response> {
  return denied(ctl, request, 'create') ?? save(ctl, request, null);
}

/** GET /<plural>/{id}: the detail page; an id that is not a positive integer, or unknown, gives 404. */
export async function show(ctl: Ctl, request: Request): Promise<Response> {
  const refusal = denied(ctl, request, 'show');
  if (refusal) return refusal;
  const row = await findOr404(ctl, request);
  if (!row) return errorPage(404, request);
  const resource = ctl.resource;
  const context: Context = {
    title: resource.title,
    label: resource.label,
    base: resource.base,
    key: resource.key.name,
    row,
    // The heading: the record's name when the entity's `display` gives one (else « <label> #<key> »).
    record_label: resource.recordLabel(row),
    fields: await resource.details(row as never),
  };
  if (ctl.media) context.media = await ctl.media.showContext(resource.idOf(row));
  context.allowed = resource.allowedActions(request);
  return render(ctl, request, 'show', `${resource.views}/show.html`, context);
}

/** GET /<plural>/{id}/edit: the form filled with the record. */
export async function edit(ctl: Ctl, request: Request): Promise<Response> {
  const refusal = denied(ctl, request, 'update');
  if (refusal) return refusal;
  const row = await findOr404(ctl, request);
  if (!row) return errorPage(404, request);
  const initial = await ctl.resource.formValues(row as never);
  const form = new ctl.form(null, { initial, choices: await ctl.resource.formChoices(initial) });
  return formPage(ctl, request, form, row);
}

/** POST /<plural>/{id}: updates; 422 with the messages when invalid. */
export async function update(ctl: Ctl, request: Request): Promise<Response> {
  const refusal = denied(ctl, request, 'update');
  if (refusal) return refusal;
  const row = await findOr404(ctl, request);
  if (!row) return errorPage(404, request);
  return save(ctl, request, row);
}

/**
 * POST /<plural>/{id}/delete. With `HX-Request`, the list comes back (`_results.html`) with the search, filters,
 * sort and page the form carried; without, a redirect to the list with that state. The detail page's form
 * (`#crud-delete`, which htmx sends only to ask its confirmation) leaves for the list with a full load.
 */
export async function destroy(ctl: Ctl, request: Request): Promise<Response> {
  const refusal = denied(ctl, request, 'delete');
  if (refusal) return refusal;
  const resource = ctl.resource;
  const id = parseId(request.routeParams.id);
  if (id === null) return errorPage(404, request);
  const scope = ctl.scope(request);
  // Read first when a scope must allow it, or when the entity's `display` names it in the messages.
  const row = scope || resource.names ? await ctl.model.find(id, scope) : null;
  if (scope && !row) return errorPage(404, request);
  let deleted: number;
  try {
    deleted = await ctl.model.delete(id);
  } catch (err) {
    const inUse = inUseError(err);
    if (!inUse) throw err;
    return refused(ctl, request, inUseMessage(inUse, resource.recordName(row, id)), `${resource.base}/${id}`);
  }
  if (deleted === 0) return errorPage(404, request);
  await ctl.afterDelete(request, [id]);
  const label = row ? resource.recordLabel(row) : null;
  BaseController.setFlash(request, label === null ? trans('crud.deleted') : trans('crud.deleted_named', { record: label }));
  if (isHtmx(request) && htmxTarget(request) === 'crud-delete') return htmxRedirect(resource.base);
  if (isHtmx(request)) {
    const { query, rows, pagination } = await ctl.model.page({ params: request.body }, scope);
    return results(ctl, request, query, rows, pagination, true);
  }
  return BaseController.redirect(listUrl(ctl, request));
}

/** The confirmation page of a bulk delete: the entity's own `bulk_delete.html` (projects made before), else the framework's. */
function bulkTemplate(ctl: Ctl): string {
  const own = `${ctl.resource.views}/bulk_delete.html`;
  return fs.existsSync(path.join(getPath('views_dir'), own)) ? own : 'crud/bulk_delete.html';
}

/** POST /<plural>/bulk-delete: the selected `ids`, shown for confirmation; none selected goes straight back. */
export async function bulkDelete(ctl: Ctl, request: Request): Promise<Response> {
  const refusal = denied(ctl, request, 'delete');
  if (refusal) return refusal;
  const resource = ctl.resource;
  const ids = parseIds(request.body.ids);
  if (ids.length === 0) return BaseController.redirectWithFlash(request, resource.base, trans('crud.none_selected'), 'warning');
  const rows = await ctl.model.findMany(ids, ctl.scope(request));
  if (rows.length === 0) return BaseController.redirectWithFlash(request, resource.base, trans('crud.none_selected'), 'warning');
  const context: Context = {
    title: resource.title,
    base: resource.base,
    key: resource.key.name,
    rows,
    labels: rows.map((row) => resource.displayLabel(row as never)),
  };
  return render(ctl, request, 'bulk_delete', bulkTemplate(ctl), context);
}

/** The names of the records a bulk delete found referred to (`#1 Jean Dupont`), when the entity's `display` names them. */
async function blockingNames(ctl: Ctl, err: InUseError): Promise<ReadonlyMap<number, string> | undefined> {
  const resource = ctl.resource;
  if (!resource.names || err.blocking.length === 0) return undefined;
  const rows = await ctl.model.findMany(
    err.blocking.map((b) => b.id),
    null,
  );
  return new Map(rows.map((row) => [resource.idOf(row), resource.displayLabel(row as never)]));
}

/** POST /<plural>/bulk-delete/confirm: deletes the confirmed `ids` (one `?` each) and goes back to the list. */
export async function bulkDeleteConfirm(ctl: Ctl, request: Request): Promise<Response> {
  const refusal = denied(ctl, request, 'delete');
  if (refusal) return refusal;
  const resource = ctl.resource;
  const ids = await scopedIds(ctl, request, parseIds(request.body.ids));
  if (ids.length === 0) return BaseController.redirectWithFlash(request, resource.base, trans('crud.none_selected'), 'warning');
  let deleted: number;
  try {
    deleted = await ctl.model.deleteMany(ids);
  } catch (err) {
    const inUse = inUseError(err);
    if (!inUse) throw err;
    return refused(ctl, request, inUseMessage(inUse, undefined, await blockingNames(ctl, inUse)), null);
  }
  await ctl.afterDelete(request, ids);
  return BaseController.redirectWithFlash(request, resource.base, trans('crud.bulk_deleted_count', { count: deleted }));
}

/** GET /<plural>/export.csv: the list's search, filters and sort, without pagination, at most 1000 rows. */
export async function exportCsv(ctl: Ctl, request: Request): Promise<Response> {
  // The file holds the list's rows: it needs `index`, and `export` as well when the role block names it.
  const refusal = denied(ctl, request, 'index') ?? denied(ctl, request, 'export');
  if (refusal) return refusal;
  const resource = ctl.resource;
  const rows = await ctl.model.exportRows(ListQuery.fromRequest(request, resource.list, ctl.scope(request)));
  return csvResponse(
    resource.csvFile,
    resource.csvHeader,
    rows.map((row) => resource.csvRow(row as never)),
  );
}
