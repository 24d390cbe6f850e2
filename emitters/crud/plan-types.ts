/** The shapes of a CRUD plan (plan.ts derives them from the IR): fields, relations, links, media, routes. */
import type { EntityNode, FieldNode, MediaNode, RelationNode } from '../../compiler/ir.js';

/** How a value is entered and shown. */
export type InputKind = 'text' | 'email' | 'url' | 'tel' | 'textarea' | 'int' | 'decimal' | 'float' | 'bool' | 'date' | 'datetime' | 'time' | 'relation';

/** A many-to-one target: the select of the form and filter, the label column of the list. */
export interface CrudRelation {
  readonly field: FieldNode;
  readonly target: EntityNode;
  readonly targetKey: FieldNode;
  /** The target's field shown for a row (its first name-like text field, else its first text field, else its key). */
  readonly targetLabel: FieldNode;
  /** SQL alias of the joined table, e.g. `r_ville_id`. */
  readonly alias: string;
  /** Key of the label in list rows and in the CSV header: `<field>_label`. */
  readonly labelKey: string;
  /** The model's static method that lists the select's choices: the field in camelCase + `Choices`, e.g. `villeIdChoices`. */
  readonly choicesMethod: string;
}

/**
 * A many-to-many relation seen from this entity: a multiple select of the other side's records in the form, saved
 * in the pivot table with the record, listed on the detail page.
 */
export interface CrudLink {
  readonly relation: RelationNode;
  /** Form field and key of the form's values: `<other entity snake>_ids`, e.g. `tag_ids`. */
  readonly name: string;
  readonly label: string;
  /** The other side. */
  readonly target: EntityNode;
  readonly targetKey: FieldNode;
  readonly targetLabel: FieldNode;
  readonly pivotTable: string;
  /** The pivot's column holding this entity's key, and the one holding the other side's. */
  readonly ownColumn: string;
  readonly otherColumn: string;
  /** Extra pivot fields: edited per link in the form (emitters/crud/pivot.ts), but binary ones, filled with a default on insert. */
  readonly pivotFields: readonly FieldNode[];
  /** The crud module's function listing the choices, e.g. `tagIdsChoices`. */
  readonly choicesMethod: string;
}

/** A foreign key referring to this entity's records that refuses their deletion (runtime `ReferenceSpec`). */
export interface CrudReference {
  readonly table: string;
  readonly column: string;
  readonly target: string;
  readonly selfKey: string | null;
  /** The referencing rows as a sentence names them: `animal`, `animaux`. */
  readonly one: string;
  readonly many: string;
}

export interface CrudField {
  readonly field: FieldNode;
  readonly label: string;
  readonly input: InputKind;
  readonly relation: CrudRelation | null;
  /** Shown as a column of the list (long texts and binary values are not). */
  readonly inList: boolean;
  /** Entered in the form (an auto-increment key is not). */
  readonly inForm: boolean;
}

/**
 * A media entry of the entity (`make:crud --media`, docs/uploads.md): its file input, where its files go, how the
 * pages show it. `image` stores under `images` (thumbnail and medium when `variants`), `file` under `documents`.
 */
export interface CrudMedia {
  readonly node: MediaNode;
  /** Form field of the new files; the changes to current files are sent as `<name>.alt.<id>`, `<name>.position.<id>`, `<name>.remove`. */
  readonly name: string;
  readonly label: string;
  readonly kind: 'image' | 'file';
  /** `media.role` of its rows (the entry's `role`, else its name). */
  readonly role: string;
  /** A gallery or a file list (several files, ordered); else one file, which a new upload replaces. */
  readonly multiple: boolean;
  /** `true`: made during the upload; `'job'`: by the job of `fw-mvc/media/jobs` once the upload answered. */
  readonly variants: boolean | 'job';
}

export interface CrudRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Static method of the controller. */
  readonly action: string;
  /** Route name, e.g. `contacts.index`. */
  readonly name: string;
}

export interface CrudPlan {
  readonly entity: EntityNode;
  readonly entityClass: string;
  readonly modelClass: string;
  readonly formClass: string;
  readonly controllerClass: string;
  /** e.g. `CONTACT_LIST`. */
  readonly listConst: string;
  readonly primaryKey: FieldNode;
  /** Every field but the primary key, in file order. */
  readonly fields: readonly CrudField[];
  readonly listFields: readonly CrudField[];
  readonly formFields: readonly CrudField[];
  readonly filterFields: readonly CrudField[];
  readonly relations: readonly CrudRelation[];
  /** Many-to-many relations of the entity (either side), edited in the form. */
  readonly links: readonly CrudLink[];
  /** Textual columns searched by `q`. */
  readonly searchColumns: readonly string[];
  /**
   * The foreign keys of other tables that keep a record from being deleted (many-to-one, or a pivot's side, whose
   * `on_delete` is RESTRICT or NO ACTION): counted before a delete, named in the refusal.
   */
  readonly references: readonly CrudReference[];
  /** Route prefix `/<plural>` and route names `<plural>.<action>`. */
  readonly prefix: string;
  readonly routeName: string;
  /** Folder of the views under `mvc/views/`. */
  readonly viewDir: string;
  readonly routes: readonly CrudRoute[];
  /** Routes declared public (`--public`). */
  readonly isPublic: boolean;
  /** Permissions checked when the entity declares a role block: `<snake>.index`, `<snake>.delete`. */
  readonly checksPermissions: boolean;
  /** What users read for the records: the list's title, the browser tab (the entity's `label_plural`, else its plural in PascalCase). */
  readonly title: string;
  /** What users read for one record: the detail's and the form's headings (the entity's `label`, else its name). */
  readonly label: string;
  /** The regenerable crud module (`mvc/models/<snake>_crud.ts`) and the form's fields constant (`CONTACT_FIELDS`). */
  readonly crudModule: string;
  readonly fieldsConst: string;
  /**
   * The media entries handled by the pages (`--media`, or a media module already there: cli/generate.ts), in the
   * entity's order; null when the pages were made without media.
   */
  readonly media: readonly CrudMedia[] | null;
  /** The regenerable media module of the entity (`mvc/models/<snake>_media.ts`, exporting `MEDIA`). */
  readonly mediaModule: string;
  /** The image shown as a thumbnail in the list: the first `field: image` entry without `multiple`; null when none (or no media). */
  readonly listImage: CrudMedia | null;
}
