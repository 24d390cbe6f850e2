/**
 * The framework's own tables against the database (`fw migration:make <name> --framework`; docs/upgrading.md
 * "The framework's tables"): each table a module describes once (runtime/db/ddl/table-spec.ts: auth, media, mail,
 * jobs, sessions) is compared with the table read from the database, column by column (type and NULL, after the
 * normalisation of `migration:diff`: `INT(11)` equals `INT`), then its indexes and unique keys by columns and
 * uniqueness (not by name), then its foreign keys by columns and referenced table. A module is compared when one of
 * its tables exists: a missing table of that module is one change, a module none of whose tables exists is not
 * the project's. The framework's tables are its own: a column or a key the description does not hold is an extra
 * one, which the migration drops.
 */
import { isInteger, parseSqlType, sameSqlType } from '../../compiler/sql-types.js';
import type { FrameworkChange, FrameworkTableDiff } from '../../emitters/framework-migration.js';
import { AUTH_TABLES } from '../../runtime/auth/schema.js';
import type { TableSpec } from '../../runtime/db/ddl/table-spec.js';
import { spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import { JOBS_TABLE_SPECS } from '../../runtime/jobs/schema.js';
import { MAIL_LOG_TABLE_SPEC } from '../../runtime/mail/schema.js';
import { MEDIA_TABLE_SPEC } from '../../runtime/media/schema.js';
import { SESSIONS_TABLE_SPEC } from '../../runtime/session/sessions-table.js';
import { displayType } from './diff.js';
import { dialectOf, listTables, readTable, type Handle, type TableInfo } from './schema.js';

/** A module's tables (`module`: its short name, as the command prints it), in the order they are created (a referenced table first). */
export interface FrameworkModule {
  readonly module: string;
  readonly specs: readonly TableSpec[];
}

/** Every module that describes tables of its own. */
export const FRAMEWORK_MODULES: readonly FrameworkModule[] = [
  { module: 'auth', specs: AUTH_TABLES.map((table) => table.spec) },
  { module: 'media', specs: [MEDIA_TABLE_SPEC] },
  // The outbox's messages are jobs (docs/mail.md): a project with mail_log needs the jobs tables too.
  { module: 'mail', specs: [...JOBS_TABLE_SPECS, MAIL_LOG_TABLE_SPEC] },
  { module: 'jobs', specs: JOBS_TABLE_SPECS },
  { module: 'sessions', specs: [SESSIONS_TABLE_SPEC] },
];

/** The type a column is declared with in `dialect`, as the description writes it. */
function expectedType(spec: TableSpec, name: string, dialect: DialectName): { type: string; nullable: boolean; rowid: boolean } {
  const column = spec.columns.find((c) => c.name === name)!;
  const rowid = dialect === 'sqlite' && column.autoIncrement && spec.primaryKey.length === 1 && spec.primaryKey[0] === name;
  const type = dialect === 'sqlite' ? (column.sqliteType ?? spellingOf('sqlite').declaredType(column.type)) : column.type;
  return { type, nullable: column.nullable && !spec.primaryKey.includes(name), rowid };
}

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name.toLowerCase() === b[i]!.toLowerCase());
}

/** The changes that bring `table` (null: absent) to `spec`; empty when they match. */
export function diffFrameworkTable(spec: TableSpec, table: TableInfo | null, dialect: DialectName): FrameworkChange[] {
  if (table === null) return [{ kind: 'table_missing' }];
  const changes: FrameworkChange[] = [];
  const byName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
  for (const column of spec.columns) {
    const actual = byName.get(column.name.toLowerCase());
    byName.delete(column.name.toLowerCase());
    const wanted = expectedType(spec, column.name, dialect);
    const expected = `${displayType(wanted.type)} ${wanted.nullable ? 'NULL' : 'NOT NULL'}`;
    if (!actual) {
      changes.push({ kind: 'column_missing', column: column.name, detail: `attendu ${expected}` });
      continue;
    }
    const parsedActual = parseSqlType(actual.type);
    const parsedWanted = parseSqlType(wanted.type);
    const rowidOk = wanted.rowid && actual.rowid && parsedWanted !== null && isInteger(parsedWanted);
    const typeOk = rowidOk || (parsedActual !== null && parsedWanted !== null && sameSqlType(parsedActual, parsedWanted));
    if (!typeOk || actual.nullable !== wanted.nullable) {
      changes.push({
        kind: 'column_changed',
        column: column.name,
        detail: `attendu ${expected}, trouvé ${displayType(actual.type)} ${actual.nullable ? 'NULL' : 'NOT NULL'}`,
      });
    }
  }
  for (const extra of byName.values()) {
    changes.push({ kind: 'column_extra', column: extra.name, detail: `${displayType(extra.type)} absente de la description` });
  }
  const wantedKeys = [...spec.uniques.map((key) => ({ ...key, unique: true })), ...spec.indexes.map((key) => ({ ...key, unique: false }))];
  const actualKeys = [...table.indexes];
  for (const key of wantedKeys) {
    const found = actualKeys.findIndex((index) => index.unique === key.unique && sameColumns(index.columns, key.columns));
    if (found >= 0) actualKeys.splice(found, 1);
    else changes.push({ kind: 'key_missing', key });
  }
  for (const key of actualKeys) changes.push({ kind: 'key_extra', key });
  const actualForeignKeys = [...table.foreignKeys];
  for (const fk of spec.foreignKeys) {
    const found = actualForeignKeys.findIndex(
      (info) =>
        sameColumns(info.columns, fk.columns) && info.refTable.toLowerCase() === fk.refTable.toLowerCase() && sameColumns(info.refColumns, fk.refColumns),
    );
    if (found >= 0) actualForeignKeys.splice(found, 1);
    else changes.push({ kind: 'fk_missing', foreignKey: fk });
  }
  for (const fk of actualForeignKeys) changes.push({ kind: 'fk_extra', foreignKey: fk });
  return changes;
}

/**
 * The modules of the framework whose tables the database holds (at least one), each table compared with its
 * description; only the tables with a change are returned, in the modules' order.
 */
export async function diffFrameworkTables(handle: Handle): Promise<{ modules: string[]; diffs: FrameworkTableDiff[] }> {
  const present = new Set((await listTables(handle)).map((name) => name.toLowerCase()));
  const dialect = dialectOf(handle);
  const modules: string[] = [];
  const diffs: FrameworkTableDiff[] = [];
  const compared = new Set<string>();
  for (const { module, specs } of FRAMEWORK_MODULES) {
    if (!specs.some((spec) => present.has(spec.table.toLowerCase()))) continue;
    modules.push(module);
    for (const spec of specs) {
      // A table two modules need (the jobs tables, for mail and jobs) is compared once.
      if (compared.has(spec.table)) continue;
      compared.add(spec.table);
      const table = present.has(spec.table.toLowerCase()) ? await readTable(handle, spec.table) : null;
      const changes = diffFrameworkTable(spec, table, dialect);
      if (changes.length > 0) diffs.push({ spec, changes });
    }
  }
  return { modules, diffs };
}
