/**
 * The public controller of an entity (`mvc/controllers/<snake>_public_controller.ts`, manual): its skeleton, and the
 * part each generator adds to it (docs/generators.md): `list()` and its SELECT, `show()` and its media,
 * `new()` / `create()` with `FORM_FIELDS` and the visible `INSERT_PUBLIC_FORM`. The SQL stays in the controller, in
 * plain sight: these pages are meant to be read and changed (docs/generators.md).
 */
import type { FieldNode } from '../../compiler/ir.js';
import { declaration } from '../crud/field-declaration.js';
import { displayPattern, type CrudField } from '../crud/plan.js';
import { keyName } from '../sql-table-spec.js';
import { tsString } from '../text.js';
import type { ControllerPart, NamedImport } from '../codemods/controller-edit.js';
import type { PublicPlan } from './plan.js';

/** How many rows the public list shows (docs/decisions.md#public-pages). */
export const PUBLIC_LIST_LIMIT = 100;

const FW = 'fw-mvc';
const RENDER_IMPORTS: NamedImport[] = [
  { from: FW, name: 'BaseController' },
  { from: FW, name: 'Request', typeOnly: true },
  { from: FW, name: 'Response', typeOnly: true },
];

/** The file as the first public generator of the entity creates it: the class, empty; the generator adds its part. */
export function publicControllerSkeleton(plan: PublicPlan): string {
  const e = plan.entity;
  return `// Public pages of the entity ${e.name}: no login needed (fw make:public-list, make:public-show, make:public-form ${e.name}).
// This file is yours: the generators create it once, then only add the methods and constants it lacks (through its
// syntax tree), never changing what is already here. See docs/generators.md.
import { BaseController, type Request, type Response } from 'fw-mvc';
import { ${e.name} } from '../entities/${e.snake}/index.js';

export class ${plan.controllerClass} extends BaseController {
}
`;
}

function columns(plan: PublicPlan, fields: readonly FieldNode[]): string {
  return [plan.entity.primaryKey, ...fields].map((f) => f.column).join(', ');
}

/** `make:public-list`: `list()`, its SELECT and, when an image entry exists, the thumbnail of each row. */
export function publicListPart(plan: PublicPlan): ControllerPart {
  const e = plan.entity;
  const pk = e.primaryKey;
  const select = `SELECT ${columns(
    plan,
    plan.listFields.map((f) => f.field),
  )} FROM ${e.table} ORDER BY ${pk.column} DESC LIMIT ${PUBLIC_LIST_LIMIT}`;
  const image = plan.listImage;
  const thumbnails = image ? `, thumbnails: await publicThumbnails(rows.map((row) => row.${pk.name} as number))` : '';
  const after = image
    ? [
        {
          name: 'publicThumbnails',
          text: `/** The list's thumbnails by record id: the first image of « ${image.name} » (role '${image.role}'), read in one query for the list's ids. */
async function publicThumbnails(ids: readonly number[]): Promise<Record<string, { url: string; alt: string }>> {
  const out: Record<string, { url: string; alt: string }> = {};
  for (const [key, item] of await getCoverMediaForEntities(${tsString(e.name)}, ids, { role: ${tsString(image.role)} })) {
    const url = item.thumbnailUrl ?? item.mediumUrl ?? item.url;
    if (url) out[key] = { url, alt: item.altText ?? ${tsString(image.label)} };
  }
  return out;
}`,
        },
      ]
    : [];
  return {
    imports: [...RENDER_IMPORTS, { from: FW, name: 'fetchAll' }, ...(image ? [{ from: 'fw-mvc/media', name: 'getCoverMediaForEntities' }] : [])],
    before: [
      {
        name: 'SELECT_PUBLIC_LIST',
        text: `/** The public list: the latest ${PUBLIC_LIST_LIMIT} rows, newest first; no search, filter or pagination. */
const SELECT_PUBLIC_LIST = ${tsString(select)};`,
      },
    ],
    methods: [
      {
        name: 'list',
        text: `  /** GET ${plan.routes.list.path} (${plan.routes.list.name}): the latest ${PUBLIC_LIST_LIMIT} records, newest first; each links to its page when show() exists, the page to the form when new() does. */
  static async list(request: Request): Promise<Response> {
    const rows = (await fetchAll(SELECT_PUBLIC_LIST)).map((row) => ${e.name}.fromRow(row));
    const context = { title: ${tsString(plan.title)}, rows, linked: Object.hasOwn(${plan.controllerClass}, 'show'), new_url: Object.hasOwn(${plan.controllerClass}, 'new') ? ${tsString(plan.routes.new.path)} : null${thumbnails} };
    return BaseController.render('${plan.viewDir}/list.html', { request, context });
  }`,
      },
    ],
    after,
  };
}

