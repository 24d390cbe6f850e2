/**
 * Many-to-many links of the generated CRUD pages (docs/crud.md "Many-to-many links"): the ids a form posts are saved in
 * the pivot table with the record, in its transaction. Table and column names come from the generated crud module,
 * never from the request; every id goes through a `?`.
 */
import { execute, fetchAll, type Transaction } from '../db/database.js';
import { placeholders } from './ids.js';

/** Where the links of one many-to-many relation live, seen from one side. */
export interface LinkSpec {
  /** The pivot table. */
  readonly table: string;
  /** Its column holding the record's key, and the one holding the other side's. */
  readonly ownColumn: string;
  readonly otherColumn: string;
  /** Extra pivot columns the form does not edit, and the value each new link gets (a default). */
  readonly extra?: Readonly<Record<string, () => unknown>>;
  /** Extra pivot columns the form edits (LinkRowsField), by form field name: `{ date_injection: 'DateInjection' }`. */
  readonly fields?: Readonly<Record<string, string>>;
}

/** One link with its pivot values, by form field name (what LinkRowsField cleans to). */
export interface PivotLink {
  readonly id: number;
  readonly values: Readonly<Record<string, unknown>>;
}

/** How many ids one statement carries at most: far below SQLite's and MariaDB's limits on parameters. */
const CHUNK = 500;

/** The other side's ids linked to `id`, in ascending order. */
export async function linkedIds(spec: LinkSpec, id: number, tx?: Transaction): Promise<number[]> {
  const rows = await fetchAll<{ other: unknown }>(
    `SELECT ${spec.otherColumn} AS other FROM ${spec.table} WHERE ${spec.ownColumn} = ? ORDER BY ${spec.otherColumn}`,
    [id],
    tx,
  );
  return rows.map((row) => Number(row.other));
}

/**
 * Makes the links of `id` exactly `ids`: removes the others, adds the missing ones with the extra columns' defaults,
 * leaves the links that stay untouched (their extra columns keep their values). Returns what changed.
 */
export async function replaceLinks(spec: LinkSpec, id: number, ids: readonly number[], tx: Transaction): Promise<{ added: number; removed: number }> {
  const wanted = [...new Set(ids)];
  const current = new Set(await linkedIds(spec, id, tx));
  const removed = [...current].filter((other) => !wanted.includes(other));
  const added = wanted.filter((other) => !current.has(other));
  for (let i = 0; i < removed.length; i += CHUNK) {
    const chunk = removed.slice(i, i + CHUNK);
    await execute(`DELETE FROM ${spec.table} WHERE ${spec.ownColumn} = ? AND ${spec.otherColumn} IN (${placeholders(chunk.length)})`, [id, ...chunk], tx);
  }
  const extra = Object.entries(spec.extra ?? {});
  const columns = [spec.ownColumn, spec.otherColumn, ...extra.map(([column]) => column)];
  const perRow = `(${placeholders(columns.length)})`;
  const rowsPerStatement = Math.max(1, Math.floor(CHUNK / columns.length));
  for (let i = 0; i < added.length; i += rowsPerStatement) {
    const chunk = added.slice(i, i + rowsPerStatement);
    const params = chunk.flatMap((other) => [id, other, ...extra.map(([, value]) => value())]);
    await execute(`INSERT INTO ${spec.table} (${columns.join(', ')}) VALUES ${chunk.map(() => perRow).join(', ')}`, params, tx);
  }
  return { added: added.length, removed: removed.length };
}

/** The links of `id` with the values of their edited pivot columns, by field name, in the other side's id order. */
export async function linkRows(spec: LinkSpec, id: number, tx?: Transaction): Promise<PivotLink[]> {
  const fields = Object.entries(spec.fields ?? {});
  const columns = [`${spec.otherColumn} AS other`, ...fields.map(([, column], i) => `${column} AS v${i}`)];
  const rows = await fetchAll<Record<string, unknown>>(
    `SELECT ${columns.join(', ')} FROM ${spec.table} WHERE ${spec.ownColumn} = ? ORDER BY ${spec.otherColumn}`,
    [id],
    tx,
  );
  return rows.map((row) => ({ id: Number(row.other), values: Object.fromEntries(fields.map(([name], i) => [name, row[`v${i}`] ?? null])) }));
}

/**
 * Makes the links of `id` exactly `links`, with their pivot values: removes the others, updates the edited columns
 * of the links that stay, inserts the new ones (the columns the form does not edit get their default). In the
 * caller's transaction: all or nothing with the record.
 */
