/**
 * `defineCrud()`: one entity's description (description.ts), as the regenerable `<snake>_crud.ts` writes it, and
 * what every page reads from it: the role check, a list row, the values of INSERT and UPDATE, the links saved with a
 * record, the edit form's values, the detail page, the CSV row, how a record is named, the choices of the selects
 * (docs/decisions.md "The CRUD in the runtime"). The same code for every entity: a fix reaches every project.
 */
import { fetchAll, type Row, type Transaction } from '../db/database.js';
import type { DuplicateError } from '../db/errors.js';
import { formatUtcDateTime } from '../db/params.js';
import type { Choice } from '../forms/field.js';
import type { Request } from '../http/request.js';
import { trans } from '../translations.js';
import { userHasRole } from '../session/session.js';
import { formatDate } from '../templates/format-date.js';
import { formatNumber } from '../templates/format-number.js';
import { userCan } from '../templates/nunjucks.js';
import { labelFromPattern } from '../templates/record-label.js';
import { CHOICES_MAX, missingChoiceKeys } from './choices.js';
import { csvSeparator } from './csv.js';
import type { CrudChoices, CrudDescription, CrudEntityClass, CrudOrder, CrudPermission, CrudPivotDefault, CrudRow, CrudShow } from './description.js';
import { placeholders } from './ids.js';
import { linkDetails, linkRowKeys, linkRows, linkedIds, relatedKeys, replaceLinks, saveLinkRows, type LinkSpec, type PivotLink } from './links.js';
import { textOrder } from './list-query.js';

/** Many-to-many links saved with a record, by form field (the form's cleaned values hold them): ids, or links with their pivot values. */
export type CrudLinks = Readonly<Record<string, unknown>>;

/** One entry of the detail page: a label and a value; a many-to-many with pivot values also gives each link (`links`). */
export interface CrudDetailValue {
  readonly label: string;
  readonly value: unknown;
  readonly links?: ReadonlyArray<{ label: string; values: Array<{ label: string; value: string }> }>;
}

/** An option of a list filter's select. */
export interface CrudFilterOption {
  readonly value: string;
  readonly label: string;
}

const PERMISSIONS: readonly CrudPermission[] = ['index', 'show', 'create', 'update', 'delete', 'export'];

/** `ORDER BY <column>, <key>`, a text column in MariaDB's order on SQLite too. */
function orderBy(order: CrudOrder): string {
  return `ORDER BY ${order.text ? textOrder(order.column) : order.column}, ${order.key}`;
}

function shown(value: unknown, show: CrudShow | undefined): unknown {
  switch (show) {
    case 'date':
      return formatDate(value);
    case 'number':
      return formatNumber(value);
    case 'bool':
      return value ? trans('crud.yes') : trans('crud.no');
    default:
      return value;
  }
}

/** A pivot value on the detail page: a date as users read it, Oui / Non (stored as 0 / 1), a number with the locale's separator. */
function shownPivot(value: unknown, show: CrudShow | undefined): unknown {
  return show === 'bool' ? (Number(value) ? trans('crud.yes') : trans('crud.no')) : shown(value, show);
}

function pivotDefault(value: CrudPivotDefault): () => unknown {
  if ('now' in value) {
    if (value.now === 'date') return () => formatUtcDateTime(new Date()).slice(0, 10);
    if (value.now === 'time') return () => formatUtcDateTime(new Date()).slice(11);
    return () => formatUtcDateTime(new Date());
  }
  if ('bytes' in value) return () => Buffer.alloc(0);
  return () => value.value;
}

/** The CRUD pages of one entity as its description gives them. */
const NO_FIELDS: ReadonlySet<string> = new Set();

export class CrudResource<C extends CrudEntityClass = CrudEntityClass, L extends string = string> {
  readonly name: string;
  readonly base: string;
  readonly views: string;
  readonly title: string;
  readonly label: string;
  readonly table: string;
  readonly key: { readonly name: string; readonly column: string };
  readonly list: CrudDescription<C, L>['list'];
  readonly sql: CrudDescription<C, L>['sql'];
  /** The pivot tables of the many-to-many relations, by form field, as the link functions read them. */
  readonly links: Readonly<Record<string, LinkSpec>>;
  readonly #updateColumns: readonly string[];
  #numbers: ReadonlySet<string> | undefined;

  constructor(readonly description: CrudDescription<C, L>) {
    const d = description;
    this.name = d.name;
    this.base = d.base;
    this.views = d.views;
    this.title = d.title;
    this.label = d.label;
    this.table = d.table;
    this.key = d.key;
    this.list = d.list;
    this.sql = d.sql;
    this.links = Object.fromEntries(
      Object.entries(d.links).map(([name, link]) => {
        const spec: LinkSpec = {
          table: link.table,
          ownColumn: link.ownColumn,
          otherColumn: link.otherColumn,
          ...(link.fields ? { fields: link.fields } : {}),
          ...(link.defaults ? { extra: Object.fromEntries(Object.entries(link.defaults).map(([column, value]) => [column, pivotDefault(value)])) } : {}),
        };
        return [name, spec];
      }),
    );
    this.#updateColumns = d.columns.filter((column) => column !== d.key.column);
  }

