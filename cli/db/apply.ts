/**
 * Applies generated SQL files (`db:apply`) idempotently: a second run changes nothing and says so.
 * - `CREATE TABLE [IF NOT EXISTS] t` is skipped when `t` exists;
 * - `ALTER TABLE t ADD CONSTRAINT c FOREIGN KEY …` is skipped when `c` exists (MariaDB information_schema);
 * - `CREATE [UNIQUE] INDEX [IF NOT EXISTS] i ON t …` is skipped when `i` exists;
 * - any other statement runs as written (write it so that it can run again).
 * Files are applied in the order given (the caller orders them by dependency) and the run stops at the first
 * failing statement; the files after it are reported as not run.
 */
import { DatabaseUnavailableError } from '../../runtime/db/index.js';
import { dialectSection, splitSqlStatements } from './sql-split.js';
import { constraintExists, dialectOf, indexExists, tableExists, type Handle } from './schema.js';

export interface SqlFileInput {
  /** Shown in reports, usually relative to the project root. */
  readonly path: string;
  readonly text: string;
}

/** `applied`: at least one statement ran; `unchanged`: everything was already there; `failed`; `not-run`. */
export type SqlFileFate = 'applied' | 'unchanged' | 'failed' | 'not-run';

export interface SqlFileFailure {
  /** 1-based position of the statement in the file. */
  readonly statement: number;
  readonly line: number;
  readonly sql: string;
  readonly message: string;
}

export interface SqlFileOutcome {
  readonly path: string;
  readonly fate: SqlFileFate;
  /** Statements run. */
  readonly executed: number;
  /** Statements skipped because their object already exists. */
  readonly skipped: number;
  readonly failure?: SqlFileFailure;
}

export interface ApplySqlReport {
  readonly files: SqlFileOutcome[];
  readonly ok: boolean;
}

const IDENT = String.raw`(?:\`[^\`]+\`|"[^"]+"|\[[^\]]+\]|[A-Za-z0-9_$]+)`;
const QUALIFIED = String.raw`(${IDENT}(?:\s*\.\s*${IDENT})?)`;
const CREATE_TABLE = new RegExp(String.raw`^CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?${QUALIFIED}`, 'i');
const ADD_CONSTRAINT = new RegExp(
  String.raw`^ALTER\s+TABLE\s+${QUALIFIED}\s+ADD\s+CONSTRAINT\s+(${IDENT})\s+(?:FOREIGN\s+KEY|UNIQUE|CHECK|PRIMARY\s+KEY)`,
  'i',
);
const CREATE_INDEX = new RegExp(
  String.raw`^CREATE\s+(?:UNIQUE\s+|FULLTEXT\s+|SPATIAL\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?${QUALIFIED}\s+ON\s+${QUALIFIED}`,
  'i',
);

/**
 * Applies `files` in order on `handle`; never throws for a SQL error, which is reported in the outcome. A
 * DatabaseUnavailableError (server unreachable, account refused) is thrown as it is.
 */
export async function applySqlFiles(handle: Handle, files: readonly SqlFileInput[]): Promise<ApplySqlReport> {
  const dialect = dialectOf(handle);
  const outcomes: SqlFileOutcome[] = [];
  let failed = false;
  for (const file of files) {
    if (failed) {
      outcomes.push({ path: file.path, fate: 'not-run', executed: 0, skipped: 0 });
      continue;
    }
    const statements = splitSqlStatements(dialectSection(file.text, dialect, file.path), dialect, file.path);
    let executed = 0;
    let skipped = 0;
    let failure: SqlFileFailure | undefined;
    for (const [index, statement] of statements.entries()) {
      try {
        if (await alreadyPresent(handle, statement.text)) {
          skipped++;
          continue;
        }
        await handle.execute(statement.text);
        executed++;
      } catch (error) {
        // A server that cannot be reached is no statement's fault: the caller reports it as such.
        if (error instanceof DatabaseUnavailableError) throw error;
        failure = {
          statement: index + 1,
          line: statement.line,
          sql: statement.text,
          message: error instanceof Error ? error.message : String(error),
        };
        break;
      }
    }
    if (failure) {
      failed = true;
      outcomes.push({ path: file.path, fate: 'failed', executed, skipped, failure });
    } else {
      outcomes.push({ path: file.path, fate: executed > 0 ? 'applied' : 'unchanged', executed, skipped });
    }
  }
  return { files: outcomes, ok: !failed };
}

/** True when the object the statement creates is already there. */
async function alreadyPresent(handle: Handle, sql: string): Promise<boolean> {
  let match = CREATE_TABLE.exec(sql);
  if (match) return tableExists(handle, unqualified(match[1]!));
  match = ADD_CONSTRAINT.exec(sql);
  if (match) return constraintExists(handle, unqualified(match[1]!), unquote(match[2]!));
  match = CREATE_INDEX.exec(sql);
  if (match) return indexExists(handle, unqualified(match[2]!), unqualified(match[1]!));
  return false;
}

/** `db`.`t` → t; `"t"` → t. */
function unqualified(name: string): string {
  const parts = name.split(/\s*\.\s*(?=[`"[A-Za-z0-9_$])/);
  return unquote(parts[parts.length - 1]!);
}

function unquote(name: string): string {
  const first = name[0];
  if ((first === '`' || first === '"') && name.endsWith(first)) return name.slice(1, -1);
  if (first === '[' && name.endsWith(']')) return name.slice(1, -1);
  return name;
}
