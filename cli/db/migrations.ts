/**
 * Versioned SQL migrations (spec "Migration statuses", DECISIONS §5 "Migrations"): files
 * `mvc/migrations/YYYYMMDDHHMMSS_<name>.sql`, the table `fw_migrations`, statuses recomputed from files and
 * rows joined on the version, and `applyMigrations` under a lock.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { formatUtcDateTime, type Connection, type Database, type DialectName } from '../../runtime/db/index.js';
import { CliError } from '../errors.js';
import { dialectOf, tableExists, type Handle } from './schema.js';
import { dialectSection, splitSqlStatements, type SqlStatement } from './sql-split.js';

export const MIGRATIONS_TABLE = 'fw_migrations';
export const MIGRATIONS_DIR = path.join('mvc', 'migrations');

/** `YYYYMMDDHHMMSS_<name>.sql`; the name starts with a letter or digit, then letters, digits, `_` or `-`. */
const FILE_NAME = /^(\d{14})_([A-Za-z0-9][A-Za-z0-9_-]*)\.sql$/;

export type MigrationStatusName = 'APPLIED' | 'PENDING' | 'CHANGED' | 'MISSING';

export interface MigrationFile {
  readonly version: string;
  readonly name: string;
  readonly filename: string;
  readonly path: string;
  /** The file's text (a UTF-8 BOM removed). */
  readonly text: string;
  readonly checksum: string;
}

/** A `.sql` file of the folder that cannot be a migration; listed, never silently ignored. */
export interface MigrationFileProblem {
  readonly filename: string;
  readonly reason: string;
}

export interface MigrationRecord {
  readonly version: string;
  readonly name: string;
  readonly filename: string;
  readonly checksum: string;
  readonly appliedAt: string;
  readonly executionMs: number;
}

export interface MigrationStatus {
  readonly status: MigrationStatusName;
  readonly version: string;
  readonly name: string;
  /** The file's name, or the recorded one for a MISSING migration. */
  readonly filename: string;
  readonly file?: MigrationFile;
  readonly record?: MigrationRecord;
}

/** SHA-256 hex of the whole file with CRLF turned into LF, so that a line-ending change is not a CHANGED. */
export function migrationChecksum(content: Buffer | string): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  // latin1 maps bytes to characters one to one: the replacement works on bytes, whatever the encoding.
  const normalized = Buffer.from(bytes.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
  return createHash('sha256').update(normalized).digest('hex');
}

/** Reads `<root>/mvc/migrations/`: valid files by ascending version, and problems with the other `.sql` files. */
export function readMigrationFiles(root: string): { files: MigrationFile[]; problems: MigrationFileProblem[] } {
  const dir = path.join(root, MIGRATIONS_DIR);
  const files: MigrationFile[] = [];
  const problems: MigrationFileProblem[] = [];
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [];
  const byVersion = new Map<string, string>();
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!entry.name.toLowerCase().endsWith('.sql')) continue;
    const filename = entry.name;
    if (!entry.isFile()) {
      problems.push({ filename, reason: "ce n'est pas un fichier" });
      continue;
    }
    const match = FILE_NAME.exec(filename);
    if (!match) {
      problems.push({ filename, reason: 'nom invalide, attendu YYYYMMDDHHMMSS_<nom>.sql (lettres, chiffres, « _ », « - »)' });
      continue;
    }
    const [, version, name] = match as unknown as [string, string, string];
    if (!isTimestamp(version)) {
      problems.push({ filename, reason: `horodatage invalide « ${version} » (AAAAMMJJHHMMSS)` });
      continue;
    }
    const other = byVersion.get(version);
    if (other) {
      problems.push({ filename, reason: `même version que « ${other} »` });
      continue;
    }
    const full = path.join(dir, filename);
    const bytes = fs.readFileSync(full);
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    if (!text.trim()) {
      problems.push({ filename, reason: 'fichier vide' });
      continue;
    }
    byVersion.set(version, filename);
    files.push({ version, name, filename, path: full, text, checksum: migrationChecksum(bytes) });
  }
  files.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  return { files, problems };
}