/** `make:public-show`: `show()`, its SELECT and the record's media, read-only. */
export function publicShowPart(plan: PublicPlan): ControllerPart {
  const e = plan.entity;
  const pk = e.primaryKey;
  const fields = [...plan.shownFields.map((f) => f.field)];
  if (!fields.includes(plan.labelField) && plan.labelField !== pk) fields.unshift(plan.labelField);
  // The fields the entity's `display` names, for the title (docs/entities.md "How a record is named").
  for (const name of displayPattern(e)?.fields ?? []) {
    const field = e.fields.find((f) => f.name === name);
    if (field && field !== pk && !fields.includes(field)) fields.push(field);
  }
  const select = `SELECT ${columns(plan, fields)} FROM ${e.table} WHERE ${pk.column} = ?`;
  const hasMedia = plan.media.length > 0;
  const entries = plan.media.map((m) => `    { name: ${tsString(m.name)}, label: ${tsString(m.label)}, role: ${tsString(m.role)} },`);
  const after = hasMedia
    ? [
        {
          name: 'publicMedia',
          text: `/** The record's media by entry, in the entity's order (read-only; docs/uploads.md "Media records"). */
async function publicMedia(id: number): Promise<Record<string, Array<{ url: string; thumbnail_url: string; medium_url: string; alt: string; name: string }>>> {
  const entries = [
${entries.join('\n')}
  ];
  const items = await listMediaForEntity(${tsString(e.name)}, id);
  const out: Record<string, Array<{ url: string; thumbnail_url: string; medium_url: string; alt: string; name: string }>> = {};
  for (const entry of entries) {
    const mine = items.filter((item) => item.role === entry.role);
    out[entry.name] = mine.flatMap((item, index) =>
      item.url === null
        ? []
        : [{
            url: item.url,
            thumbnail_url: item.thumbnailUrl ?? item.mediumUrl ?? item.url,
            medium_url: item.mediumUrl ?? item.url,
            alt: item.altText ?? (mine.length > 1 ? \`\${entry.label} \${index + 1}\` : entry.label),
            name: item.originalName ?? item.path.slice(item.path.lastIndexOf('/') + 1),
          }],
    );
  }
  return out;
}`,
        },
      ]
    : [];
  return {
    imports: [
      ...RENDER_IMPORTS,
      { from: FW, name: 'errorPage' },
      { from: FW, name: 'fetchOne' },
      { from: FW, name: 'parseId' },
      { from: FW, name: 'trans' },
      ...(hasMedia ? [{ from: 'fw-mvc/media', name: 'listMediaForEntity' }] : []),
    ],
    before: [
      {
        name: 'SELECT_PUBLIC_SHOW',
        text: `/** One record of the public detail page, by its key. */
const SELECT_PUBLIC_SHOW = ${tsString(select)};`,
      },
    ],
    methods: [
      {
        name: 'show',
        text: `  /** GET ${plan.routes.show.path} (${plan.routes.show.name}): one record; an id that is not a positive integer, or unknown, gives the 404 page. */
  static async show(request: Request): Promise<Response> {
    const id = parseId(request.routeParams['id']);
    const found = id === null ? null : await fetchOne(SELECT_PUBLIC_SHOW, [id]);
    if (!found) return errorPage(404, request, { detail: trans('public.show.not_found'), layout: 'layouts/public.html' });
    const row = ${e.name}.fromRow(found);
    const context = { title: ${tsString(plan.title)}, row, list: ${tsString(plan.prefix)}${hasMedia ? `, media: await publicMedia(row.${pk.name} as number)` : ''} };
    return BaseController.render('${plan.viewDir}/show.html', { request, context });
  }`,
      },
    ],
    after,
  };
}

/** The field's declaration in FORM_FIELDS: the CRUD's, with `type="number"` for decimals and floats (docs/decisions.md#public-pages). */
function formDeclaration(f: CrudField): { className: string; code: string } {
  return declaration(f, f.input === 'decimal' || f.input === 'float' ? ["inputType: 'number'"] : []);
}

/** The value bound for a column of INSERT_PUBLIC_FORM. */
function insertValue(plan: PublicPlan, field: FieldNode): string {
  if (plan.timestampFields.includes(field)) return field.logicalType === 'date' ? 'now.slice(0, 10)' : 'now';
  return `row.${field.column}`;
}

