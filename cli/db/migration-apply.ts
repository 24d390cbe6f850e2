/**
 * `migration:apply` (docs/decisions.md#migrations): the PENDING migrations in ascending
 * version order, under a lock, each recorded in `fw_migrations` once it succeeded.
 */
import { spellingOf } from '../../runtime/db/dialect.js';
import { formatUtcDateTime, type Connection, type Database, type DialectName } from '../../runtime/db/index.js';
import { CliError } from '../errors.js';
import { plan } from './migration-plan.js';
import {
  computeStatuses,
  ensureMigrationsTable,
  invalidFilesError,
  MIGRATIONS_TABLE,
  readMigrationFiles,
  readMigrationRecords,
  type MigrationFile,
} from './migrations.js';
import type { SqlStatement } from './sql-split.js';
import { refuseRisks, risksBefore } from './migration-guard.js';

export interface AppliedMigration {
  readonly filename: string;
  readonly executionMs: number;
  readonly statements: number;
}

export interface ApplyOptions {
  /** Called after each migration is applied and recorded. */
  readonly onApplied?: (migration: AppliedMigration) => void;
  /** Seconds to wait for another run's lock (MariaDB GET_LOCK), 60 by default. */
  readonly lockTimeoutSeconds?: number;
  /** `--allow-destructive`: lets dropped tables and columns and narrowed types through (docs/entities.md "Destructive steps"). */
  readonly allowDestructive?: boolean;
}

/**
 * Applies the PENDING migrations in ascending version order (docs/entities.md "Migration files"):
 * - refuses (CliError naming the culprits) while any file is invalid, or any migration is CHANGED or MISSING;
 * - records each migration in `fw_migrations` after it succeeded, with its execution time;
 * - stops at the first failure without recording it; the message names the file and the statement;
 * - holds a lock for the whole run, so that two runs at once apply each migration exactly once (the second
 *   waits, then finds them APPLIED): MariaDB `GET_LOCK` on the connection that applies, SQLite an immediate
 *   transaction, in which each file runs under its own savepoint (atomic per file); a file whose SQLite section
 *   starts with `PRAGMA foreign_keys = OFF` (a table rebuild) gets a transaction of its own, foreign keys off,
 *   committed only if `PRAGMA foreign_key_check` finds no orphan.
 * `db` must use an account allowed to change the schema (see connection.ts).
 */
export async function applyMigrations(db: Database, root: string, options: ApplyOptions = {}): Promise<AppliedMigration[]> {
  const { files, problems } = readMigrationFiles(root);
  if (problems.length > 0) throw invalidFilesError(problems);
  const apply = APPLY[db.driver];
  return db.withConnection((connection) => apply(connection, files, options));
}

async function applyOnMariaDb(connection: Connection, files: MigrationFile[], options: ApplyOptions): Promise<AppliedMigration[]> {
  const timeout = options.lockTimeoutSeconds ?? 60;
  // One lock per database: two projects on the same server do not wait for each other.
  const lock = await connection.fetchOne<{ acquired: unknown }>("SELECT GET_LOCK(CONCAT('fw_migrations:', DATABASE()), ?) AS acquired", [timeout]);
  if (Number(lock?.acquired) !== 1) {
    throw new CliError(
      `une autre exécution de « fw migration:apply » tient le verrou des migrations depuis plus de ${timeout} s.`,
      'attendez la fin de cette exécution, puis relancez « fw migration:apply ».',
    );
  }
  try {
    await ensureMigrationsTable(connection);
    const pending = plan(await pendingOrRefuse(connection, files), 'mariadb');
    await refuseRisks(connection, pending, options.allowDestructive === true);
    const applied: AppliedMigration[] = [];
    for (const [position, { file, statements }] of pending.entries()) {
      // The earlier files of the run changed the tables: this one is checked again on what they left.
      if (position > 0) await risksBefore(connection, file, statements, applied.length);
      const started = performance.now();
      for (const [index, statement] of statements.entries()) {
        try {
          await connection.execute(statement.text);
        } catch (error) {
          throw statementFailure(file, statements, index, error, 'mariadb');
        }
      }
      const executionMs = Math.round(performance.now() - started);
      await record(connection, file, executionMs);
      const done = { filename: file.filename, executionMs, statements: statements.length };
      applied.push(done);
      options.onApplied?.(done);
    }
    return applied;
  } finally {
    await connection.fetchOne("SELECT RELEASE_LOCK(CONCAT('fw_migrations:', DATABASE())) AS released").catch(() => {});
  }
}

