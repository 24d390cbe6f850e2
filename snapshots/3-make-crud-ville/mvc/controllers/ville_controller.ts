// Controller of the entity Ville: list, detail, create, edit, delete, bulk delete and CSV export. This file is
// yours: `fw make:crud Ville` created it once and never overwrites it.
import { BaseController, DuplicateError, ListQuery, Pagination, csvResponse, errorPage, htmxRedirect, htmxTarget, inUseError, inUseMessage, isHtmx, parseId, parseIds, trans, type Request, type Response } from 'fw-mvc';
import { Ville } from '../entities/ville/index.js';
import { VilleForm } from '../forms/ville_form.js';
import * as crud from '../models/ville_crud.js';
import { VILLE_LIST, VilleModel, type VilleListRow } from '../models/ville_model.js';

/** Route prefix of the pages (route names: `villes.<action>`). */
const BASE = '/villes';

/**
 * The role block of mvc/entities/ville/ville.json, checked before each action: `crud.allowed` (and
 * `crud.allowedActions`, the actions the pages offer) live in ville_crud.ts, which `fw sync:entity Ville` keeps in step.
 */
const allowed = crud.allowed;

export class VilleController extends BaseController {
  /** GET /villes: the list; an `HX-Request` gets only the results (`_results.html`). */
  static async index(request: Request): Promise<Response> {
    if (!allowed(request, 'index')) return errorPage(403, request);
    const { query, rows, pagination } = await VilleModel.page(request);
    return results(request, query, rows, pagination, isHtmx(request) ? '_results.html' : 'index.html');
  }

  /** GET /villes/new: the empty form. */
  static async create(request: Request): Promise<Response> {
    if (!allowed(request, 'create')) return errorPage(403, request);
    const form = new VilleForm(null, { choices: await crud.formChoices() });
    return formPage(request, form, null);
  }

  /** POST /villes: creates; an invalid form comes back with status 422, its messages and the values entered. */
  static async store(request: Request): Promise<Response> {
    if (!allowed(request, 'create')) return errorPage(403, request);
    const form = VilleForm.fromRequest(request, { choices: await crud.formChoices(request.body) });
    const record = validRecord(form);
    if (!record) return formPage(request, form, null, 422);
    try {
      await VilleModel.create(record, form.cleanedData);
    } catch (err) {
      if (!(err instanceof DuplicateError)) throw err;
      form.addError(duplicateField(err), trans('crud.duplicate'));
      return formPage(request, form, null, 422);
    }
    return BaseController.redirectWithFlash(request, BASE, trans('crud.created'));
  }

  /** GET /villes/{id}: the detail page; an id that is not a positive integer, or unknown, gives 404. */
  static async show(request: Request): Promise<Response> {
    if (!allowed(request, 'show')) return errorPage(403, request);
    const row = await findOr404(request);
    if (!row) return errorPage(404, request);
    const context = { title: crud.TITLE, label: crud.LABEL, base: BASE, row, fields: await crud.details(row), allowed: crud.allowedActions(request) };
    return BaseController.render('ville/show.html', { request, context });
  }

  /** GET /villes/{id}/edit: the form filled with the record. */
  static async edit(request: Request): Promise<Response> {
    if (!allowed(request, 'update')) return errorPage(403, request);
    const row = await findOr404(request);
    if (!row) return errorPage(404, request);
    const initial = await crud.formValues(row);
    const form = new VilleForm(null, { initial, choices: await crud.formChoices(initial) });
    return formPage(request, form, row);
  }

  /** POST /villes/{id}: updates; 422 with the messages when invalid. */
  static async update(request: Request): Promise<Response> {
    if (!allowed(request, 'update')) return errorPage(403, request);
    const row = await findOr404(request);
    if (!row) return errorPage(404, request);
    const form = VilleForm.fromRequest(request, { choices: await crud.formChoices(request.body) });
    const record = validRecord(form);
    if (!record) return formPage(request, form, row, 422);
    try {
      await VilleModel.update(row.id as number, record, form.cleanedData);
    } catch (err) {
      if (!(err instanceof DuplicateError)) throw err;
      form.addError(duplicateField(err), trans('crud.duplicate'));
      return formPage(request, form, row, 422);
    }
    return BaseController.redirectWithFlash(request, BASE, trans('crud.updated'));
  }