export async function saveLinkRows(
  spec: LinkSpec,
  id: number,
  links: readonly PivotLink[],
  tx: Transaction,
): Promise<{ added: number; updated: number; removed: number }> {
  const wanted = new Map(links.map((link) => [link.id, link]));
  const current = new Set(await linkedIds(spec, id, tx));
  const removed = [...current].filter((other) => !wanted.has(other));
  for (let i = 0; i < removed.length; i += CHUNK) {
    const chunk = removed.slice(i, i + CHUNK);
    await execute(`DELETE FROM ${spec.table} WHERE ${spec.ownColumn} = ? AND ${spec.otherColumn} IN (${placeholders(chunk.length)})`, [id, ...chunk], tx);
  }
  const fields = Object.entries(spec.fields ?? {});
  const extra = Object.entries(spec.extra ?? {});
  const valuesOf = (link: PivotLink): unknown[] => fields.map(([name]) => link.values[name] ?? null);
  let updated = 0;
  for (const link of wanted.values()) {
    if (!current.has(link.id) || fields.length === 0) continue;
    const set = fields.map(([, column]) => `${column} = ?`).join(', ');
    await execute(`UPDATE ${spec.table} SET ${set} WHERE ${spec.ownColumn} = ? AND ${spec.otherColumn} = ?`, [...valuesOf(link), id, link.id], tx);
    updated++;
  }
  const added = [...wanted.values()].filter((link) => !current.has(link.id));
  const columns = [spec.ownColumn, spec.otherColumn, ...fields.map(([, column]) => column), ...extra.map(([column]) => column)];
  const perRow = `(${placeholders(columns.length)})`;
  const rowsPerStatement = Math.max(1, Math.floor(CHUNK / columns.length));
  for (let i = 0; i < added.length; i += rowsPerStatement) {
    const chunk = added.slice(i, i + rowsPerStatement);
    const params = chunk.flatMap((link) => [id, link.id, ...valuesOf(link), ...extra.map(([, value]) => value())]);
    await execute(`INSERT INTO ${spec.table} (${columns.join(', ')}) VALUES ${chunk.map(() => perRow).join(', ')}`, params, tx);
  }
  return { added: added.length, updated, removed: removed.length };
}

/**
 * The keys the rows of a LinkRowsField must offer whatever their rank: the links of the record edited (`keep[name]`,
 * links or ids) and the ids posted, in a plain list or in its rows (`<name>.<i>`).
 */
export function linkRowKeys(keep: Readonly<Record<string, unknown>>, name: string): string[] {
  const rowKeys = Object.keys(keep).filter((key) => key.startsWith(`${name}.`) && /^\d{1,6}$/.test(key.slice(name.length + 1)));
  return relatedKeys([keep[name], ...rowKeys.map((key) => keep[key])].flat());
}

/**
 * The keys a many-to-many select must offer whatever their rank (the record's links, the values posted), from a
 * list of ids, a request's list of values or a comma list (`'1,2'`), as RelatedIdsField reads them.
 */
export function relatedKeys(value: unknown): string[] {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  const keys: string[] = [];
  for (const entry of items) {
    // A link with its pivot values (LinkRowsField, `linkRows`) stands for its id.
    const item = typeof entry === 'object' && entry !== null && 'id' in entry ? entry.id : entry;
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'bigint') continue;
    for (const piece of String(item).split(',')) {
      const key = piece.trim();
      if (key !== '' && !keys.includes(key)) keys.push(key);
    }
  }
  return keys;
}

/** A pivot value on the detail page: its label and how it is shown (a date as users read it, Oui / Non). */
export interface LinkDetailField {
  readonly label: string;
  readonly show: (value: unknown) => unknown;
}

/** One link on the detail page: the other side's label and the pivot's values. */
export interface LinkDetail {
  readonly label: string;
  readonly values: Array<{ label: string; value: string }>;
}

/**
 * The detail page's entry of a link with pivot values, from rows `{ label, v0, v1, … }` (one column per field, in
 * `fields` order): `links` for a template that lists them, and `value`, the same as one text (`Rage (Date : 12/03/2025 ;
 * Rang : 1), …`) for a template that prints `field.value`. An empty value shows as « — ».
 */
export function linkDetails(
  label: string,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  fields: readonly LinkDetailField[],
): { label: string; value: string; links: LinkDetail[] } {
  const links = rows.map((row) => ({
    label: String(row.label ?? ''),
    values: fields.map((field, i) => {
      const raw = row[`v${i}`];
      const shown = raw === null || raw === undefined || raw === '' ? '' : String(field.show(raw) ?? '');
      return { label: field.label, value: shown === '' ? '—' : shown };
    }),
  }));
  const value = links
    .map((link) => (link.values.length ? `${link.label} (${link.values.map((v) => `${v.label}\u00a0: ${v.value}`).join(' ; ')})` : link.label))
    .join(', ');
  return { label, value, links };
}