async function applyOnSqlite(connection: Connection, files: MigrationFile[], options: ApplyOptions): Promise<AppliedMigration[]> {
  // BEGIN IMMEDIATE takes the write lock now: a second run waits here (busy timeout) until the first commits.
  try {
    await connection.execute('BEGIN IMMEDIATE');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new CliError(
        'la base SQLite est verrouillée par une autre écriture (une autre exécution de « fw migration:apply » ?) depuis trop longtemps.',
        'attendez la fin de cette exécution (ou arrêtez le processus qui écrit), puis relancez « fw migration:apply ».',
      );
    }
    throw error;
  }
  let open = true;
  let foreignKeysOff = false;
  let lockReleased = false;
  const foreignKeysBackOn = async (): Promise<void> => {
    await connection.execute('COMMIT');
    open = false;
    await connection.execute('PRAGMA foreign_keys = ON');
    foreignKeysOff = false;
    await connection.execute('BEGIN IMMEDIATE');
    open = true;
  };
  try {
    await ensureMigrationsTable(connection);
    const pending = plan(await pendingOrRefuse(connection, files), 'sqlite');
    await refuseRisks(connection, pending, options.allowDestructive === true);
    const applied: AppliedMigration[] = [];
    for (const [position, { file, statements }] of pending.entries()) {
      if (position > 0) {
        try {
          await risksBefore(connection, file, statements, applied.length);
        } catch (error) {
          // The migrations applied before this one stay applied.
          await connection.execute('COMMIT');
          open = false;
          throw error;
        }
      }
      const rebuild = turnsForeignKeysOff(statements);
      if (rebuild) {
        // PRAGMA foreign_keys is a no-op inside a transaction: this file gets one of its own, the ones before it
        // stay applied.
        await connection.execute('COMMIT');
        open = false;
        await connection.execute('PRAGMA foreign_keys = OFF');
        foreignKeysOff = true;
        await connection.execute('BEGIN IMMEDIATE');
        open = true;
        lockReleased = true;
      }
      // Once the lock was released, another run may have applied this file (or the next ones) in between.
      if (lockReleased && ((await readMigrationRecords(connection)) ?? []).some((r) => r.version === file.version)) {
        if (rebuild) await foreignKeysBackOn();
        continue;
      }
      const started = performance.now();
      await connection.execute('SAVEPOINT fw_migration');
      for (const [index, statement] of statements.entries()) {
        try {
          await connection.execute(statement.text);
        } catch (error) {
          await connection.execute('ROLLBACK TO SAVEPOINT fw_migration');
          await connection.execute('RELEASE SAVEPOINT fw_migration');
          // The migrations applied before this one stay applied.
          await connection.execute('COMMIT');
          open = false;
          throw statementFailure(file, statements, index, error, 'sqlite');
        }
      }
      if (rebuild) {
        const orphans = await connection.fetchAll<{ table: string; parent: string; rowid: unknown }>('PRAGMA foreign_key_check');
        if (orphans.length > 0) {
          await connection.execute('ROLLBACK TO SAVEPOINT fw_migration');
          await connection.execute('RELEASE SAVEPOINT fw_migration');
          await connection.execute('COMMIT');
          open = false;
          throw orphansFailure(file, orphans);
        }
      }
      const executionMs = Math.round(performance.now() - started);
      await record(connection, file, executionMs);
      await connection.execute('RELEASE SAVEPOINT fw_migration');
      if (rebuild) await foreignKeysBackOn();
      const done = { filename: file.filename, executionMs, statements: statements.length };
      applied.push(done);
      options.onApplied?.(done);
    }
    await connection.execute('COMMIT');
    open = false;
    return applied;
  } finally {
    if (open) await connection.execute('ROLLBACK').catch(() => {});
    if (foreignKeysOff) await connection.execute('PRAGMA foreign_keys = ON').catch(() => {});
  }
}

/** A SQLite section that starts with `PRAGMA foreign_keys = OFF` (a table rebuild, see emitters/migration.ts). */
function turnsForeignKeysOff(statements: readonly SqlStatement[]): boolean {
  return /^PRAGMA\s+foreign_keys\s*=\s*(OFF|0|FALSE|NO)$/i.test(statements[0]?.text ?? '');
}

