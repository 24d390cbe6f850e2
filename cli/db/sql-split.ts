/**
 * SQL scripts (migrations, generated table files) cut into statements, and the dialect sections of a file.
 *
 * A statement ends at a `;` outside string literals, quoted identifiers and comments (runtime/db/sql-lexer.ts).
 * The body of a trigger, procedure, function or event (`CREATE … BEGIN … END;`) stays one statement.
 * The mysql client's `DELIMITER` command is not SQL and is refused with a clear message.
 */
import { DIALECT_NAMES, isDialectName, type DialectName } from '../../runtime/db/dialect.js';
import { maskSql } from '../../runtime/db/sql-lexer.js';
import { CliError } from '../errors.js';

export interface SqlStatement {
  /** The statement without its trailing `;` and without leading comments, trimmed. */
  readonly text: string;
  /** Line (1-based) where the statement starts in the text given to `splitSqlStatements`. */
  readonly line: number;
}

const ROUTINE_HEAD = /^CREATE\s+(?:OR\s+REPLACE\s+)?(?:DEFINER\s*=\s*\S+\s+)?(?:TEMP(?:ORARY)?\s+)?(?:TRIGGER|PROCEDURE|FUNCTION|EVENT)\b/i;

/** Splits a script into statements; empty statements and comment-only text are dropped. */
export function splitSqlStatements(sql: string, dialect: DialectName, fileName = 'script SQL'): SqlStatement[] {
  const mask = maskSql(sql, dialect);
  const delimiter = /^[ \t]*DELIMITER\b/im.exec(mask);
  if (delimiter) {
    throw new CliError(
      `${fileName}, ligne ${lineAt(sql, delimiter.index)} : « DELIMITER » est une commande du client mysql, pas du SQL.`,
      'retirez les lignes DELIMITER et terminez le corps par « END; » : fw découpe lui-même les blocs BEGIN … END.',
    );
  }
  const statements: SqlStatement[] = [];
  let start = 0;
  let depth = 0;
  let routine: boolean | null = null;
  const push = (end: number): void => {
    const raw = mask.slice(start, end);
    const offset = raw.search(/\S/);
    if (offset !== -1) {
      const from = start + offset;
      const text = sql.slice(from, end).trim();
      if (text) statements.push({ text, line: lineAt(sql, from) });
    }
    start = end + 1;
    depth = 0;
    routine = null;
  };
  const token = /[A-Za-z_][A-Za-z0-9_$]*|;/g;
  let match: RegExpExecArray | null;
  while ((match = token.exec(mask))) {
    const word = match[0];
    if (word === ';') {
      if (depth === 0) push(match.index);
      continue;
    }
    if (routine === null) routine = ROUTINE_HEAD.test(mask.slice(start).trimStart());
    if (!routine) continue;
    const upper = word.toUpperCase();
    if (upper === 'BEGIN' || upper === 'CASE') {
      depth++;
    } else if (upper === 'END' && depth > 0) {
      // `END IF`, `END LOOP`, `END WHILE`, `END REPEAT` close blocks that opened without BEGIN or CASE.
      const after = /^\s*([A-Za-z_]+)?/.exec(mask.slice(token.lastIndex))?.[1]?.toUpperCase();
      if (after !== 'IF' && after !== 'LOOP' && after !== 'WHILE' && after !== 'REPEAT') depth--;
    }
  }
  push(sql.length);
  return statements;
}

const MARKER = /^\s*--\s*fw:dialect\s+(\S+)\s*$/i;

/**
 * The part of a migration file meant for `dialect`. Marker lines `-- fw:dialect <name>` (`mariadb`, `sqlite`)
 * and `-- fw:dialect all` open a section; text before any marker applies to every dialect. Lines of other sections
 * become empty, so line numbers stay those of the file.
 */
export function dialectSection(text: string, dialect: DialectName, fileName = 'script SQL'): string {
  let current: 'all' | DialectName = 'all';
  return text
    .split('\n')
    .map((line, index) => {
      const marker = MARKER.exec(line);
      if (marker) {
        const value = marker[1]!.toLowerCase();
        if (value !== 'all' && !isDialectName(value)) {
          throw new CliError(
            `${fileName}, ligne ${index + 1} : dialecte inconnu « ${marker[1]} » dans le marqueur fw:dialect.`,
            `valeurs acceptées : ${DIALECT_NAMES.join(', ')}, all.`,
          );
        }
        current = value;
        return '';
      }
      return current === 'all' || current === dialect ? line : line.endsWith('\r') ? '\r' : '';
    })
    .join('\n');
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
