/**
 * What a migration's destructive steps (migration-steps.ts) would do to the rows of the database it is about to run
 * on (docs/entities.md "Destructive steps"): values lost by a dropped table or column, values that do not fit a
 * narrowed type, NULLs under a new NOT NULL, duplicates under a new unique key, rows a new CHECK refuses. The last
 * four are blocking: MariaDB fails on them (strict mode) while SQLite keeps the long value or fails half-way, so
 * `migration:apply` refuses them on both dialects before the file's first statement, whatever the flag.
 */
import type { SqlTypeNode } from '../../compiler/ir.js';
import { isInteger, parseSqlType } from '../../compiler/sql-types.js';
import { quoteIdentifier } from '../../runtime/db/ddl/names.js';
import { spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import { migrationSteps, type MigrationStep } from './migration-steps.js';
import { dialectOf, readColumns, readIndexes, type ColumnInfo, type Handle } from './schema.js';
import type { SqlStatement } from './sql-split.js';

export type RiskKind = 'DROP_TABLE' | 'DROP_COLUMN' | 'NARROW' | 'NOT_NULL' | 'UNIQUE' | 'CHECK';

export interface MigrationRisk {
  readonly kind: RiskKind;
  readonly table: string;
  /** The column, the key's columns joined by `, `, or the CHECK's name (its test when it has none); null for a table. */
  readonly column: string | null;
  /** Line of the statement in the file. */
  readonly line: number;
  /** French, for the tables and messages. */
  readonly detail: string;
  /** Rows touched: values lost (drops), or rows that do not fit (NARROW, NOT_NULL, UNIQUE, CHECK). */
  readonly rows: number;
  /** Primary-key values of some of those rows (the first 10), when the table has a single-column key. */
  readonly keys: readonly string[];
  /** Fails on one dialect or loses data on the other: refused even with --allow-destructive. */
  readonly blocking: boolean;
}

const SHOWN_KEYS = 10;

/** The inclusive range of an integer type, as bigints. */
function integerRange(type: SqlTypeNode): [bigint, bigint] {
  const widths: Readonly<Record<string, bigint>> = { TINYINT: 8n, SMALLINT: 16n, MEDIUMINT: 24n, INT: 32n, BIGINT: 64n };
  const bits = widths[type.base] ?? 64n;
  return type.unsigned ? [0n, 2n ** bits - 1n] : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
}

/** The SQL condition that selects the rows a new type cannot hold, and how to say it; null when it is not narrower. */
function narrowing(column: string, from: ColumnInfo, to: SqlTypeNode, dialect: DialectName): { where: string; detail: string } | null {
  const name = quoteIdentifier(column, dialect);
  const old = parseSqlType(from.type);
  if (to.base === 'VARCHAR' || to.base === 'CHAR') {
    const length = to.args[0] ?? 1;
    const before = old && (old.base === 'VARCHAR' || old.base === 'CHAR') ? (old.args[0] ?? 1) : Infinity;
    if (before <= length) return null;
    const chars = spellingOf(dialect).charLength(name);
    return { where: `${chars} > ${length}`, detail: `valeur de plus de ${length} caractères` };
  }
  if (isInteger(to) && old && isInteger(old) && !from.rowid) {
    const [min, max] = integerRange(to);
    const [oldMin, oldMax] = integerRange(old);
    if (oldMin >= min && oldMax <= max) return null;
    return { where: `(${name} < ${min} OR ${name} > ${max})`, detail: `valeur hors de ${min} … ${max}` };
  }
  return null;
}

function lower(text: string): string {
  return text.toLowerCase();
}

/** The risks of one file's statements on the database behind `handle`, in the file's order. */
export async function migrationRisks(handle: Handle, statements: readonly SqlStatement[]): Promise<MigrationRisk[]> {
  const dialect = dialectOf(handle);
  const steps = migrationSteps(statements);
  const columnsOf = new Map<string, ColumnInfo[] | null>();
  const columns = async (table: string): Promise<ColumnInfo[] | null> => {
    if (!columnsOf.has(lower(table))) columnsOf.set(lower(table), await readColumns(handle, table));
    return columnsOf.get(lower(table)) ?? null;
  };
  const risks: MigrationRisk[] = [];
  const seen = new Set<string>();
  const add = async (step: MigrationStep, kind: RiskKind, column: string | null, where: string | null, detail: string, blocking: boolean): Promise<void> => {
    const key = `${kind} ${lower(step.table)} ${lower(column ?? '')}`;
    if (seen.has(key)) return;
    seen.add(key);
    const table = quoteIdentifier(step.table, dialect);
    const condition = where === null ? '' : ` WHERE ${where}`;
    const count = await handle.fetchOne<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${table}${condition}`);
    const rows = Number(count?.n ?? 0);
    const primary = (await columns(step.table))?.filter((c) => c.key === 'PRI') ?? [];
    let keys: string[] = [];
    if (rows > 0 && where !== null && primary.length === 1) {
      const pk = quoteIdentifier(primary[0]!.name, dialect);
      const found = await handle.fetchAll<{ k: unknown }>(`SELECT ${pk} AS k FROM ${table}${condition} ORDER BY ${pk} LIMIT ${SHOWN_KEYS}`);
      keys = found.map((row) => `${primary[0]!.name} ${String(row.k)}`);
    }
    if (kind !== 'NARROW' && kind !== 'DROP_TABLE' && kind !== 'DROP_COLUMN' && rows === 0) return;
    risks.push({ kind, table: step.table, column, line: step.line, detail, rows, keys, blocking: blocking && rows > 0 });
  };

  for (const step of steps) {
    const existing = await columns(step.table);
    if (existing === null) continue; // a table made earlier in the run: no row to lose yet
    const find = (name: string): ColumnInfo | undefined => existing.find((c) => lower(c.name) === lower(name));
    switch (step.kind) {
      case 'DROP_TABLE':
        await add(step, 'DROP_TABLE', null, null, `suppression de la table ${step.table}`, false);
        break;
      case 'DROP_COLUMN':
        if (find(step.column)) {
          const name = quoteIdentifier(step.column, dialect);
          await add(step, 'DROP_COLUMN', step.column, `${name} IS NOT NULL`, `suppression de la colonne ${step.table}.${step.column}`, false);
        }
        break;
      case 'REBUILD':
        for (const column of existing) {
          if (step.columns.some((c) => lower(c) === lower(column.name))) continue;
          const name = quoteIdentifier(column.name, dialect);
          await add(step, 'DROP_COLUMN', column.name, `${name} IS NOT NULL`, `la table reconstruite perd la colonne ${step.table}.${column.name}`, false);
        }
        break;
      case 'COLUMN_DEFINITION': {
        const from = find(step.column);
        const to = parseSqlType(step.type);
        if (!from) break;
        const narrow = to ? narrowing(step.column, from, to, dialect) : null;
        if (narrow) {
          await add(
            step,
            'NARROW',
            step.column,
            narrow.where,
            `${step.table}.${step.column} ${from.type.toUpperCase()} → ${step.type.toUpperCase()} : ${narrow.detail}`,
            true,
          );
        }
        if (step.notNull && from.nullable) {
          await add(
            step,
            'NOT_NULL',
            step.column,
            `${quoteIdentifier(step.column, dialect)} IS NULL`,
            `${step.table}.${step.column} devient NOT NULL : valeur NULL`,
            true,
          );
        }
        break;
      }
      case 'UNIQUE': {
        if (!step.columns.every((c) => find(c))) break;
        const same = (cols: readonly string[]): boolean => cols.length === step.columns.length && cols.every((c, i) => lower(c) === lower(step.columns[i]!));
        const primary = existing.filter((c) => c.key === 'PRI').map((c) => c.name);
        if (same(primary) || (await readIndexes(handle, step.table)).some((index) => index.unique && same(index.columns))) break;
        const list = step.columns.map((c) => quoteIdentifier(c, dialect)).join(', ');
        const where = `(${list}) IN (SELECT ${list} FROM ${quoteIdentifier(step.table, dialect)} WHERE ${step.columns
          .map((c) => `${quoteIdentifier(c, dialect)} IS NOT NULL`)
          .join(' AND ')} GROUP BY ${list} HAVING COUNT(*) > 1)`;
        await add(step, 'UNIQUE', step.columns.join(', '), where, `clé unique sur ${step.table} (${step.columns.join(', ')}) : valeur en double`, true);
        break;
      }
      case 'CHECK': {
        const name = step.name ?? `CHECK (${step.test})`;
        const detail = `contrainte ${step.name ?? ''}${step.name ? ' ' : ''}CHECK (${step.test}) sur ${step.table} : valeur refusée`;
        try {
          // A row breaks a CHECK when its test is false (NULL passes, as the database decides).
          await add(step, 'CHECK', name, `NOT (${step.test})`, detail, true);
        } catch {
          // A test naming a column the file renames first cannot be counted before it runs: the database refuses the rows then.
        }
        break;
      }
    }
  }
  return risks;
}

/** One risk on one line, for messages: `contact.Nom VARCHAR(50) → VARCHAR(20) : valeur… : 1 ligne (Id 3)`. */
export function describeRisk(risk: MigrationRisk): string {
  const rows =
    risk.kind === 'DROP_TABLE'
      ? `${risk.rows} ligne(s) perdue(s)`
      : risk.kind === 'DROP_COLUMN'
        ? `${risk.rows} valeur(s) perdue(s)`
        : `${risk.rows} ligne(s)${risk.keys.length > 0 ? ` (${risk.keys.join(', ')}${risk.rows > risk.keys.length ? ', …' : ''})` : ''}`;
  return `${risk.detail} : ${rows}`;
}
