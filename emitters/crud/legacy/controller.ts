/**
 * The controller the previous fw-mvc wrote (`mvc/controllers/<snake>_controller.ts`, 245 lines for a contact), kept
 * as it was so that `fw make:crud <Entity> --upgrade` knows what it wrote for an entity (docs/decisions.md "Upgrading
 * an entity's files"). Frozen: never change its output.
 */
import type { CrudPlan } from '../plan.js';

export function legacyController(plan: CrudPlan): string {
  const { entity, entityClass, modelClass, formClass, controllerClass, listConst } = plan;
  const views = plan.viewDir;
  const rowType = `${entityClass}ListRow`;
  const pk = plan.primaryKey.name;
  const media = plan.media !== null;
  const fwImports = [
    'BaseController',
    'DuplicateError',
    'ListQuery',
    'Pagination',
    'csvResponse',
    'errorPage',
    'htmxRedirect',
    'htmxTarget',
    'inUseError',
    'inUseMessage',
    'isHtmx',
    'parseId',
    'parseIds',
    'trans',
  ];
  const mediaNote = media
    ? `
// Its media (images, documents: ${plan.mediaModule}.ts) are checked, stored and written with the record, all or nothing.`
    : '';
  return `// Controller of the entity ${entityClass}: list, detail, create, edit, delete, bulk delete and CSV export. This file is
// yours: \`fw make:crud ${entityClass}\` created it once and never overwrites it.${mediaNote}
import { ${fwImports.join(', ')}, type Request, type Response } from 'fw-mvc';${media ? `\nimport type { MediaSubmission } from 'fw-mvc/media';` : ''}
import { ${entityClass} } from '../entities/${entity.snake}/index.js';
import { ${formClass} } from '../forms/${entity.snake}_form.js';
import * as crud from '../models/${plan.crudModule}.js';
import { ${listConst}, ${modelClass}, type ${rowType} } from '../models/${entity.snake}_model.js';${media ? `\nimport { MEDIA } from '../models/${plan.mediaModule}.js';` : ''}

/** Route prefix of the pages (route names: \`${plan.routeName}.<action>\`). */
const BASE = '${plan.prefix}';

/**
 * The role block of mvc/entities/${entity.snake}/${entity.snake}.json, checked before each action: \`crud.allowed\` (and
 * \`crud.allowedActions\`, the actions the pages offer) live in ${plan.crudModule}.ts, which \`fw sync:entity ${entityClass}\` keeps in step.
 */
const allowed = crud.allowed;

export class ${controllerClass} extends BaseController {
  /** GET ${plan.prefix}: the list; an \`HX-Request\` gets only the results (\`_results.html\`). */
  static async index(request: Request): Promise<Response> {
    if (!allowed(request, 'index')) return errorPage(403, request);
    const { query, rows, pagination } = await ${modelClass}.page(request);
    return results(request, query, rows, pagination, isHtmx(request) ? '_results.html' : 'index.html');
  }

  /** GET ${plan.prefix}/new: the empty form. */
  static async create(request: Request): Promise<Response> {
    if (!allowed(request, 'create')) return errorPage(403, request);
    const form = new ${formClass}(null, { choices: await crud.formChoices() });
    return formPage(request, form, null);
  }

${
  media
    ? storeWithMedia(plan)
    : `  /** POST ${plan.prefix}: creates; an invalid form comes back with status 422, its messages and the values entered. */
  static async store(request: Request): Promise<Response> {
    if (!allowed(request, 'create')) return errorPage(403, request);
    const form = ${formClass}.fromRequest(request, { choices: await crud.formChoices(request.body) });
    const record = validRecord(form);
    if (!record) return formPage(request, form, null, 422);
    try {
      await ${modelClass}.create(record, form.cleanedData);
    } catch (err) {
      if (!(err instanceof DuplicateError)) throw err;
      form.addError(duplicateField(err), trans('crud.duplicate'));
      return formPage(request, form, null, 422);
    }
    return BaseController.redirectWithFlash(request, BASE, trans('crud.created'));
  }
`
}
  /** GET ${plan.prefix}/{id}: the detail page; an id that is not a positive integer, or unknown, gives 404. */
  static async show(request: Request): Promise<Response> {
    if (!allowed(request, 'show')) return errorPage(403, request);
    const row = await findOr404(request);
    if (!row) return errorPage(404, request);
${
  media
    ? `    const context = { title: crud.TITLE, label: crud.LABEL, base: BASE, row, fields: await crud.details(row), media: await MEDIA.showContext(row.${pk} as number), allowed: crud.allowedActions(request) };
    return BaseController.render('${views}/show.html', { request, context });`
    : `    const context = { title: crud.TITLE, label: crud.LABEL, base: BASE, row, fields: await crud.details(row), allowed: crud.allowedActions(request) };
    return BaseController.render('${views}/show.html', { request, context });`
}
  }

  /** GET ${plan.prefix}/{id}/edit: the form filled with the record. */
  static async edit(request: Request): Promise<Response> {
    if (!allowed(request, 'update')) return errorPage(403, request);
    const row = await findOr404(request);
    if (!row) return errorPage(404, request);
    const initial = await crud.formValues(row);
    const form = new ${formClass}(null, { initial, choices: await crud.formChoices(initial) });
    return formPage(request, form, row);
  }

${
  media
    ? updateWithMedia(plan)
    : `  /** POST ${plan.prefix}/{id}: updates; 422 with the messages when invalid. */
  static async update(request: Request): Promise<Response> {
    if (!allowed(request, 'update')) return errorPage(403, request);
    const row = await findOr404(request);
    if (!row) return errorPage(404, request);
    const form = ${formClass}.fromRequest(request, { choices: await crud.formChoices(request.body) });
    const record = validRecord(form);
    if (!record) return formPage(request, form, row, 422);
    try {
      await ${modelClass}.update(row.${pk} as number, record, form.cleanedData);
    } catch (err) {
      if (!(err instanceof DuplicateError)) throw err;
      form.addError(duplicateField(err), trans('crud.duplicate'));
      return formPage(request, form, row, 422);
    }
    return BaseController.redirectWithFlash(request, BASE, trans('crud.updated'));
  }
`
}
  /**
   * POST ${plan.prefix}/{id}/delete. With \`HX-Request\`, the list comes back (\`_results.html\`) with the search, filters,
   * sort and page the form carried; without, a redirect to the list with that state. The detail page's form
   * (\`#crud-delete\`, which htmx sends only to ask its confirmation) leaves for the list with a full load.
   */
  static async destroy(request: Request): Promise<Response> {
    if (!allowed(request, 'delete')) return errorPage(403, request);
    const id = parseId(request.routeParams['id']);
    if (id === null) return errorPage(404, request);
    let deleted: number;
    try {
      deleted = await ${modelClass}.delete(id);
    } catch (err) {
      const inUse = inUseError(err);
      if (!inUse) throw err;
      return refused(request, inUseMessage(inUse, \`\${crud.LABEL} #\${id}\`), \`\${BASE}/\${id}\`);
    }
    if (deleted === 0) return errorPage(404, request);
    BaseController.setFlash(request, trans('crud.deleted'));
    const state = { params: request.body };
    if (isHtmx(request) && htmxTarget(request) === 'crud-delete') return htmxRedirect(BASE);
    if (isHtmx(request)) {
      const { query, rows, pagination } = await ${modelClass}.page(state);
      return results(request, query, rows, pagination, '_results.html');
    }
    return BaseController.redirect(listUrl(request));
  }

  /** POST ${plan.prefix}/bulk-delete: the selected \`ids\`, shown for confirmation; none selected goes straight back. */
  static async bulkDelete(request: Request): Promise<Response> {
    if (!allowed(request, 'delete')) return errorPage(403, request);
    const ids = parseIds(request.body['ids']);
    if (ids.length === 0) return BaseController.redirectWithFlash(request, BASE, trans('crud.none_selected'), 'warning');
    const rows = await ${modelClass}.findMany(ids);
    if (rows.length === 0) return BaseController.redirectWithFlash(request, BASE, trans('crud.none_selected'), 'warning');
    return BaseController.render('${views}/bulk_delete.html', { request, context: { title: crud.TITLE, base: BASE, rows, labels: rows.map(crud.rowLabel) } });
  }

  /** POST ${plan.prefix}/bulk-delete/confirm: deletes the confirmed \`ids\` (one \`?\` each) and goes back to the list. */
  static async bulkDeleteConfirm(request: Request): Promise<Response> {
    if (!allowed(request, 'delete')) return errorPage(403, request);
    const ids = parseIds(request.body['ids']);
    if (ids.length === 0) return BaseController.redirectWithFlash(request, BASE, trans('crud.none_selected'), 'warning');
    let deleted: number;
    try {
      deleted = await ${modelClass}.deleteMany(ids);
    } catch (err) {
      const inUse = inUseError(err);
      if (!inUse) throw err;
      return refused(request, inUseMessage(inUse), null);
    }
    return BaseController.redirectWithFlash(request, BASE, trans('crud.bulk_deleted_count', { count: deleted }));
  }

  /** GET ${plan.prefix}/export.csv: the list's search, filters and sort, without pagination, at most 1000 rows. */
  static async exportCsv(request: Request): Promise<Response> {
    // The file holds the list's rows: it needs \`index\`, and \`export\` as well when the role block names it.
    if (!allowed(request, 'index') || !allowed(request, 'export')) return errorPage(403, request);
    const rows = await ${modelClass}.exportRows(ListQuery.fromRequest(request, ${listConst}));
    return csvResponse(crud.CSV_FILE, crud.CSV_HEADER, rows.map(crud.csvRow));
  }
}

/** The list's URL with the search, filters, sort and page a delete form carried. */
function listUrl(request: Request): string {
  const query = ListQuery.fromRequest({ params: request.body }, ${listConst});
  const page = parseId(request.body['page']?.[0]);
  const target = query.urlWithState(BASE);
  return page && page > 1 ? \`\${target}\${target.includes('?') ? '&' : '?'}page=\${page}\` : target;
}

/**
 * A delete refused because other records still refer to the record(s) (nothing deleted): 409 with \`message\`. The
 * detail page's form (\`from=show\`, or htmx's \`#crud-delete\`) gets that page again, the others the list with its
 * state. htmx does not swap a 409: it follows \`HX-Redirect\` to that page, where the message waits as a flash.
 */
async function refused(request: Request, message: string, showUrl: string | null): Promise<Response> {
  BaseController.setFlash(request, message, 'error');
  const fromShow = showUrl !== null && (htmxTarget(request) === 'crud-delete' || request.body['from']?.[0] === 'show');
  if (isHtmx(request)) {
    const response = htmxRedirect(fromShow ? showUrl : listUrl(request));
    response.status = 409;
    return response;
  }
  const response = fromShow ? await ${controllerClass}.show(request) : await listPage(request);
  if (response.status === 200) response.status = 409;
  return response;
}

/** The whole list page for the state a POST form carried. */
async function listPage(request: Request): Promise<Response> {
  const { query, rows, pagination } = await ${modelClass}.page({ params: request.body });
  return results(request, query, rows, pagination, 'index.html');
}

/** The list page, or its results partial: rows, pagination, sort links, filters, empty state, reset and export links. */
async function results(request: Request, query: ListQuery, rows: ${rowType}[], pagination: Pagination, template: string): Promise<Response> {
  const sortUrls: Record<string, string> = {};
  const sortStates: Record<string, string> = {};
  for (const key of Object.keys(${listConst}.sortable)) {
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
    export_url: query.urlWithState(\`\${BASE}/export.csv\`),
    // The list's state, carried by the delete forms so that the list comes back as it was.
    state: query.formState(page.page),
    partial: template === '_results.html',
    // The actions the signed-in user's roles allow: the page hides the others (the role block, ${plan.crudModule}.ts).
    allowed: crud.allowedActions(request),${
      plan.listImage
        ? `
    // The list image's thumbnails by id: one query for the page's rows.
    thumbnails: await MEDIA.thumbnails(rows.map((row) => row.${pk} as number)),`
        : ''
    }
  };
  const response = BaseController.render(\`${views}/\${template}\`, { request, context });
  response.headers['Vary'] = 'HX-Request';
  return response;
}

${
  media
    ? `/** The form page; its media: the record's current files, and what was sent when \`sent\` comes back (422). */
async function formPage(request: Request, form: ${formClass}, row: ${rowType} | null, status = 200, sent?: MediaSubmission): Promise<Response> {
  const id = row ? (row.${pk} as number) : null;
  const action = id === null ? BASE : \`\${BASE}/\${String(id)}\`;
  const media = await MEDIA.formContext(id, sent);
  return BaseController.render('${views}/form.html', { status, request, context: { title: crud.TITLE, label: crud.LABEL, base: BASE, form: form.context(), media, row, action } });
}`
    : `function formPage(request: Request, form: ${formClass}, row: ${rowType} | null, status = 200): Response {
  const action = row ? \`\${BASE}/\${String(row.${pk})}\` : BASE;
  return BaseController.render('${views}/form.html', { status, request, context: { title: crud.TITLE, label: crud.LABEL, base: BASE, form: form.context(), row, action } });
}`
}

/** The record to save when the form and the entity's own checks accept the values; their messages go on the form otherwise. */
function validRecord(form: ${formClass}): ${entityClass} | null {
  if (!form.isValid()) return null;
  const record = new ${entityClass}(form.cleanedData);
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

async function findOr404(request: Request): Promise<${rowType} | null> {
  const id = parseId(request.routeParams['id']);
  return id === null ? null : ${modelClass}.find(id);
}
`;
}

/**
 * POST of the create form with media: the upload limit (429), every id and file checked before anything is stored
 * (400/403 refused, 422 with the messages), the files stored, then the record and its media rows in one transaction;
 * a failure removes the files stored.
 */
function storeWithMedia(plan: CrudPlan): string {
  const { formClass, modelClass } = plan;
  return `  /**
   * POST ${plan.prefix}: creates the record with its media. Every file is checked (extension, size, type) before any is
   * stored; an invalid form or file comes back with status 422 and its messages. The files are stored, then the record
   * and their rows are written in one transaction: when it fails, the files are removed. Limited to 10 requests with a
   * file per address and minute (429).
   */
  static async store(request: Request): Promise<Response> {
    if (!allowed(request, 'create')) return errorPage(403, request);
    const limited = await MEDIA.guard(request);
    if (limited) return limited;
    const form = ${formClass}.fromRequest(request, { choices: await crud.formChoices(request.body) });
    const media = await MEDIA.read(request, null);
    if (media.refusal) return errorPage(media.refusal, request);
    const record = validRecord(form);
    if (!record || !media.isValid) return formPage(request, form, null, 422, media);
    // A file that cannot be stored comes back with its message, nothing stays: 422 (an image that cannot be read),
    // 507 (the upload folder full or read-only).
    if (!(await media.store())) return formPage(request, form, null, media.failureStatus, media);
    try {
      await ${modelClass}.create(record, form.cleanedData, media);
    } catch (err) {
      await media.discard();
      if (!(err instanceof DuplicateError)) throw err;
      form.addError(duplicateField(err), trans('crud.duplicate'));
      return formPage(request, form, null, 422, media);
    }
    return BaseController.redirectWithFlash(request, BASE, trans('crud.created'));
  }
`;
}

/** POST of the edit form with media: as storeWithMedia, and every media id sent must be one of the record's. */
function updateWithMedia(plan: CrudPlan): string {
  const { formClass, modelClass } = plan;
  const pk = plan.primaryKey.name;
  return `  /**
   * POST ${plan.prefix}/{id}: updates the record and its media (new files, alternative texts, order, removals). Every media
   * id the form names must be one of this record's: otherwise 400 (not an id) or 403, and nothing changes. Then as
   * store: 422 with the messages, files stored, one transaction, files removed when it fails; the files of the media
   * removed or replaced are deleted once it committed.
   */
  static async update(request: Request): Promise<Response> {
    if (!allowed(request, 'update')) return errorPage(403, request);
    const row = await findOr404(request);
    if (!row) return errorPage(404, request);
    const limited = await MEDIA.guard(request);
    if (limited) return limited;
    const id = row.${pk} as number;
    const media = await MEDIA.read(request, id);
    if (media.refusal) return errorPage(media.refusal, request);
    const form = ${formClass}.fromRequest(request, { choices: await crud.formChoices(request.body) });
    const record = validRecord(form);
    if (!record || !media.isValid) return formPage(request, form, row, 422, media);
    // A file that cannot be stored comes back with its message, nothing stays: 422 (an image that cannot be read),
    // 507 (the upload folder full or read-only).
    if (!(await media.store())) return formPage(request, form, row, media.failureStatus, media);
    try {
      await ${modelClass}.update(id, record, form.cleanedData, media);
    } catch (err) {
      await media.discard();
      if (!(err instanceof DuplicateError)) throw err;
      form.addError(duplicateField(err), trans('crud.duplicate'));
      return formPage(request, form, row, 422, media);
    }
    await media.finish();
    return BaseController.redirectWithFlash(request, BASE, trans('crud.updated'));
  }
`;
}