function isTimestamp(version: string): boolean {
  const [month, day, hour, minute, second] = [4, 6, 8, 10, 12].map((at) => Number(version.slice(at, at + 2))) as [
    number, number, number, number, number,
  ];
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59;
}

/** Statuses from files and rows joined on the version, by ascending version (pure). */
export function computeStatuses(files: readonly MigrationFile[], records: readonly MigrationRecord[]): MigrationStatus[] {
  const recordByVersion = new Map(records.map((record) => [record.version, record]));
  const fileVersions = new Set(files.map((file) => file.version));
  const statuses: MigrationStatus[] = files.map((file) => {
    const record = recordByVersion.get(file.version);
    const status: MigrationStatusName = !record ? 'PENDING' : record.checksum === file.checksum ? 'APPLIED' : 'CHANGED';
    return { status, version: file.version, name: file.name, filename: file.filename, file, ...(record ? { record } : {}) };
  });
  for (const record of records) {
    if (!fileVersions.has(record.version)) {
      statuses.push({ status: 'MISSING', version: record.version, name: record.name, filename: record.filename, record });
    }
  }
  return statuses.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
}

/** `CREATE TABLE IF NOT EXISTS fw_migrations` for a dialect (DECISIONS §5 "Tables"). */
export function migrationsTableDdl(dialect: DialectName): string {
  if (dialect === 'mariadb') {
    return `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT,
  version CHAR(14) NOT NULL,
  name VARCHAR(255) NOT NULL,
  filename VARCHAR(255) NOT NULL,
  checksum CHAR(64) NOT NULL,
  applied_at DATETIME NOT NULL,
  execution_ms INT UNSIGNED NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uq_fw_migrations_version (version),
  UNIQUE KEY uq_fw_migrations_filename (filename)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`;
  }
  return `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  version CHAR(14) NOT NULL UNIQUE,
  name VARCHAR(255) NOT NULL,
  filename VARCHAR(255) NOT NULL UNIQUE,
  checksum CHAR(64) NOT NULL,
  applied_at DATETIME NOT NULL,
  execution_ms INTEGER NOT NULL
)`;
}

/** Creates `fw_migrations` when absent; resolves to true when it was created. */
export async function ensureMigrationsTable(handle: Handle): Promise<boolean> {
  if (await tableExists(handle, MIGRATIONS_TABLE)) return false;
  await handle.execute(migrationsTableDdl(dialectOf(handle)));
  return true;
}

/** The rows of `fw_migrations`, or null when the table does not exist (nothing applied yet). */
export async function readMigrationRecords(handle: Handle): Promise<MigrationRecord[] | null> {
  if (!(await tableExists(handle, MIGRATIONS_TABLE))) return null;
  const rows = await handle.fetchAll<{
    version: string; name: string; filename: string; checksum: string; applied_at: unknown; execution_ms: unknown;
  }>(`SELECT version, name, filename, checksum, applied_at, execution_ms FROM ${MIGRATIONS_TABLE} ORDER BY version`);
  return rows.map((row) => ({
    version: String(row.version).trim(),
    name: String(row.name),
    filename: String(row.filename),
    checksum: String(row.checksum).trim(),
    appliedAt: String(row.applied_at),
    executionMs: Number(row.execution_ms),
  }));
}

export interface StatusReport {
  readonly statuses: MigrationStatus[];
  readonly problems: MigrationFileProblem[];
  /** False when `fw_migrations` does not exist yet. */
  readonly tableExists: boolean;
}

/** Read-only: the statuses of the project's migrations against the database of `db`. */
export async function migrationStatuses(db: Database, root: string): Promise<StatusReport> {
  const { files, problems } = readMigrationFiles(root);
  const records = await readMigrationRecords(db);
  return { statuses: computeStatuses(files, records ?? []), problems, tableExists: records !== null };
}

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
}

