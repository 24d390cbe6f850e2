/**
 * The constraints half of `migration:diff` (docs/entities.md "migration:diff"): each column's DEFAULT and the
 * table's CHECK constraints that the entity's generated SQL declares (emitters/sql-table-spec.ts, written by the
 * dialect's spelling), against those the catalogue reports. Compared by meaning (sql-meaning.ts), so that a table
 * made by the generator's own DDL is OK on both dialects whatever the server rewrote.
 */
import type { EntityNode } from '../../compiler/ir.js';
import type { CheckShape } from '../../emitters/migration.js';
import { entityDefault, fieldChecks } from '../../emitters/sql-table-spec.js';
import { spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import type { CheckSpec } from '../../runtime/db/ddl/table-spec.js';
import type { DiffRow } from './diff-row.js';
import type { CheckInfo, ColumnInfo } from './schema.js';
import { defaultMeaning, sqlMeaning } from './sql-meaning.js';

/** The CHECKs fw names (`ck_<table>_<column>_<kind>`): only those are reported when the entity no longer has them. */
export function isFrameworkCheck(name: string | null): boolean {
  return name !== null && /^ck_/i.test(name);
}

/** The test of a CHECK as the dialect writes it (what is inside `CHECK (…)`), or null when it writes none (SQLite: a pattern). */
export function checkTest(check: CheckSpec, dialect: DialectName): string | null {
  const clause = spellingOf(dialect).check(check);
  return clause === null ? null : clause.replace(/^CONSTRAINT\s+(?:`(?:[^`]|``)*`|"(?:[^"]|"")*")\s+CHECK\s*\(/, '').replace(/\)$/, '');
}

/**
 * The value a migration gave a NOT NULL column it added to a table that may hold rows, where the dialect needs one
 * (SQLite, emitters/migration.ts): `0` or `''`. When the entity has no default, it is not a difference.
 */
function addedColumnDefault(column: ColumnInfo, dialect: DialectName): boolean {
  if (!spellingOf(dialect).addedNotNullNeedsDefault || column.nullable) return false;
  const meaning = defaultMeaning(column.default, dialect);
  return meaning === defaultMeaning('0', dialect) || meaning === defaultMeaning("''", dialect);
}

/** The DEFAULT_* row of one column, or none when its DEFAULT means what the entity's does. */
export function diffDefault(entity: EntityNode, fieldColumn: string, actual: ColumnInfo, dialect: DialectName): DiffRow[] {
  const field = entity.fields.find((f) => f.column === fieldColumn);
  if (!field) return [];
  const expected = entityDefault(field);
  const want = defaultMeaning(expected, dialect);
  const have = defaultMeaning(actual.default, dialect);
  if (want === have) return [];
  const base = {
    column: field.column,
    field,
    defaultValue: { ...(expected === undefined ? {} : { expected }), ...(have === null ? {} : { actual: actual.default! }) },
  };
  if (want === null) {
    if (addedColumnDefault(actual, dialect)) return [];
    return [{ status: 'DEFAULT_EXTRA', detail: `DEFAULT ${actual.default} absent de l'entité`, ...base }];
  }
  if (have === null) return [{ status: 'DEFAULT_MISSING', detail: `attendu DEFAULT ${expected}, la colonne n'en a pas`, ...base }];
  return [{ status: 'DEFAULT_CHANGED', detail: `attendu DEFAULT ${expected}, trouvé DEFAULT ${actual.default}`, ...base }];
}

/**
 * CHECK_* rows (OK included), in the entity's field order, extras last. A CHECK of the table that means what one of
 * the entity's does is OK whatever its name; one with an entity CHECK's name but another test is CHANGED; a
 * framework-named one the entity no longer has is EXTRA (any other, a hand-written one or MariaDB's `json_valid`,
 * is the user's and left alone). `rename` maps a column the table still has to its new name.
 */
export function diffChecks(entity: EntityNode, actual: readonly CheckInfo[], dialect: DialectName, rename: (name: string) => string): DiffRow[] {
  const expected = fieldChecks(entity.table, entity.fields).flatMap((check) => {
    const test = checkTest(check, dialect);
    return test === null ? [] : [{ check, test, meaning: sqlMeaning(test, dialect) }];
  });
  const left = actual.map((check) => ({ check, meaning: sqlMeaning(check.clause, dialect, rename) }));
  const take = (match: (a: (typeof left)[number]) => boolean): (typeof left)[number] | undefined => {
    const index = left.findIndex(match);
    return index === -1 ? undefined : left.splice(index, 1)[0];
  };
  const found = expected.map((e) => take((a) => a.meaning === e.meaning));
  const rows = expected.map((e, i): DiffRow => {
    const shape: CheckShape = { name: e.check.name, clause: e.test };
    if (found[i]) return { status: 'OK', column: e.check.name, detail: `CHECK (${e.test})`, check: { expected: e.check, actual: shapeOf(found[i].check) } };
    const same = take((a) => a.check.name !== null && a.check.name.toLowerCase() === e.check.name.toLowerCase());
    if (same) {
      return {
        status: 'CHECK_CHANGED',
        column: e.check.name,
        detail: `attendu CHECK (${shape.clause}), trouvé CHECK (${same.check.clause})`,
        check: { expected: e.check, actual: shapeOf(same.check) },
      };
    }
    return { status: 'CHECK_MISSING', column: e.check.name, detail: `attendu CHECK (${shape.clause})`, check: { expected: e.check } };
  });
  for (const { check } of left) {
    if (!isFrameworkCheck(check.name)) continue;
    rows.push({ status: 'CHECK_EXTRA', column: check.name!, detail: `CHECK (${check.clause}) absente de l'entité`, check: { actual: shapeOf(check) } });
  }
  return rows;
}

function shapeOf(check: CheckInfo): CheckShape {
  return { name: check.name, clause: check.clause };
}
