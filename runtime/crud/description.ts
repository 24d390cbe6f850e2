/**
 * What the CRUD pages of one entity are made of, as data (docs/decisions.md "The CRUD in the runtime"): the
 * regenerable `mvc/models/<snake>_crud.ts` passes one `CrudDescription` to `defineCrud()`. Every SQL text and name
 * here comes from the entity files through the generator, never from a request.
 */
import type { Row } from '../db/database.js';
import type { ListSpec } from './list-query.js';
import type { ReferenceSpec } from './references.js';

/** The actions of the pages, as the role block (`rbac`) names them. */
export type CrudPermission = 'index' | 'show' | 'create' | 'update' | 'delete' | 'export';

/** What the pages need of a record: its row for INSERT and UPDATE, and its own checks (field → message). */
export interface CrudRecord {
  toRow(): object;
  validate(): Record<string, string>;
}

/** The entity's class (its base class is regenerated with it): built from the form's values, read from rows. */
export interface CrudEntityClass {
  new (data?: never): CrudRecord;
  fromRow(row: Row): CrudRecord;
}

/** A row of the list and of the detail page: the entity, and the labels of its many-to-one targets (`ville_id_label`). */
export type CrudRow<C extends CrudEntityClass, L extends string> = InstanceType<C> & Record<L, string | null>;

/** How a value shows on the detail page: as it is, a date as users read it, a number with the locale's separator, Oui / Non. */
export type CrudShow = 'text' | 'date' | 'number' | 'bool';

/** `ORDER BY <column>, <key>`: a text column in MariaDB's order on SQLite too (`textOrder`). */
export interface CrudOrder {
  readonly column: string;
  readonly key: string;
  readonly text: boolean;
}

/** One field of the detail page; `labelKey`: a many-to-one key shows its target's label (`ville_id_label`), else its value. */
export interface CrudDetailField {
  readonly label: string;
  readonly field: string;
  readonly show?: CrudShow;
  readonly labelKey?: string;
}

/**
 * The links of a many-to-many relation on the detail page: `sql` lists them for the record's key (one `?`),
 * `SELECT o.<label> AS label[, p.<pivot column> AS v0, …] FROM <pivot> p JOIN <other> o ON … WHERE p.<own> = ?`,
 * ordered by `order`. With `values` (the pivot's fields the form edits), each link with its values; else their
 * labels joined by commas.
 */
export interface CrudDetailLinks {
  readonly label: string;
  readonly link: string;
  readonly sql: string;
  readonly order: CrudOrder;
  readonly values?: ReadonlyArray<{ readonly label: string; readonly show?: CrudShow }>;
}

export type CrudDetail = CrudDetailField | CrudDetailLinks;

/**
 * The choices of a select (a many-to-one key, a many-to-many field): `select` is `SELECT <key> AS id, <label> AS
 * label FROM <table>`; the first CHOICES_MAX rows in `order`, then the values the page must offer wherever they
 * rank, looked up by `key` (docs/crud.md "Many-to-one selects"). `keep` says how those values are read from the
 * form's: one value (a many-to-one), a list of ids (a multiple select), rows of links (links with pivot fields).
 */
export interface CrudChoices {
  readonly select: string;
  readonly key: string;
  readonly order: CrudOrder;
  readonly keys: 'int' | 'text';
  readonly keep: 'value' | 'ids' | 'rows';
}

/** The value a new pivot row gets for a column the form does not edit: the current UTC date, time or both, a constant, empty bytes. */
export type CrudPivotDefault = { readonly now: 'datetime' | 'date' | 'time' } | { readonly value: string | number | null } | { readonly bytes: 0 };

/** A many-to-many relation seen from this entity, by form field: its pivot table, the columns the form edits (`rows`) and the defaults of the others. */
export interface CrudLinkDescription {
  readonly table: string;
  readonly ownColumn: string;
  readonly otherColumn: string;
  /** True when the form edits pivot fields (LinkRowsField: `fields`, by form name → column); else a list of ids. */
  readonly rows: boolean;
  readonly fields?: Readonly<Record<string, string>>;
  readonly defaults?: Readonly<Record<string, CrudPivotDefault>>;
}

/** The description of one entity's CRUD pages, as `fw make:crud` and `fw sync:entity` write it. */
export interface CrudDescription<C extends CrudEntityClass, L extends string> {
  readonly entity: C;
  /** The entity's name (`Contact`): the media rows name it. */
  readonly name: string;
  /** Route prefix (`/contacts`) and the folder of the views under `mvc/views/` (`contact`). */
  readonly base: string;
  readonly views: string;
  /** The prefix of the permissions a role block grants (`contact` → `contact.delete`). */
  readonly permission: string;
  /** What users read: the records (`Contacts`), one record (`Contact`), the total's words (`1 contact`, `2 contacts`). */
  readonly title: string;
  readonly label: string;
  readonly count: { readonly one: string; readonly many: string };
  readonly table: string;
  /** The primary key: its field and its column. */
  readonly key: { readonly name: string; readonly column: string };
  readonly list: ListSpec;
  /** The list's SELECT (its joins, no WHERE), `SELECT COUNT(*) AS total FROM <table> t`, the INSERT and the UPDATE (the key last). */
  readonly sql: { readonly select: string; readonly count: string; readonly insert: string; readonly update: string };
  /** The columns of the INSERT, in its order, as `toRow()` names them; the UPDATE's are the same but the key. */
  readonly columns: readonly string[];
  /** Columns of the list's rows that hold the label of a many-to-one target (`ville_id_label`): text or null. */
  readonly labels: readonly L[];
  /** Unique fields by the names the servers give their violation (a key, `table.column`, a column). */
  readonly unique: Readonly<Record<string, string>>;
  /** Foreign keys of other tables that refuse a delete (docs/crud.md "Deleting a record that others refer to"). */
  readonly references: readonly ReferenceSpec[];
  readonly links: Readonly<Record<string, CrudLinkDescription>>;
  /** Roles per permission (the role block); a permission it does not name is open. */
  readonly roles: Readonly<Partial<Record<CrudPermission, readonly string[]>>>;
  readonly details: readonly CrudDetail[];
  readonly csv: { readonly file: string; readonly header: readonly string[]; readonly fields: readonly string[] };
  /**
   * How a record is named (docs/crud.md "How a record is named"). With `pattern` (the entity's `display`), each
   * `{field}` replaced by its value: the detail's title, the flashes, the 409 text, the bulk-delete confirmation.
   * Without it (the default), `#<key>` then these fields on the bulk-delete confirmation, and the pages name a
   * record `<label> #<key>`.
   */
  readonly display: { readonly fields: readonly string[]; readonly pattern?: string };
  /** The selects' sources by form field; `filters`: the list filters with a select of records. */
  readonly choices: Readonly<Record<string, CrudChoices>>;
  readonly filters: readonly string[];
}