  /**
   * POST /villes/{id}/delete. With `HX-Request`, the list comes back (`_results.html`) with the search, filters,
   * sort and page the form carried; without, a redirect to the list with that state. The detail page's form
   * (`#crud-delete`, which htmx sends only to ask its confirmation) leaves for the list with a full load.
   */
  static async destroy(request: Request): Promise<Response> {
    if (!allowed(request, 'delete')) return errorPage(403, request);
    const id = parseId(request.routeParams['id']);
    if (id === null) return errorPage(404, request);
    let deleted: number;
    try {
      deleted = await VilleModel.delete(id);
    } catch (err) {
      const inUse = inUseError(err);
      if (!inUse) throw err;
      return refused(request, inUseMessage(inUse, `${crud.LABEL} #${id}`), `${BASE}/${id}`);
    }
    if (deleted === 0) return errorPage(404, request);
    BaseController.setFlash(request, trans('crud.deleted'));
    const state = { params: request.body };
    if (isHtmx(request) && htmxTarget(request) === 'crud-delete') return htmxRedirect(BASE);
    if (isHtmx(request)) {
      const { query, rows, pagination } = await VilleModel.page(state);
      return results(request, query, rows, pagination, '_results.html');
    }
    return BaseController.redirect(listUrl(request));
  }

  /** POST /villes/bulk-delete: the selected `ids`, shown for confirmation; none selected goes straight back. */
  static async bulkDelete(request: Request): Promise<Response> {
    if (!allowed(request, 'delete')) return errorPage(403, request);
    const ids = parseIds(request.body['ids']);
    if (ids.length === 0) return BaseController.redirectWithFlash(request, BASE, trans('crud.none_selected'), 'warning');
    const rows = await VilleModel.findMany(ids);
    if (rows.length === 0) return BaseController.redirectWithFlash(request, BASE, trans('crud.none_selected'), 'warning');
    return BaseController.render('ville/bulk_delete.html', { request, context: { title: crud.TITLE, base: BASE, rows, labels: rows.map(crud.rowLabel) } });
  }

  /** POST /villes/bulk-delete/confirm: deletes the confirmed `ids` (one `?` each) and goes back to the list. */
  static async bulkDeleteConfirm(request: Request): Promise<Response> {
    if (!allowed(request, 'delete')) return errorPage(403, request);
    const ids = parseIds(request.body['ids']);
    if (ids.length === 0) return BaseController.redirectWithFlash(request, BASE, trans('crud.none_selected'), 'warning');
    let deleted: number;
    try {
      deleted = await VilleModel.deleteMany(ids);
    } catch (err) {
      const inUse = inUseError(err);
      if (!inUse) throw err;
      return refused(request, inUseMessage(inUse), null);
    }
    return BaseController.redirectWithFlash(request, BASE, trans('crud.bulk_deleted_count', { count: deleted }));
  }

  /** GET /villes/export.csv: the list's search, filters and sort, without pagination, at most 1000 rows. */
  static async exportCsv(request: Request): Promise<Response> {
    // The file holds the list's rows: it needs `index`, and `export` as well when the role block names it.
    if (!allowed(request, 'index') || !allowed(request, 'export')) return errorPage(403, request);
    const rows = await VilleModel.exportRows(ListQuery.fromRequest(request, VILLE_LIST));
    return csvResponse(crud.CSV_FILE, crud.CSV_HEADER, rows.map(crud.csvRow));
  }
}

/** The list's URL with the search, filters, sort and page a delete form carried. */
function listUrl(request: Request): string {
  const query = ListQuery.fromRequest({ params: request.body }, VILLE_LIST);
  const page = parseId(request.body['page']?.[0]);
  const target = query.urlWithState(BASE);
  return page && page > 1 ? `${target}${target.includes('?') ? '&' : '?'}page=${page}` : target;
}