  /**
   * Whether the signed-in user may do `permission`: one of its roles, or the `<entity>.<permission>` permission (the
   * `admin` role holds them all). A permission the role block does not name is open to every signed-in user (or to
   * anyone, on public routes). docs/crud.md "Permissions".
   */
  allowed(request: Request, permission: CrudPermission): boolean {
    const roles = this.description.roles[permission];
    if (!roles) return true;
    return userCan(request, `${this.description.permission}.${permission}`) || roles.some((role) => userHasRole(request, role));
  }

  /** The actions the pages offer to the signed-in user (`allowed` in the views); the CSV holds the list's rows: `index` and `export`. */
  allowedActions(request: Request): Record<CrudPermission, boolean> {
    const allowed = Object.fromEntries(PERMISSIONS.map((permission) => [permission, this.allowed(request, permission)])) as Record<CrudPermission, boolean>;
    allowed.export = allowed.index && allowed.export;
    return allowed;
  }

  /** The list's total as users read it: `1 contact`, `2 contacts`. */
  countLabel(count: number): string {
    return `${count} ${count === 1 ? this.description.count.one : this.description.count.many}`;
  }

  /** A row of the list or of the detail page: the entity, and its many-to-one targets' labels as text (or null). */
  listRow(row: Row): CrudRow<C, L> {
    const record = this.description.entity.fromRow(row) as unknown as Record<string, unknown>;
    for (const key of this.description.labels) {
      const label = row[key];
      record[key] = label === null || label === undefined ? null : String(label);
    }
    return record as CrudRow<C, L>;
  }

  /** The values of INSERT, in its column order. */
  insertValues(record: InstanceType<C>): unknown[] {
    const row = record.toRow() as Record<string, unknown>;
    return this.description.columns.map((column) => row[column]);
  }