/** `make:public-form`: `new()`, `create()`, `FORM_FIELDS`, the form class and `INSERT_PUBLIC_FORM`. */
export function publicFormPart(plan: PublicPlan): ControllerPart {
  const e = plan.entity;
  const formClass = `${e.name}PublicForm`;
  const inserted = [...plan.formFields.map((f) => f.field), ...plan.defaultedFields, ...plan.timestampFields];
  const insert = `INSERT INTO ${e.table} (${inserted.map((f) => f.column).join(', ')}) VALUES (${inserted.map(() => '?').join(', ')})`;
  const declarations = plan.formFields.map((f) => ({ name: f.field.name, ...formDeclaration(f) }));
  const classes = [...new Set(declarations.map((d) => d.className))].sort();
  const unique = plan.formFields
    .filter((f) => f.field.unique)
    .flatMap((f) =>
      [keyName('uq', e.table, f.field.column), `${e.table}.${f.field.column}`, f.field.column].map((name) => `${tsString(name)}: '${f.field.name}'`),
    );
  const timestamps = plan.timestampFields.length > 0 ? "\n    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');" : '';
  const values = `[${inserted.map((f) => insertValue(plan, f)).join(', ')}]`;
  // A value already taken: on its field when the servers name one of the form's unique columns (the key, or the
  // column), else above the form (a unique column left out, an index added by hand): 422 either way, never 500.
  const duplicate = unique.length
    ? `      const taken: Record<string, string> = { ${unique.join(', ')} };
      const field = [err.constraint ?? '', ...err.columns].map((name) => taken[name]).find((name) => name !== undefined);
      form.addError(field ?? null, field ? trans('crud.duplicate') : trans('public.form.duplicate'));`
    : `      form.addError(null, trans('public.form.duplicate'));`;
  const save = `    try {
      await insert(INSERT_PUBLIC_FORM, ${values});
    } catch (err) {
      if (!(err instanceof DuplicateError)) throw err;
${duplicate}
      return publicFormPage(request, form, 422);
    }`;
  const defaulted = plan.defaultedFields.length ? ` ${plan.defaultedFields.map((f) => f.name).join(', ')}: the entity's default.` : '';
  return {
    imports: [
      ...RENDER_IMPORTS,
      { from: FW, name: 'Form' },
      { from: FW, name: 'insert' },
      { from: FW, name: 'trans' },
      { from: FW, name: 'DuplicateError' },
      ...classes.map((name) => ({ from: FW, name })),
    ],
    before: [
      {
        name: 'INSERT_PUBLIC_FORM',
        text: `/** What the public form saves: its fields${plan.timestampFields.length ? ', and the time of the submission' : ''}.${defaulted} */
export const INSERT_PUBLIC_FORM = ${tsString(insert)};`,
      },
      {
        name: 'FORM_FIELDS',
        text: `/** The fields of the public form: non-nullable ones are required; no key, foreign key, timestamp or secret. */
export const FORM_FIELDS = {
${declarations.map((d) => `  ${d.name}: ${d.code},`).join('\n')}
};`,
      },
      { name: formClass, text: `class ${formClass} extends Form<typeof FORM_FIELDS> {\n  static fields = FORM_FIELDS;\n}` },
    ],
    methods: [
      {
        name: 'new',
        text: `  /** GET ${plan.routes.new.path} (${plan.routes.new.name}): the empty public form. */
  static new(request: Request): Response {
    return publicFormPage(request, new ${formClass}());
  }`,
      },
      {
        name: 'create',
        text: `  /**
   * POST ${plan.routes.create.path} (${plan.routes.create.name}): an invalid form comes back with status 422, its messages and the values
   * entered; a valid one runs INSERT_PUBLIC_FORM and goes back to the empty form with a flash message.
   */
  static async create(request: Request): Promise<Response> {
    const form = ${formClass}.fromRequest(request);
    const record = form.isValid() ? new ${e.name}(form.cleanedData) : null;
    // The entity's own checks, on the fields of this form.
    for (const [field, message] of Object.entries(record?.validate() ?? {})) if (form.fieldNames.includes(field)) form.addError(field, message);
    if (!record || !form.isValid()) return publicFormPage(request, form, 422);
    const row = record.toRow();${timestamps}
${save}
    return BaseController.redirectWithFlash(request, ${tsString(plan.routes.new.path)}, trans('public.form.success'));
  }`,
      },
    ],
    after: [
      {
        name: 'publicFormPage',
        text: `/** The public form page (status 422 when it comes back with messages). */
function publicFormPage(request: Request, form: ${formClass}, status = 200): Response {
  const context = { title: ${tsString(plan.title)}, label: ${tsString(plan.label)}, action: ${tsString(plan.routes.create.path)}, form: form.context() };
  return BaseController.render('${plan.viewDir}/form.html', { status, request, context });
}`,
      },
    ],
  };
}
