/** SQLite's catalogue (runtime/db/catalogue.ts): `sqlite_master` and the table pragmas. */
import { groupBy, type Catalogue, type ForeignKeyInfo, type IndexInfo } from '../../catalogue.js';
import type { Queryable } from '../../database.js';
import { createTableChecks } from './create-table-checks.js';

async function tableExists(handle: Queryable, table: string): Promise<boolean> {
  const row = await handle.fetchOne("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?", [table]);
  return row !== null;
}

export const sqliteCatalogue: Catalogue = {
  async readColumns(handle, table) {
    if (!(await tableExists(handle, table))) return null;
    const columns = await handle.fetchAll<{ name: string; type: string; not_null: number; pk: number; dflt_value: string | null }>(
      'SELECT name, type, "notnull" AS not_null, pk, dflt_value FROM pragma_table_info(?) ORDER BY cid',
      [table],
    );
    const indexes = await handle.fetchAll<{ name: string; is_unique: number }>('SELECT name, "unique" AS is_unique FROM pragma_index_list(?)', [table]);
    const unique = new Set<string>();
    const indexed = new Set<string>();
    for (const index of indexes) {
      const parts = await handle.fetchAll<{ name: string | null }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [index.name]);
      const first = parts[0]?.name;
      if (!first) continue;
      if (index.is_unique && parts.length === 1) unique.add(first);
      else indexed.add(first);
    }
    const singleKey = columns.filter((column) => column.pk > 0).length === 1;
    return columns.map((column) => ({
      name: column.name,
      type: column.type,
      // SQLite lets a non-INTEGER primary key hold NULL unless NOT NULL is written; report what the table allows.
      nullable: column.not_null === 0 && !(column.pk > 0 && /^INTEGER$/i.test(column.type)),
      key: column.pk > 0 ? 'PRI' : unique.has(column.name) ? 'UNI' : indexed.has(column.name) ? 'MUL' : '',
      rowid: singleKey && column.pk > 0 && /^INTEGER$/i.test(column.type),
      // The DEFAULT's text as CREATE TABLE or ADD COLUMN wrote it.
      default: column.dflt_value ?? null,
    }));
  },

  /** PRAGMA index_list / index_info; a UNIQUE constraint of CREATE TABLE has the origin `u`. */
  async readIndexes(handle, table) {
    const list = await handle.fetchAll<{ name: string; is_unique: number; origin: string; partial: number }>(
      'SELECT name, "unique" AS is_unique, origin, partial FROM pragma_index_list(?) ORDER BY name',
      [table],
    );
    const indexes: IndexInfo[] = [];
    for (const index of list.filter((i) => i.origin !== 'pk')) {
      const parts = await handle.fetchAll<{ name: string | null }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [index.name]);
      indexes.push({
        name: index.name,
        columns: parts.map((part) => part.name ?? '<expression>'),
        unique: index.is_unique === 1,
        constraint: index.origin === 'u',
      });
    }
    return indexes;
  },

  /** PRAGMA foreign_key_list, where a key written without its parent columns refers to the parent's primary key. */
  async readForeignKeys(handle, table) {
    const rows = await handle.fetchAll<{ id: number; table: string; from: string; to: string | null; on_delete: string; on_update: string }>(
      'SELECT id, "table", "from", "to", on_delete, on_update FROM pragma_foreign_key_list(?) ORDER BY id, seq',
      [table],
    );
    const keys: ForeignKeyInfo[] = [];
    for (const { first, rows: parts } of groupBy(rows, (row) => String(row.id))) {
      let refColumns = parts.map((part) => part.to);
      if (refColumns.some((column) => column === null)) {
        const parent = await handle.fetchAll<{ name: string }>('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk', [first.table]);
        refColumns = parent.map((column) => column.name);
      }
      keys.push({
        name: null,
        columns: parts.map((part) => part.from),
        refTable: first.table,
        refColumns: refColumns.map((column) => column ?? ''),
        onDelete: first.on_delete.toUpperCase(),
        onUpdate: first.on_update.toUpperCase(),
      });
    }
    return keys;
  },

  /** The table constraints of the CREATE TABLE text sqlite_master keeps (create-table-checks.ts). */
  async readChecks(handle, table) {
    const row = await handle.fetchOne<{ sql: string | null }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table]);
    return row?.sql ? createTableChecks(row.sql) : [];
  },

  tableExists,

  /** Its internal `sqlite_*` tables excluded. */
  async listTables(handle) {
    const rows = await handle.fetchAll<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    );
    return rows.map((row) => row.name);
  },

  /** SQLite does not name its constraints. */
  async constraintExists() {
    return false;
  },

  /** Index names are per database. */
  async indexExists(handle, _table, name) {
    const row = await handle.fetchOne("SELECT 1 AS found FROM sqlite_master WHERE type = 'index' AND name = ?", [name]);
    return row !== null;
  },
};