  /** The values of UPDATE, in its column order, the key last. */
  updateValues(record: InstanceType<C>, id: number): unknown[] {
    const row = record.toRow() as Record<string, unknown>;
    return [...this.#updateColumns.map((column) => row[column]), id];
  }

  /** Saves the record's many-to-many links given by the form (absent: left as they are), in the record's transaction. */
  async saveLinks(id: number, links: CrudLinks, tx: Transaction): Promise<void> {
    for (const [name, link] of Object.entries(this.description.links)) {
      const value = links[name];
      if (!value) continue;
      if (link.rows) await saveLinkRows(this.links[name]!, id, value as readonly PivotLink[], tx);
      else await replaceLinks(this.links[name]!, id, value as readonly number[], tx);
    }
  }

  /** The edit form's values: the record and its links. */
  async formValues(row: CrudRow<C, L>): Promise<Record<string, unknown>> {
    const values: Record<string, unknown> = { ...row };
    const id = this.idOf(row);
    for (const [name, link] of Object.entries(this.description.links)) {
      values[name] = link.rows ? await linkRows(this.links[name]!, id) : await linkedIds(this.links[name]!, id);
    }
    return values;
  }

  /** What the detail page shows, in the description's order: the fields, then the many-to-many links. */
  async details(row: CrudRow<C, L>): Promise<CrudDetailValue[]> {
    const values = row as unknown as Record<string, unknown>;
    const out: CrudDetailValue[] = [];
    for (const detail of this.description.details) {
      if ('field' in detail) {
        const value = detail.labelKey ? (values[detail.labelKey] ?? values[detail.field]) : shown(values[detail.field], detail.show);
        out.push({ label: detail.label, value });
        continue;
      }
      const sql = `${detail.sql} ${orderBy(detail.order)}`;
      const rows = await fetchAll<Record<string, unknown>>(sql, [this.idOf(row)]);
      const pivot = detail.values;
      if (pivot) {
        out.push(
          linkDetails(
            detail.label,
            rows,
            pivot.map((value) => ({ label: value.label, show: (v: unknown) => shownPivot(v, value.show) })),
          ),
        );
      } else {
        out.push({ label: detail.label, value: rows.map((r) => String(r.label ?? '')).join(', ') });
      }
    }
    return out;
  }

  /** The CSV export's header (the fields' labels, as on the pages). */
  get csvHeader(): readonly string[] {
    return this.description.csv.header;
  }

  /** The CSV file's name (`contacts.csv`). */
  get csvFile(): string {
    return this.description.csv.file;
  }

  /**
   * The cells of a row of the CSV export: the stored values, a decimal or float written with the locale's separator
   * when the file splits its cells on `;` (docs/crud.md "CSV export": `12,50` in French).
   */
  csvRow(row: CrudRow<C, L>): unknown[] {
    const values = row as unknown as Record<string, unknown>;
    const numbers = csvSeparator() === ';' ? this.numberFields : NO_FIELDS;
    return this.description.csv.fields.map((field) => (numbers.has(field) ? formatNumber(values[field]) : values[field]));
  }

  /** The fields the detail page shows as numbers (DECIMAL, FLOAT, DOUBLE). */
  private get numberFields(): ReadonlySet<string> {
    this.#numbers ??= new Set(this.description.details.flatMap((d) => ('show' in d && d.show === 'number' ? [d.field] : [])));
    return this.#numbers;
  }

  /**
   * How a record is named where the pages list records (the bulk-delete confirmation): `#4 Jean Dupont` with the
   * entity's `display`, else `#4` then the description's fields (`#4 Dupont`).
   */
  displayLabel(row: CrudRow<C, L>): string {
    const values = row as unknown as Record<string, unknown>;
    const key = `#${String(values[this.key.name])}`;
    if (this.description.display.pattern !== undefined) {
      const label = this.recordLabel(row);
      return label === null ? key : `${key} ${label}`;
    }
    const fields = this.description.display.fields.map((field) => String(values[field] ?? ''));
    return fields.length ? `${key} ${fields.join(' ')}` : key;
  }

  /**
   * The record's name as the entity's `display` gives it (`{prenom} {nom}` → `Jean Dupont`), as the label's SQL
   * writes it for other entities' selects: an empty value is empty text, spaces at both ends go. Null without
   * `display` (the pages then say `<label> #<key>`), or when every field is empty.
   */
  recordLabel(row: object): string | null {
    const pattern = this.description.display.pattern;
    return pattern === undefined ? null : labelFromPattern(pattern, row);
  }

  /** How a sentence names the record: `Propriétaire « Jean Dupont »` with `display`, else `Propriétaire #4`. */
  recordName(row: object | null, id: number): string {
    const label = row ? this.recordLabel(row) : null;
    return label === null ? `${this.label} #${id}` : `${this.label} « ${label} »`;
  }

  /** True when the entity's `display` names its records: the pages then read a record before naming it. */
  get names(): boolean {
    return this.description.display.pattern !== undefined;
  }

  /** The field of a unique violation (named by the server as a column or a key), or null (a message for the whole form). */
  duplicateField(err: DuplicateError): string | null {
    const unique = this.description.unique;
    for (const name of [err.constraint ?? '', ...err.columns]) if (Object.hasOwn(unique, name)) return unique[name]!;
    return null;
  }

  /**
   * The choices of the form's selects. `keep` gives, by field, the values a select must offer whatever their rank
   * among the targets: the record edited, the values posted.
   */
  async formChoices(keep: Readonly<Record<string, unknown>> = {}): Promise<Record<string, readonly Choice[]>> {
    const out: Record<string, readonly Choice[]> = {};
    for (const [name, source] of Object.entries(this.description.choices)) {
      const kept = source.keep === 'rows' ? linkRowKeys(keep, name) : source.keep === 'ids' ? relatedKeys(keep[name]) : [keep[name]];
      out[name] = await this.choices(name, kept);
    }
    return out;
  }

  /** The options of the list's filters that are selects of records; the active filter's value is always among them. */
  async filterChoices(filters: Readonly<Record<string, string>>): Promise<Record<string, CrudFilterOption[]>> {
    const out: Record<string, CrudFilterOption[]> = {};
    for (const name of this.description.filters) {
      out[name] = (await this.choices(name, [filters[name]])).map(([value, label]) => ({ value: String(value), label }));
    }
    return out;
  }

  /**
   * Choices of the select `name`: the first CHOICES_MAX records by label, then those of `keep` that come further down
   * (the record's value, the value posted, the active filter), so that a valid id is never refused nor dropped on
   * save. An unknown id finds no row: it stays out, and the form refuses it.
   */
  async choices(name: string, keep: readonly unknown[] = []): Promise<Choice[]> {
    const source: CrudChoices | undefined = this.description.choices[name];
    if (!source)
      throw new RangeError(`${this.name} : aucun choix « ${name} » dans la description (${Object.keys(this.description.choices).join(', ') || 'aucun'}).`);
    const order = orderBy(source.order);
    const rows = await fetchAll<{ id: unknown; label: unknown }>(`${source.select} ${order} LIMIT ?`, [CHOICES_MAX]);
    const missing = missingChoiceKeys(rows, keep, source.keys);
    if (missing.length > 0) {
      // Past the first rows in the same order, hence after them.
      rows.push(
        ...(await fetchAll<{ id: unknown; label: unknown }>(`${source.select} WHERE ${source.key} IN (${placeholders(missing.length)}) ${order}`, missing)),
      );
    }
    return rows.map((row) => [String(row.id), String(row.label ?? row.id)] as const);
  }

  /** The key of a row of the list. */
  idOf(row: object): number {
    return (row as Record<string, unknown>)[this.key.name] as number;
  }
}

/**
 * The CRUD pages of an entity, from its description (the regenerable `mvc/models/<snake>_crud.ts` calls it once):
 * `crudController()` and `crudModel()` read the object it returns.
 */
export function defineCrud<const C extends CrudEntityClass, const L extends string = never>(description: CrudDescription<C, L>): CrudResource<C, L> {
  return new CrudResource(description);
}
