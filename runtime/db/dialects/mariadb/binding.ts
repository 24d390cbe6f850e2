/**
 * `?` parameters written into MariaDB SQL as literals (the text protocol; see pool.ts for why). Unlike
 * mysql2's own formatting, a `?` inside a literal or a comment stays (sql-lexer.ts) and `??` is not an
 * identifier. How a value is spelt depends on the session: with NO_BACKSLASH_ESCAPES a backslash is an
 * ordinary character inside quotes and only the quote is doubled; without it, backslash, NUL and Ctrl-Z are
 * escaped with a backslash too.
 */
import { QueryParameterError } from '../../errors.js';
import type { DriverValue } from '../../params.js';
import { placeholderPositions } from '../../sql-lexer.js';

/** Placeholder positions of the statements seen last, per escaping mode: an application runs the same few texts again and again. */
const POSITIONS_KEPT = 1000;
const knownPositions = [new Map<string, readonly number[]>(), new Map<string, readonly number[]>()] as const;

/** Where the `?` placeholders of `sql` are, read once per text (the oldest text is forgotten past POSITIONS_KEPT). */
function positionsOf(sql: string, noBackslashEscapes: boolean): readonly number[] {
  const known = knownPositions[noBackslashEscapes ? 1 : 0];
  let positions = known.get(sql);
  if (positions === undefined) {
    positions = placeholderPositions(sql, 'mariadb', { backslashEscapes: !noBackslashEscapes });
    if (known.size >= POSITIONS_KEPT) known.delete(known.keys().next().value!);
    known.set(sql, positions);
  }
  return positions;
}

/** Replaces each `?` placeholder of `sql` with its value, escaped for a session with or without NO_BACKSLASH_ESCAPES. */
export function bindParameters(sql: string, params: readonly DriverValue[], noBackslashEscapes = false): string {
  const positions = positionsOf(sql, noBackslashEscapes);
  if (positions.length !== params.length) {
    throw new QueryParameterError(`La requête attend ${positions.length} paramètre(s) « ? » et en reçoit ${params.length}.`);
  }
  if (positions.length === 0) return sql;
  let out = '';
  let from = 0;
  for (let index = 0; index < positions.length; index++) {
    const position = positions[index]!;
    out += sql.slice(from, position) + escapeValue(params[index]!, index, noBackslashEscapes);
    from = position + 1;
  }
  return out + sql.slice(from);
}

/**
 * The literal of one value. Only driver values are written (params.ts converts the others first); anything
 * else, and a number that has no SQL literal (NaN, ±Infinity would be read as identifiers), is refused.
 */
function escapeValue(value: DriverValue, index: number, noBackslashEscapes: boolean): string {
  if (value === null) return 'NULL';
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new QueryParameterError(`Paramètre n° ${index + 1} : nombre non fini (${value}).`);
    return String(value);
  }
  if (Buffer.isBuffer(value)) return `X'${value.toString('hex')}'`;
  if (typeof value !== 'string') {
    throw new QueryParameterError(
      `Paramètre n° ${index + 1} : type non pris en charge (${typeof value}) ; attendu null, un nombre, un bigint, une chaîne ou un Buffer.`,
    );
  }
  // The protocol carries the statement's length: NUL and Ctrl-Z may stay raw inside the quotes.
  if (noBackslashEscapes) return `'${value.replace(/'/g, "''")}'`;
  return `'${value.replace(/[\0\x1a\\']/g, (ch) => ESCAPES[ch]!)}'`;
}

const ESCAPES: Record<string, string> = { '\0': '\\0', '\x1a': '\\Z', '\\': '\\\\', "'": "''" };