function orphansFailure(file: MigrationFile, orphans: ReadonlyArray<{ table: string; parent: string; rowid: unknown }>): CliError {
  const shown = orphans
    .slice(0, 5)
    .map((o) => `${o.table} (rowid ${String(o.rowid)}) → ${o.parent}`)
    .join(', ');
  return new CliError(
    `la migration « ${file.filename} » laisserait ${orphans.length} ligne(s) sans parent (PRAGMA foreign_key_check : ${shown}) ; elle a été annulée en entier et n'est pas enregistrée.`,
    'corrigez les données ou le fichier (il est encore PENDING), puis relancez « fw migration:apply ».',
  );
}

/** The PENDING files, after checking under the lock that nothing is CHANGED or MISSING. */
async function pendingOrRefuse(connection: Connection, files: MigrationFile[]): Promise<MigrationFile[]> {
  const statuses = computeStatuses(files, (await readMigrationRecords(connection)) ?? []);
  const culprits = statuses.filter((status) => status.status === 'CHANGED' || status.status === 'MISSING');
  if (culprits.length > 0) {
    const list = culprits.map((status) => `${status.status} ${status.filename}`).join(', ');
    throw new CliError(
      `migration:apply refuse de s'exécuter : ${culprits.length} migration(s) modifiée(s) ou absente(s) (${list}) ; aucune migration n'a été appliquée.`,
      "une migration appliquée ne se modifie pas et ne se supprime pas : restaurez le fichier (CHANGED : son contenu d'origine, MISSING : le fichier), puis écrivez une nouvelle migration pour le changement voulu.",
    );
  }
  return statuses.filter((status) => status.status === 'PENDING').map((status) => status.file!);
}

async function record(connection: Connection, file: MigrationFile, executionMs: number): Promise<void> {
  await connection.execute(`INSERT INTO ${MIGRATIONS_TABLE} (version, name, filename, checksum, applied_at, execution_ms) VALUES (?, ?, ?, ?, ?, ?)`, [
    file.version,
    file.name,
    file.filename,
    file.checksum,
    formatUtcDateTime(new Date()),
    executionMs,
  ]);
}

/** How each dialect applies a run: its lock, and whether a file runs in a transaction (docs/decisions.md#migrations). */
const APPLY: Readonly<Record<DialectName, (connection: Connection, files: MigrationFile[], options: ApplyOptions) => Promise<AppliedMigration[]>>> = {
  mariadb: applyOnMariaDb,
  sqlite: applyOnSqlite,
};

const SHOWN_STATEMENT = 300;

function statementFailure(file: MigrationFile, statements: readonly SqlStatement[], index: number, error: unknown, dialect: DialectName): CliError {
  const statement = statements[index]!;
  const text = statement.text.length > SHOWN_STATEMENT ? `${statement.text.slice(0, SHOWN_STATEMENT)}…` : statement.text;
  const reason = error instanceof Error ? error.message : String(error);
  const spelling = spellingOf(dialect);
  let consequence: string;
  if (spelling.transactionalDdl) {
    consequence = "cette migration a été annulée en entier (transaction) et n'est pas enregistrée";
  } else if (index > 0) {
    consequence =
      `cette migration n'est pas enregistrée, mais ses instructions précédentes (${index === 1 ? 'la 1re' : `1 à ${index}`}) ` +
      `ont peut-être déjà été validées : ${spelling.product} valide le DDL implicitement`;
  } else {
    consequence = "cette migration n'est pas enregistrée ; aucune de ses instructions n'a été exécutée";
  }
  return new CliError(
    `la migration « ${file.filename} » a échoué à l'instruction ${index + 1}/${statements.length} (ligne ${statement.line}) :\n` +
      `  ${text.replace(/\n/g, '\n  ')}\n` +
      `  → ${reason}\n` +
      `${consequence} ; les migrations suivantes n'ont pas été appliquées.`,
    !spelling.transactionalDdl && index > 0
      ? "vérifiez la base (les instructions déjà passées), corrigez le fichier pour qu'il reparte de cet état, puis relancez « fw migration:apply »."
      : 'corrigez le fichier (il est encore PENDING, il peut donc être modifié), puis relancez « fw migration:apply ».',
  );
}
