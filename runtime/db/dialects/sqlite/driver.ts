/**
 * The SQLite driver: better-sqlite3 carried by Kysely's `SqliteDialect`, its transactions, its errors translated
 * (docs/decisions.md#two-database-dialects), and its options read from the configuration registry.
 */
import fs from 'node:fs';
import { get, getPath } from '../../../config.js';
import type { Dialect, DialectDriver } from '../../dialect.js';
import { DatabaseUnavailableError, DuplicateError, ForeignKeyError } from '../../errors.js';
import { withStatementCache } from './statement-cache.js';
import { registerUnicodeFunctions } from './unicode-ci.js';

export interface SqliteOptions {
  /** Absolute path of the database file, or `:memory:`. */
  readonly file: string;
  /** How long a writer waits for another process's lock, 5 000 ms by default. */
  readonly busyTimeoutMs?: number;
}

/** What `useWal` needs of a better-sqlite3 handle. */
interface PragmaRunner {
  pragma(source: string, options?: { simple?: boolean }): unknown;
}

/**
 * Puts the file in WAL mode (a no-op when it already is). A file still in rollback mode (a new one) is switched by
 * reading page 1 and then writing it: when another process holds the write lock at that moment (two processes
 * creating the same new file: `fw migration:apply` twice, or two servers starting), SQLite answers SQLITE_BUSY at
 * once instead of calling the busy handler, since waiting for a write lock while holding a read lock could
 * deadlock. The failed attempt holds no lock, so it is tried again, after short pauses, until the busy timeout is
 * spent; the next attempt usually finds the file already in WAL mode.
 */
async function useWal(db: PragmaRunner, busyTimeoutMs: number): Promise<void> {
  const deadline = Date.now() + busyTimeoutMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
    try {
      if (db.pragma('journal_mode', { simple: true }) === 'wal') return;
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Creates a database file that does not exist yet with mode 0600: it holds password hashes, TOTP secrets and
 * sessions (docs/deploy.md "deploy:check"). SQLite gives its -wal and -shm files the mode of the database file.
 * An existing file keeps its mode; a failure here (a missing folder) is left for SQLite to report.
 */
function createPrivate(file: string): void {
  if (file === ':memory:' || file === '' || file.startsWith('file:')) return;
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
  } catch {
    // Exists already, or cannot be created: SQLite opens it or says why.
  }
}

/** Builds the SQLite dialect; better-sqlite3 is imported when the file is first opened. */
export function sqliteDialect(options: SqliteOptions): Dialect {
  const busyTimeout = options.busyTimeoutMs ?? 5000;
  const envFile = `env/${process.env.APP_ENV || 'dev'}`;
  return {
    name: 'sqlite',
    // IMMEDIATE takes the write lock at the start: a deferred transaction that reads then writes can fail at
    // once with SQLITE_BUSY when another process wrote in between, whatever the busy timeout.
    beginTransactionSql: 'BEGIN IMMEDIATE',

    createKyselyDialect(kysely) {
      return new kysely.SqliteDialect({
        database: async () => {
          const { default: Database } = await import('better-sqlite3');
          createPrivate(options.file);
          const db = new Database(options.file, { timeout: busyTimeout });
          try {
            db.pragma(`busy_timeout = ${Math.trunc(busyTimeout)}`);
            await useWal(db, busyTimeout);
            db.pragma('foreign_keys = ON');
            // Search and sort like MariaDB's utf8mb4_unicode_ci (docs/crud.md "Search and sort on SQLite").
            registerUnicodeFunctions(db);
          } catch (error) {
            db.close();
            throw error;
          }
          return withStatementCache(db);
        },
      });
    },

    translateError(error) {
      if (!(error instanceof Error)) return error;
      const code = (error as Error & { code?: unknown }).code;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        // "UNIQUE constraint failed: users.email, users.tenant_id"
        const constraint = /constraint failed: (.+)$/.exec(error.message)?.[1]?.trim() ?? null;
        const columns = constraint ? constraint.split(',').map((part) => part.trim().replace(/^.*\./, '')) : [];
        return new DuplicateError(constraint, columns, { cause: error });
      }
      // "FOREIGN KEY constraint failed": SQLite says neither which key nor which side.
      if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new ForeignKeyError(null, null, null, { cause: error });
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT') {
        return new DatabaseUnavailableError(
          'locked',
          `la base SQLite ${options.file} est restée verrouillée par une autre connexion plus de ${busyTimeout / 1000} s.`,
          "vérifiez qu'aucun autre processus ne garde une transaction ouverte sur ce fichier, ou augmentez db_busy_timeout_ms.",
          { cause: error },
        );
      }
      const cannotOpen = code === 'SQLITE_CANTOPEN' || code === 'SQLITE_NOTADB' || (error instanceof TypeError && /Cannot open database/i.test(error.message));
      if (cannotOpen) {
        return new DatabaseUnavailableError(
          'cannot-open',
          `impossible d'ouvrir la base SQLite ${options.file} (${error.message}).`,
          `vérifiez la variable DB_FILE (${envFile}) et les droits sur son dossier, ou lancez « fw db:init » pour créer le fichier.`,
          { cause: error },
        );
      }
      return error;
    },

    describe() {
      return `SQLite ${options.file}`;
    },
  };
}

/** The SQLite driver: the dialect of one file, and its options from `db_file` (resolved) and `db_busy_timeout_ms`. */
export const sqliteDriver: DialectDriver<SqliteOptions> = {
  name: 'sqlite',
  connect: sqliteDialect,
  optionsFromConfig: () => ({ file: getPath('db_file'), busyTimeoutMs: Number(get('db_busy_timeout_ms')) }),
};
