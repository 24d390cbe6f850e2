/**
 * Records that others still refer to (docs/crud.md "Deleting a record that others refer to"). A many-to-one whose
 * `on_delete` is RESTRICT (the default) or NO ACTION keeps the referenced record from being deleted: the generated
 * pages count the referencing rows before the DELETE, in its transaction, and answer 409 with a message that names
 * them (« 3 animaux font référence à Propriétaire #4 ») instead of letting the database refuse with a 500. Table and
 * column names come from the generated crud module, never from the request; every id goes through a `?`.
 */
import { fetchAll, type Transaction } from '../db/database.js';
import { ForeignKeyError } from '../db/errors.js';
import { trans } from '../translations.js';
import { placeholders } from './ids.js';

/** One foreign key that refers to the records of a table and refuses their deletion. */
export interface ReferenceSpec {
  /** The referencing table and its foreign-key column. */
  readonly table: string;
  readonly column: string;
  /** The column of the referenced table that the foreign key names (usually its key). */
  readonly target: string;
  /** The referencing table's key, when it is the referenced table itself: rows deleted together do not block each other. */
  readonly selfKey?: string;
  /** What users read for one and for several referencing rows, as they appear in a sentence (`animal`, `animaux`). */
  readonly one: string;
  readonly many: string;
}

/** A record that others refer to, and by how many rows of each referencing table. */
export interface Blocking {
  readonly id: number;
  readonly references: ReadonlyArray<{ readonly count: number; readonly one: string; readonly many: string }>;
}

/**
 * The records of `ids` that rows of other tables still refer to, in the order of `ids`; `table`.`key` is the
 * referenced table and its key. One `SELECT … GROUP BY` per reference.
 */
export async function findReferences(
  table: string,
  key: string,
  references: readonly ReferenceSpec[],
  ids: readonly number[],
  tx?: Transaction,
): Promise<Blocking[]> {
  if (ids.length === 0 || references.length === 0) return [];
  const found = new Map<number, Array<{ count: number; one: string; many: string }>>();
  for (const ref of references) {
    const marks = placeholders(ids.length);
    const self = ref.selfKey ? ` AND r.${ref.selfKey} NOT IN (${marks})` : '';
    const sql = `SELECT t.${key} AS id, COUNT(*) AS n FROM ${table} t JOIN ${ref.table} r ON r.${ref.column} = t.${ref.target} WHERE t.${key} IN (${marks})${self} GROUP BY t.${key}`;
    const rows = await fetchAll<{ id: unknown; n: unknown }>(sql, ref.selfKey ? [...ids, ...ids] : [...ids], tx);
    for (const row of rows) {
      const count = Number(row.n);
      if (count <= 0) continue;
      const id = Number(row.id);
      const list = found.get(id) ?? [];
      list.push({ count, one: ref.one, many: ref.many });
      found.set(id, list);
    }
  }
  return ids.filter((id) => found.has(id)).map((id) => ({ id, references: found.get(id)! }));
}

/**
 * Some of the records to delete are still referred to: nothing was deleted. `blocking` names them when the pages
 * counted them; it is empty when the database refused on its own (`cause`, a ForeignKeyError: a row inserted
 * meanwhile, or a table the entity files do not describe).
 */
export class InUseError extends Error {
  override readonly name = 'InUseError';

  constructor(
    readonly blocking: readonly Blocking[],
    options?: { cause?: unknown },
  ) {
    super(
      blocking.length
        ? `Suppression refusée : ${blocking.map((b) => `#${b.id} (${countsText(b)})`).join(', ')}.`
        : 'Suppression refusée : des enregistrements y font encore référence.',
      options,
    );
  }
}

/** Throws InUseError when rows of other tables still refer to one of `ids` (call it in the DELETE's transaction). */
export async function assertUnreferenced(
  table: string,
  key: string,
  references: readonly ReferenceSpec[],
  ids: readonly number[],
  tx?: Transaction,
): Promise<void> {
  const blocking = await findReferences(table, key, references, ids, tx);
  if (blocking.length > 0) throw new InUseError(blocking);
}

/**
 * The error of a refused delete as an InUseError, or null when `err` is something else: an InUseError, or a
 * ForeignKeyError of a row still referenced (or of a server that does not say, SQLite).
 */
export function inUseError(err: unknown): InUseError | null {
  if (err instanceof InUseError) return err;
  if (err instanceof ForeignKeyError && err.referenced !== false) return new InUseError([], { cause: err });
  return null;
}

/** `3 animaux et 1 facture`. */
function countsText(blocking: Blocking): string {
  const parts = blocking.references.map((r) => `${r.count} ${r.count === 1 ? r.one : r.many}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} ${trans('crud.and')} ${parts[parts.length - 1]}` : (parts[0] ?? '');
}

/**
 * What users read when a delete is refused. One record (`record`: how the pages name it, e.g. `Propriétaire #4`):
 * « Suppression impossible : 3 animaux font référence à Propriétaire #4. … ». Several: the blocking ids and their
 * counts, and that nothing was deleted (`names`: each record's name by key, `#4 Jean Dupont`, when the entity names them).
 */
export function inUseMessage(err: InUseError, record?: string, names?: ReadonlyMap<number, string>): string {
  if (record !== undefined) {
    const first = err.blocking[0];
    if (!first) return trans('crud.in_use_unknown', { record });
    const single = first.references.length === 1 && first.references[0]!.count === 1;
    return trans(single ? 'crud.in_use_one' : 'crud.in_use_many', { references: countsText(first), record });
  }
  if (err.blocking.length === 0) return trans('crud.in_use_bulk_unknown');
  // `names`: how the entity's `display` names each record (`#1 Jean Dupont`); else its key alone.
  return trans('crud.in_use_bulk', { records: err.blocking.map((b) => `${names?.get(b.id) ?? `#${b.id}`} (${countsText(b)})`).join(', ') });
}
