/**
 * The keys half of `migration:diff` (docs/entities.md): the indexes, unique keys and foreign keys an entity's
 * generated SQL declares (emitters/sql-table-spec.ts) against those of the real table. Compared by meaning —
 * columns and uniqueness for a key; columns, referenced table and columns, ON DELETE / ON UPDATE for a foreign
 * key — because the names differ between dialects (SQLite's `sqlite_autoindex_*`, its unnamed foreign keys).
 */
import type { EntityNode, ModelNode } from '../../compiler/ir.js';
import type { ForeignKeyShape, KeyShape } from '../../emitters/migration.js';
import { entityTableSpec, manyToOneForeignKey, manyToOneOf, type ForeignKeySpec } from '../../emitters/sql-table-spec.js';
import type { DiffRow } from './diff-row.js';
import type { ForeignKeyInfo, IndexInfo } from './schema.js';

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name.toLowerCase() === b[i]!.toLowerCase());
}

function describeKey(key: KeyShape): string {
  return `${key.unique ? 'UNIQUE' : 'INDEX'} (${key.columns.join(', ')})`;
}

function describeForeignKey(fk: ForeignKeyShape | ForeignKeySpec): string {
  return `FOREIGN KEY (${fk.columns.join(', ')}) → ${fk.refTable} (${fk.refColumns.join(', ')}) ON DELETE ${fk.onDelete} ON UPDATE ${fk.onUpdate}`;
}

/** The entity's unique keys and indexes, as its generated SQL names them (the same on both dialects). */
export function expectedIndexes(model: ModelNode, entity: EntityNode): KeyShape[] {
  const spec = entityTableSpec(model, entity, 'mariadb');
  return [...spec.uniques.map((k) => ({ ...k, unique: true })), ...spec.indexes.map((k) => ({ ...k, unique: false }))];
}

/** The foreign keys of the entity's many-to-one relations (relations.json). */
export function expectedForeignKeys(model: ModelNode, entity: EntityNode): ForeignKeySpec[] {
  return manyToOneOf(model, entity).map((relation) => manyToOneForeignKey(model, relation).foreignKey);
}

/**
 * Pairs each expected item with an actual one: first the same meaning (OK), then the same name or the same
 * columns (CHANGED); what is left is MISSING on one side and EXTRA on the other.
 */
function pair<E, A>(
  expected: readonly E[],
  actual: readonly A[],
  same: (e: E, a: A) => boolean,
  related: (e: E, a: A) => boolean,
): { ok: Array<[E, A]>; changed: Array<[E, A]>; missing: E[]; extra: A[] } {
  const left = [...actual];
  const take = (e: E, match: (e: E, a: A) => boolean): A | undefined => {
    const index = left.findIndex((a) => match(e, a));
    return index === -1 ? undefined : left.splice(index, 1)[0];
  };
  const ok: Array<[E, A]> = [];
  const rest: E[] = [];
  for (const e of expected) {
    const a = take(e, same);
    if (a === undefined) rest.push(e);
    else ok.push([e, a]);
  }
  const changed: Array<[E, A]> = [];
  const missing: E[] = [];
  for (const e of rest) {
    const a = take(e, related);
    if (a === undefined) missing.push(e);
    else changed.push([e, a]);
  }
  return { ok, changed, missing, extra: left };
}

/** INDEX_* rows (OK included), in the entity's key order, extras last. */
export function diffIndexes(model: ModelNode, entity: EntityNode, actual: readonly IndexInfo[]): DiffRow[] {
  const expected = expectedIndexes(model, entity);
  const { ok, changed, extra } = pair(
    expected,
    actual,
    (e, a) => e.unique === a.unique && sameNames(e.columns, a.columns),
    (e, a) => e.name.toLowerCase() === a.name.toLowerCase() || sameNames(e.columns, a.columns),
  );
  const rows = expected.map((e): DiffRow => {
    const found = ok.find(([x]) => x === e);
    if (found) return { status: 'OK', column: e.name, detail: describeKey(e), index: { expected: e, actual: found[1] } };
    const other = changed.find(([x]) => x === e);
    if (other) {
      const [, a] = other;
      const name = a.name === e.name ? '' : ` ${a.name}`;
      return {
        status: 'INDEX_CHANGED',
        column: e.name,
        detail: `attendu ${describeKey(e)}, trouvé${name} ${describeKey(a)}`,
        index: { expected: e, actual: a },
      };
    }
    return { status: 'INDEX_MISSING', column: e.name, detail: `attendu ${describeKey(e)}`, index: { expected: e } };
  });
  for (const a of extra) rows.push({ status: 'INDEX_EXTRA', column: a.name, detail: `${describeKey(a)} absent de l'entité`, index: { actual: a } });
  return rows;
}

/** FK_* rows (OK included), in relation-name order, extras last. */
export function diffForeignKeys(model: ModelNode, entity: EntityNode, actual: readonly ForeignKeyInfo[]): DiffRow[] {
  const expected = expectedForeignKeys(model, entity);
  const { ok, changed, extra } = pair(
    expected,
    actual,
    (e, a) =>
      sameNames(e.columns, a.columns) &&
      e.refTable.toLowerCase() === a.refTable.toLowerCase() &&
      sameNames(e.refColumns, a.refColumns) &&
      e.onDelete === a.onDelete &&
      e.onUpdate === a.onUpdate,
    (e, a) => (a.name !== null && e.name.toLowerCase() === a.name.toLowerCase()) || sameNames(e.columns, a.columns),
  );
  const rows = expected.map((e): DiffRow => {
    const found = ok.find(([x]) => x === e);
    if (found) return { status: 'OK', column: e.name, detail: describeForeignKey(e), foreignKey: { expected: e, actual: found[1] } };
    const other = changed.find(([x]) => x === e);
    if (other) {
      const [, a] = other;
      return {
        status: 'FK_CHANGED',
        column: e.name,
        detail: `attendu ${describeForeignKey(e)}, trouvé ${describeForeignKey(a)}`,
        foreignKey: { expected: e, actual: a },
      };
    }
    return { status: 'FK_MISSING', column: e.name, detail: `attendu ${describeForeignKey(e)}`, foreignKey: { expected: e } };
  });
  for (const a of extra) {
    rows.push({
      status: 'FK_EXTRA',
      column: a.name ?? `(${a.columns.join(', ')})`,
      detail: `${describeForeignKey(a)} absente de l'entité`,
      foreignKey: { actual: a },
    });
  }
  return rows;
}
