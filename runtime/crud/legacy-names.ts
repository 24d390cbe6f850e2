/**
 * The names a crud module exported before its description became data (`TITLE`, `LIST`, `SELECT`, `allowed`,
 * `formChoices`…), computed from the description: a controller or a model made by an older `fw make:crud` imports
 * them (`import * as crud from '../models/contact_crud.js'`), and the regenerated `<snake>_crud.ts` exports them
 * again while one does (docs/upgrading.md "The CRUD in the runtime").
 */
import type { Transaction } from '../db/database.js';
import type { Row } from '../db/database.js';
import type { Choice } from '../forms/field.js';
import type { Request } from '../http/request.js';
import type { CrudEntityClass, CrudPermission, CrudRow } from './description.js';
import type { LinkSpec } from './links.js';
import type { ListSpec } from './list-query.js';
import type { ReferenceSpec } from './references.js';
import type { CrudDetailValue, CrudFilterOption, CrudLinks, CrudResource } from './resource.js';

/** The crud module of an older `fw make:crud`, as its controller and model read it. */
export interface LegacyCrudNames<R, E> {
  readonly TITLE: string;
  readonly LABEL: string;
  readonly CSV_FILE: string;
  readonly TABLE: string;
  readonly KEY_COLUMN: string;
  readonly KEY: string;
  readonly LIST: ListSpec;
  readonly SELECT: string;
  readonly COUNT: string;
  readonly INSERT: string;
  readonly UPDATE: string;
  readonly UNIQUE_KEYS: Readonly<Record<string, string>>;
  readonly REFERENCES: readonly ReferenceSpec[];
  readonly LINKS: Readonly<Record<string, LinkSpec>>;
  readonly ROLES: Readonly<Partial<Record<CrudPermission, readonly string[]>>>;
  readonly CSV_HEADER: readonly string[];
  countLabel(count: number): string;
  allowed(request: Request, permission: CrudPermission): boolean;
  allowedActions(request: Request): Record<CrudPermission, boolean>;
  insertValues(record: E): unknown[];
  updateValues(record: E, id: number): unknown[];
  saveLinks(id: number, links: CrudLinks, tx: Transaction): Promise<void>;
  toListRow(row: Row): R;
  formValues(row: R): Promise<Record<string, unknown>>;
  details(row: R): Promise<CrudDetailValue[]>;
  csvRow(row: R): unknown[];
  rowLabel(row: R): string;
  formChoices(keep?: Readonly<Record<string, unknown>>): Promise<Record<string, readonly Choice[]>>;
  filterChoices(filters: Readonly<Record<string, string>>): Promise<Record<string, CrudFilterOption[]>>;
}

/** The older crud module's names, read from `resource` (its functions bound to it). */
export function legacyCrudNames<C extends CrudEntityClass, L extends string>(resource: CrudResource<C, L>): LegacyCrudNames<CrudRow<C, L>, InstanceType<C>> {
  const d = resource.description;
  return {
    TITLE: d.title,
    LABEL: d.label,
    CSV_FILE: d.csv.file,
    TABLE: d.table,
    KEY_COLUMN: d.key.column,
    KEY: `t.${d.key.column}`,
    LIST: d.list,
    SELECT: d.sql.select,
    COUNT: d.sql.count,
    INSERT: d.sql.insert,
    UPDATE: d.sql.update,
    UNIQUE_KEYS: d.unique,
    REFERENCES: d.references,
    LINKS: resource.links,
    ROLES: d.roles,
    CSV_HEADER: d.csv.header,
    countLabel: (count) => resource.countLabel(count),
    allowed: (request, permission) => resource.allowed(request, permission),
    allowedActions: (request) => resource.allowedActions(request),
    insertValues: (record) => resource.insertValues(record),
    updateValues: (record, id) => resource.updateValues(record, id),
    saveLinks: (id, links, tx) => resource.saveLinks(id, links, tx),
    toListRow: (row) => resource.listRow(row),
    formValues: (row) => resource.formValues(row),
    details: (row) => resource.details(row),
    csvRow: (row) => resource.csvRow(row),
    rowLabel: (row) => resource.displayLabel(row),
    formChoices: (keep) => resource.formChoices(keep),
    filterChoices: (filters) => resource.filterChoices(filters),
  };
}
