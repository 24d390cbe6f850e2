/** MariaDB's catalogue (runtime/db/catalogue.ts): information_schema of the current database. */
import { groupBy, type Catalogue, type IndexInfo } from '../../catalogue.js';
import type { Queryable } from '../../database.js';

async function tableExists(handle: Queryable, table: string): Promise<boolean> {
  const row = await handle.fetchOne(
    "SELECT 1 AS found FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND TABLE_TYPE = 'BASE TABLE'",
    [table],
  );
  return row !== null;
}

export const mariadbCatalogue: Catalogue = {
  async readColumns(handle, table) {
    const rows = await handle.fetchAll<{ name: string; type: string; nullable: string; column_key: string; column_default: string | null }>(
      `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLUMN_KEY AS column_key, COLUMN_DEFAULT AS column_default
         FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?
        ORDER BY ORDINAL_POSITION`,
      [table],
    );
    if (rows.length === 0) return (await tableExists(handle, table)) ? [] : null;
    // MariaDB 10.2.7 and later report a default as an SQL expression (`'abc'`, `18`, `NULL`).
    return rows.map((row) => ({
      name: row.name,
      type: row.type,
      nullable: row.nullable === 'YES',
      key: row.column_key ?? '',
      rowid: false,
      default: row.column_default ?? null,
    }));
  },

  /** information_schema.STATISTICS. */
  async readIndexes(handle, table): Promise<IndexInfo[]> {
    const rows = await handle.fetchAll<{ name: string; non_unique: number | string; column_name: string | null }>(
      `SELECT INDEX_NAME AS name, NON_UNIQUE AS non_unique, COLUMN_NAME AS column_name
         FROM information_schema.STATISTICS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY'
        ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
      [table],
    );
    return groupBy(rows, (row) => row.name).map(({ first, rows: parts }) => ({
      name: first.name,
      columns: parts.map((part) => part.column_name ?? '<expression>'),
      unique: Number(first.non_unique) === 0,
      constraint: false,
    }));
  },

  /** information_schema KEY_COLUMN_USAGE and REFERENTIAL_CONSTRAINTS. */
  async readForeignKeys(handle, table) {
    const rows = await handle.fetchAll<{ name: string; column_name: string; ref_table: string; ref_column: string; on_delete: string; on_update: string }>(
      `SELECT k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS column_name, k.REFERENCED_TABLE_NAME AS ref_table,
              k.REFERENCED_COLUMN_NAME AS ref_column, r.DELETE_RULE AS on_delete, r.UPDATE_RULE AS on_update
         FROM information_schema.KEY_COLUMN_USAGE k
         JOIN information_schema.REFERENTIAL_CONSTRAINTS r
           ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.TABLE_NAME = k.TABLE_NAME AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
        WHERE k.TABLE_SCHEMA = DATABASE() AND k.TABLE_NAME = ? AND k.REFERENCED_TABLE_NAME IS NOT NULL
        ORDER BY k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
      [table],
    );
    return groupBy(rows, (row) => row.name).map(({ first, rows: parts }) => ({
      name: first.name,
      columns: parts.map((part) => part.column_name),
      refTable: first.ref_table,
      refColumns: parts.map((part) => part.ref_column),
      onDelete: first.on_delete.toUpperCase(),
      onUpdate: first.on_update.toUpperCase(),
    }));
  },

  /** information_schema.CHECK_CONSTRAINTS (MariaDB 10.2.22: its names are per table, so is its TABLE_NAME column). */
  async readChecks(handle, table) {
    const rows = await handle.fetchAll<{ name: string; clause: string }>(
      `SELECT CONSTRAINT_NAME AS name, CHECK_CLAUSE AS clause
         FROM information_schema.CHECK_CONSTRAINTS
        WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = ?
        ORDER BY CONSTRAINT_NAME`,
      [table],
    );
    return rows.map((row) => ({ name: row.name, clause: row.clause }));
  },

  tableExists,

  async listTables(handle) {
    const rows = await handle.fetchAll<{ name: string }>(
      "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
    );
    return rows.map((row) => row.name);
  },

  async constraintExists(handle, table, name) {
    const row = await handle.fetchOne(
      `SELECT 1 AS found FROM information_schema.TABLE_CONSTRAINTS
      WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = ? AND CONSTRAINT_NAME = ?`,
      [table, name],
    );
    return row !== null;
  },

  /** Index names are per table. */
  async indexExists(handle, table, name) {
    const row = await handle.fetchOne(
      'SELECT 1 AS found FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = ? LIMIT 1',
      [table, name],
    );
    return row !== null;
  },
};
