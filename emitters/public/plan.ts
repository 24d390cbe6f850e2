/**
 * What the public page generators need to know about one entity (docs/generators.md): the controller and
 * views, the fields of the list, detail and form pages, the media shown read-only, the routes. Built on the CRUD plan
 * (emitters/crud/plan.ts): same labels, same input kinds, same title.
 */
import type { EntityNode, FieldNode, ModelNode } from '../../compiler/ir.js';
import { crudPlan, labelField, type CrudField, type CrudMedia, type CrudPlan } from '../crud/plan.js';

export type PublicAction = 'list' | 'show' | 'new' | 'create';

export interface PublicRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Static method of the public controller. */
  readonly action: PublicAction;
  /** `public.<plural>.<list|show|new|create>`: never one of make:crud's names. */
  readonly name: string;
}

export interface PublicPlan {
  readonly crud: CrudPlan;
  readonly entity: EntityNode;
  readonly controllerClass: string;
  /** `mvc/controllers/<snake>_public_controller.ts` */
  readonly controllerFile: string;
  /** Folder of the views under `mvc/views/`: `<snake>_public`. */
  readonly viewDir: string;
  readonly prefix: string;
  /** The records' name (list heading, the detail's breadcrumb), and one record's (the form's heading): the CRUD's. */
  readonly title: string;
  readonly label: string;
  /** The detail's fields and the list's columns (long texts left to the detail): everything but keys, raw `_id` fields, timestamps, account flags and secrets. */
  readonly shownFields: readonly CrudField[];
  /** The list's columns: the shown fields but long texts (TEXT), which would make every row as tall as the text. */
  readonly listFields: readonly CrudField[];
  /** The field naming a record (the detail's heading): a shown field, or the key (`#12`) when none fits. */
  readonly labelField: FieldNode;
  /** The form's fields (the exclusions of docs/generators.md "What the public pages leave out"), in the entity's order. */
  readonly formFields: readonly CrudField[];
  /**
   * Excluded from the form but NOT NULL, so the INSERT must fill them: timestamps with the current time, booleans and
   * texts with the entity's default (false, ''); the others (numbers, keys, unique columns) need a value the generator
   * cannot guess.
   */
  readonly timestampFields: readonly FieldNode[];
  readonly defaultedFields: readonly FieldNode[];
  readonly missingRequired: readonly FieldNode[];
  /** Every media entry, in declaration order (shown read-only on the detail page). */
  readonly media: readonly CrudMedia[];
  /** The list's thumbnail: the first `field: image` entry (a single image before a gallery), or null. */
  readonly listImage: CrudMedia | null;
  readonly routes: Readonly<Record<PublicAction, PublicRoute>>;
}

const TIMESTAMPS = new Set(['created_at', 'updated_at']);
/** Never on a public page, nor in its form (docs/generators.md "What the public pages leave out"), beside raw `_id` fields and secrets. */
const NOT_PUBLIC = new Set(['created_at', 'updated_at', 'is_admin', 'is_active', 'email_verified_at', 'last_login_at']);
/** Words that mark a secret, as whole words of the snake name, anywhere in it: `api_token`, `mfa_secret`, `password_salt`. */
const SECRET_WORDS = new Set(['password', 'passwd', 'pwd', 'token', 'secret', 'salt', 'hash', 'otp', 'totp', 'apikey', 'credential', 'credentials']);
/** Pairs of words that mark one: `api_key`, `private_key`, `recovery_codes`. */
const SECRET_PAIRS = ['api_key', 'private_key', 'secret_key', 'access_key', 'recovery_code', 'recovery_codes'];

/** A raw foreign key: a many-to-one field of the entity, or a name ending in `_id`. */
function isRawId(f: CrudField): boolean {
  return f.relation !== null || f.field.name.endsWith('_id');
}

/** A secret: `password*`, `token*`, `secret*`, or a secret word of the name (docs/generators.md). */
function isSecret(name: string): boolean {
  if (/^(password|token|secret)/.test(name)) return true;
  const words = name.split('_');
  return words.some((word) => SECRET_WORDS.has(word)) || words.slice(1).some((word, i) => SECRET_PAIRS.includes(`${words[i]}_${word}`));
}

/** Kept off every public page, list, detail and form alike (the key: off the pages, in the form unless automatic). */
function isPrivate(f: CrudField): boolean {
  return NOT_PUBLIC.has(f.field.name) || isSecret(f.field.name) || isRawId(f) || f.field.logicalType === 'bytes';
}

export function publicPlan(model: ModelNode, entityName: string): PublicPlan {
  const crud = crudPlan(model, entityName, { media: true });
  const entity = crud.entity;
  const shownFields = crud.fields.filter((f) => !isPrivate(f) && !f.field.primaryKey);
  const formFields = crud.fields.filter((f) => !isPrivate(f) && !f.field.autoIncrement);
  const entered = new Set(formFields.map((f) => f.field.name));
  const excludedRequired = entity.fields.filter((f) => !f.primaryKey && !f.nullable && !entered.has(f.name) && f.logicalType !== 'bytes');
  const isTimestamp = (f: FieldNode): boolean => TIMESTAMPS.has(f.name) && (f.logicalType === 'date' || f.logicalType === 'datetime');
  // A unique column gets no shared default: the second submission would repeat it (the warning asks for a value).
  const isDefaulted = (f: FieldNode): boolean =>
    !isTimestamp(f) && !f.unique && !f.name.endsWith('_id') && (f.logicalType === 'bool' || f.logicalType === 'str');
  const media = crud.media ?? [];
  const images = media.filter((m) => m.kind === 'image');
  const prefix = `/${entity.plural}`;
  const route = (method: 'GET' | 'POST', path: string, action: PublicAction): PublicRoute => ({
    method,
    path: `${prefix}${path}`,
    action,
    name: `public.${entity.plural}.${action}`,
  });
  return {
    crud,
    entity,
    controllerClass: `${entity.name}PublicController`,
    controllerFile: `mvc/controllers/${entity.snake}_public_controller.ts`,
    viewDir: `${entity.snake}_public`,
    prefix,
    title: crud.title,
    label: crud.label,
    shownFields,
    listFields: shownFields.filter((f) => f.input !== 'textarea'),
    labelField: labelField(entity, (f) => shownFields.some((s) => s.field === f)),
    formFields,
    timestampFields: excludedRequired.filter(isTimestamp),
    defaultedFields: excludedRequired.filter(isDefaulted),
    missingRequired: excludedRequired.filter((f) => !isTimestamp(f) && !isDefaulted(f)),
    media,
    listImage: images.find((m) => !m.multiple) ?? images[0] ?? null,
    routes: {
      list: route('GET', '', 'list'),
      show: route('GET', '/{id}', 'show'),
      new: route('GET', '/new', 'new'),
      create: route('POST', '', 'create'),
    },
  };
}