/**
 * A delete refused because other records still refer to the record(s) (nothing deleted): 409 with `message`. The
 * detail page's form (`from=show`, or htmx's `#crud-delete`) gets that page again, the others the list with its
 * state. htmx does not swap a 409: it follows `HX-Redirect` to that page, where the message waits as a flash.
 */
async function refused(request: Request, message: string, showUrl: string | null): Promise<Response> {
  BaseController.setFlash(request, message, 'error');
  const fromShow = showUrl !== null && (htmxTarget(request) === 'crud-delete' || request.body['from']?.[0] === 'show');
  if (isHtmx(request)) {
    const response = htmxRedirect(fromShow ? showUrl : listUrl(request));
    response.status = 409;
    return response;
  }
  const response = fromShow ? await VilleController.show(request) : await listPage(request);
  if (response.status === 200) response.status = 409;
  return response;
}

/** The whole list page for the state a POST form carried. */
async function listPage(request: Request): Promise<Response> {
  const { query, rows, pagination } = await VilleModel.page({ params: request.body });
  return results(request, query, rows, pagination, 'index.html');
}

/** The list page, or its results partial: rows, pagination, sort links, filters, empty state, reset and export links. */
async function results(request: Request, query: ListQuery, rows: VilleListRow[], pagination: Pagination, template: string): Promise<Response> {
  const sortUrls: Record<string, string> = {};
  const sortStates: Record<string, string> = {};
  for (const key of Object.keys(VILLE_LIST.sortable)) {
    sortUrls[key] = query.sortUrl(BASE, key);
    sortStates[key] = query.sortState(key);
  }
  const page = pagination.context();
  const context = {
    title: crud.TITLE,
    base: BASE,
    rows,
    pagination: page,
    total_label: crud.countLabel(page.total),
    q: query.q,
    sort: query.sort ?? '',
    direction: query.sort ? query.direction : '',
    filters: query.filters,
    filter_choices: await crud.filterChoices(query.filters),
    sort_urls: sortUrls,
    sort_states: sortStates,
    is_filtered: query.isFiltered,
    empty_context: query.emptyContext,
    empty_message: trans(query.emptyMessageKey),
    reset_url: BASE,
    export_url: query.urlWithState(`${BASE}/export.csv`),
    // The list's state, carried by the delete forms so that the list comes back as it was.
    state: query.formState(page.page),
    partial: template === '_results.html',
    // The actions the signed-in user's roles allow: the page hides the others (the role block, ville_crud.ts).
    allowed: crud.allowedActions(request),
  };
  const response = BaseController.render(`ville/${template}`, { request, context });
  response.headers['Vary'] = 'HX-Request';
  return response;
}

function formPage(request: Request, form: VilleForm, row: VilleListRow | null, status = 200): Response {
  const action = row ? `${BASE}/${String(row.id)}` : BASE;
  return BaseController.render('ville/form.html', { status, request, context: { title: crud.TITLE, label: crud.LABEL, base: BASE, form: form.context(), row, action } });
}

/** The record to save when the form and the entity's own checks accept the values; their messages go on the form otherwise. */
function validRecord(form: VilleForm): Ville | null {
  if (!form.isValid()) return null;
  const record = new Ville(form.cleanedData);
  for (const [field, message] of Object.entries(record.validate())) {
    if (form.fieldNames.includes(field)) form.addError(field, message);
  }
  return form.isValid() ? record : null;
}

/** The field of a unique violation (named by the server as a column or a key), or null (a message for the whole form). */
function duplicateField(err: DuplicateError): string | null {
  for (const name of [err.constraint ?? '', ...err.columns]) {
    if (Object.hasOwn(crud.UNIQUE_KEYS, name)) return crud.UNIQUE_KEYS[name]!;
  }
  return null;
}

async function findOr404(request: Request): Promise<VilleListRow | null> {
  const id = parseId(request.routeParams['id']);
  return id === null ? null : VilleModel.find(id);
}
