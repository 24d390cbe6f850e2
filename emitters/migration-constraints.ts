/**
 * The statements of a DEFAULT or CHECK difference (`migration:make --from-diff`, docs/entities.md "migration:diff"): in place where
 * the dialect alters them (MariaDB `ALTER COLUMN … SET / DROP DEFAULT`, `ADD CONSTRAINT … CHECK`, `DROP CONSTRAINT`);
 * where it does not (SQLite), the table is rebuilt with the entity's DDL (emitters/migration.ts), which carries the
 * entity's defaults and CHECKs and no other. Pure functions.
 */
import type { DialectSpelling } from '../runtime/db/dialect.js';
import type { ChangeStatus, DiffChange } from './migration.js';
import type { TableSpec } from './sql-table-spec.js';

const CONSTRAINT_STATUSES: readonly ChangeStatus[] = ['DEFAULT_MISSING', 'DEFAULT_CHANGED', 'DEFAULT_EXTRA', 'CHECK_MISSING', 'CHECK_CHANGED', 'CHECK_EXTRA'];

/** A DEFAULT_* or CHECK_* change. */
export function isConstraintChange(change: DiffChange): boolean {
  return CONSTRAINT_STATUSES.includes(change.status);
}

/** True when the dialect writes no CHECK for this one (SQLite: a pattern), so that nothing is to change there. */
function unwritten(change: DiffChange, spelling: DialectSpelling): boolean {
  const { expected, actual } = change.check ?? {};
  if (expected) return spelling.check(expected) === null;
  // An extra read on another dialect: a pattern CHECK this one never writes.
  return actual?.name != null && /_pattern$/i.test(actual.name) && spelling.check({ name: actual.name, column: 'x', kind: 'pattern', value: 'x' }) === null;
}

/** A CHECK change this dialect has nothing to do for (a pattern on SQLite). */
export function nothingToDo(change: DiffChange, spelling: DialectSpelling): boolean {
  return change.status.startsWith('CHECK_') && unwritten(change, spelling);
}

/** On a dialect that rebuilds tables (SQLite): this change needs the rebuild. */
export function constraintNeedsRebuild(change: DiffChange, spelling: DialectSpelling): boolean {
  if (!isConstraintChange(change)) return false;
  return change.status.startsWith('DEFAULT_') || !unwritten(change, spelling);
}

/** The statements of one DEFAULT_* or CHECK_* change on `spec`'s table ([] where the rebuild does it). */
export function constraintStatements(spec: TableSpec, change: DiffChange, spelling: DialectSpelling): string[] {
  const table = spec.table;
  const written = (...statements: Array<string | null>): string[] => statements.filter((s): s is string => s !== null);
  if (nothingToDo(change, spelling)) {
    return [`-- ${change.column} : ${spelling.product} n'écrit pas de CHECK pour « pattern » (le formulaire le vérifie) ; rien à changer ici.`];
  }
  if (spelling.tableChanges === 'rebuild') return [];
  const { expected, actual } = change.check ?? {};
  switch (change.status) {
    case 'DEFAULT_MISSING':
    case 'DEFAULT_CHANGED': {
      const literal = spec.columns.find((c) => c.name === change.column)?.default;
      return literal === undefined ? [] : written(spelling.alterDefault(table, change.column, literal));
    }
    case 'DEFAULT_EXTRA':
      return written(spelling.alterDefault(table, change.column, null));
    case 'CHECK_MISSING':
      return expected ? written(spelling.addCheck(table, expected)) : [];
    case 'CHECK_CHANGED':
      // A diff read on SQLite may have no constraint name: the CHECK is the one fw names.
      return expected ? written(spelling.dropCheck(table, actual?.name ?? expected.name), spelling.addCheck(table, expected)) : [];
    case 'CHECK_EXTRA':
      return actual?.name ? written(spelling.dropCheck(table, actual.name)) : [];
    default:
      return [];
  }
}
