/**
 * The auth SQL files `fw auth:init` writes (docs/auth.md "Setting up"): one file per table and dialect under
 * `mvc/models/sql/auth/`, `<table>.sql` for MariaDB and `<table>.sqlite.sql` for SQLite, from the runtime's own
 * table descriptions (runtime/auth/schema.ts, rendered by runtime/db/ddl/render.ts), in dependency order. Regenerable: `fw auth:init` rewrites a file while it
 * keeps its marker line; a user who removes that line owns the file, and `fw db:apply` then applies it as written.
 */
import { AUTH_TABLES, authTableSql, type AuthTable } from '../../runtime/auth/schema.js';
import { DIALECT_NAMES, spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import { sqlMarkerLine } from '../marker.js';
import type { PlannedFile } from '../planned-file.js';

/** Folder of the auth SQL files, relative to the project root. */
export const AUTH_SQL_DIR = 'mvc/models/sql/auth';

/** The command that writes (and rewrites) them. */
export const AUTH_INIT_COMMAND = 'fw auth:init';

/** `mvc/models/sql/auth/users.sql` (MariaDB) or `mvc/models/sql/auth/users.sqlite.sql`. */
export function authSqlPath(table: string, dialect: DialectName): string {
  return `${AUTH_SQL_DIR}/${table}${spellingOf(dialect).fileSuffix}`;
}

/** The whole file: marker line, what the table holds, the dialect, then the statements. */
export function authSqlContent(table: AuthTable, dialect: DialectName): string {
  return [
    sqlMarkerLine(AUTH_INIT_COMMAND),
    `-- Table ${table.name} (${spellingOf(dialect).label}) : ${table.purpose}`,
    '',
    authTableSql(table, dialect),
    '',
  ].join('\n');
}

/** Every auth SQL file, table by table in dependency order, one per dialect in the order of DIALECT_NAMES. */
export function authSqlFiles(): PlannedFile[] {
  return AUTH_TABLES.flatMap((table) =>
    DIALECT_NAMES.map((dialect) => ({
      path: authSqlPath(table.name, dialect),
      content: authSqlContent(table, dialect),
      kind: 'regenerable' as const,
    })),
  );
}