/**
 * Applies the PENDING migrations in ascending version order (spec "Migration statuses"):
 * - refuses (CliError naming the culprits) while any file is invalid, or any migration is CHANGED or MISSING;
 * - records each migration in `fw_migrations` after it succeeded, with its execution time;
 * - stops at the first failure without recording it; the message names the file and the statement;
 * - holds a lock for the whole run, so that two runs at once apply each migration exactly once (the second
 *   waits, then finds them APPLIED): MariaDB `GET_LOCK` on the connection that applies, SQLite an immediate
 *   transaction, in which each file runs under its own savepoint (atomic per file).
 * `db` must use an account allowed to change the schema (see connection.ts).
 */
export async function applyMigrations(db: Database, root: string, options: ApplyOptions = {}): Promise<AppliedMigration[]> {
  const { files, problems } = readMigrationFiles(root);
  if (problems.length > 0) throw invalidFilesError(problems);
  return db.withConnection((connection) =>
    db.driver === 'sqlite'
      ? applyOnSqlite(connection, files, options)
      : applyOnMariaDb(connection, files, options),
  );
}

async function applyOnMariaDb(connection: Connection, files: MigrationFile[], options: ApplyOptions): Promise<AppliedMigration[]> {
  const timeout = options.lockTimeoutSeconds ?? 60;
  // One lock per database: two projects on the same server do not wait for each other.
  const lock = await connection.fetchOne<{ acquired: unknown }>(
    "SELECT GET_LOCK(CONCAT('fw_migrations:', DATABASE()), ?) AS acquired",
    [timeout],
  );
  if (Number(lock?.acquired) !== 1) {
    throw new CliError(
      `une autre exécution de « fw migration:apply » tient le verrou des migrations depuis plus de ${timeout} s.`,
      'attendez la fin de cette exécution, puis relancez « fw migration:apply ».',
    );
  }
  try {
    await ensureMigrationsTable(connection);
    const pending = plan(await pendingOrRefuse(connection, files), 'mariadb');
    const applied: AppliedMigration[] = [];
    for (const { file, statements } of pending) {
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
  try {
    await ensureMigrationsTable(connection);
    const pending = plan(await pendingOrRefuse(connection, files), 'sqlite');
    const applied: AppliedMigration[] = [];
    for (const { file, statements } of pending) {
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
      const executionMs = Math.round(performance.now() - started);
      await record(connection, file, executionMs);
      await connection.execute('RELEASE SAVEPOINT fw_migration');
      const done = { filename: file.filename, executionMs, statements: statements.length };
      applied.push(done);
      options.onApplied?.(done);
    }
    await connection.execute('COMMIT');
    open = false;
    return applied;
  } finally {
    if (open) await connection.execute('ROLLBACK').catch(() => {});
  }
}

/** The PENDING files, after checking under the lock that nothing is CHANGED or MISSING. */
async function pendingOrRefuse(connection: Connection, files: MigrationFile[]): Promise<MigrationFile[]> {
  const statuses = computeStatuses(files, (await readMigrationRecords(connection)) ?? []);
  const culprits = statuses.filter((status) => status.status === 'CHANGED' || status.status === 'MISSING');
  if (culprits.length > 0) {
    const list = culprits.map((status) => `${status.status} ${status.filename}`).join(', ');
    throw new CliError(
      `migration:apply refuse de s'exécuter : ${culprits.length} migration(s) modifiée(s) ou absente(s) (${list}) ; aucune migration n'a été appliquée.`,
      'une migration appliquée ne se modifie pas et ne se supprime pas : restaurez le fichier (CHANGED : son contenu d\'origine, MISSING : le fichier), puis écrivez une nouvelle migration pour le changement voulu.',
    );
  }
  return statuses.filter((status) => status.status === 'PENDING').map((status) => status.file!);
}

/** Transaction control that would break the transaction fw runs each SQLite migration in. */
const TRANSACTION_CONTROL = /^(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/**
 * Cuts every pending file into statements before anything runs, so that a malformed file (DELIMITER, unknown
 * dialect marker, transaction control on SQLite) stops the run before the first migration, not in the middle.
 */
function plan(files: readonly MigrationFile[], dialect: DialectName): Array<{ file: MigrationFile; statements: SqlStatement[] }> {
  return files.map((file) => {
    const statements = splitSqlStatements(dialectSection(file.text, dialect, file.filename), dialect, file.filename);
    const control = dialect === 'sqlite' ? statements.find((statement) => TRANSACTION_CONTROL.test(statement.text)) : undefined;
    if (control) {
      throw new CliError(
        `${file.filename}, ligne ${control.line} : « ${control.text.split(/\s+/)[0]} » — fw exécute déjà chaque migration SQLite dans une transaction ; aucune migration n'a été appliquée.`,
        'retirez BEGIN / COMMIT / ROLLBACK du fichier, puis relancez « fw migration:apply ».',
      );
    }
    return { file, statements };
  });
}

async function record(connection: Connection, file: MigrationFile, executionMs: number): Promise<void> {
  await connection.execute(
    `INSERT INTO ${MIGRATIONS_TABLE} (version, name, filename, checksum, applied_at, execution_ms) VALUES (?, ?, ?, ?, ?, ?)`,
    [file.version, file.name, file.filename, file.checksum, formatUtcDateTime(new Date()), executionMs],
  );
}

const SHOWN_STATEMENT = 300;

function statementFailure(
  file: MigrationFile,
  statements: readonly SqlStatement[],
  index: number,
  error: unknown,
  dialect: DialectName,
): CliError {
  const statement = statements[index]!;
  const text = statement.text.length > SHOWN_STATEMENT ? `${statement.text.slice(0, SHOWN_STATEMENT)}…` : statement.text;
  const reason = error instanceof Error ? error.message : String(error);
  let consequence: string;
  if (dialect === 'sqlite') {
    consequence = "cette migration a été annulée en entier (transaction) et n'est pas enregistrée";
  } else if (index > 0) {
    consequence =
      `cette migration n'est pas enregistrée, mais ses instructions précédentes (${index === 1 ? 'la 1re' : `1 à ${index}`}) ` +
      'ont peut-être déjà été validées : MariaDB valide le DDL implicitement';
  } else {
    consequence = "cette migration n'est pas enregistrée ; aucune de ses instructions n'a été exécutée";
  }
  return new CliError(
    `la migration « ${file.filename} » a échoué à l'instruction ${index + 1}/${statements.length} (ligne ${statement.line}) :\n` +
      `  ${text.replace(/\n/g, '\n  ')}\n` +
      `  → ${reason}\n` +
      `${consequence} ; les migrations suivantes n'ont pas été appliquées.`,
    dialect === 'mariadb' && index > 0
      ? 'vérifiez la base (les instructions déjà passées), corrigez le fichier pour qu\'il reparte de cet état, puis relancez « fw migration:apply ».'
      : 'corrigez le fichier (il est encore PENDING, il peut donc être modifié), puis relancez « fw migration:apply ».',
  );
}

/** The refusal for misnamed, empty or duplicated `.sql` files in mvc/migrations/. */
export function invalidFilesError(problems: readonly MigrationFileProblem[]): CliError {
  const list = problems.map((problem) => `${problem.filename} (${problem.reason})`).join(', ');
  return new CliError(
    `${problems.length} fichier(s) .sql invalide(s) dans mvc/migrations/ : ${list}.`,
    'renommez-les en YYYYMMDDHHMMSS_<nom>.sql (une version par fichier, contenu non vide) ou sortez-les du dossier.',
  );
}
