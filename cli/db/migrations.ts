/**
 * Versioned SQL migrations (docs/entities.md "Migration files", docs/decisions.md#migrations): files
 * `mvc/migrations/YYYYMMDDHHMMSS_<name>.sql`, the table `fw_migrations`, statuses recomputed from files and
 * rows joined on the version. Applying them is migration-apply.ts; what each file runs, migration-plan.ts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database, DialectName } from '../../runtime/db/index.js';
import { CliError } from '../errors.js';
import { dialectOf, tableExists, type Handle } from './schema.js';

export const MIGRATIONS_TABLE = 'fw_migrations';
export const MIGRATIONS_DIR = path.join('mvc', 'migrations');

/** `YYYYMMDDHHMMSS_<name>.sql`; the name starts with a letter or digit, then letters, digits, `_` or `-`. */
export const MIGRATION_FILE_NAME = /^(\d{14})_([A-Za-z0-9][A-Za-z0-9_-]*)\.sql$/;

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
    const match = MIGRATION_FILE_NAME.exec(filename);
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
  const [month, day, hour, minute, second] = [4, 6, 8, 10, 12].map((at) => Number(version.slice(at, at + 2))) as [number, number, number, number, number];
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

/** `CREATE TABLE IF NOT EXISTS fw_migrations` in each dialect (docs/decisions.md#framework-tables). */
const MIGRATIONS_TABLE_DDL: Readonly<Record<DialectName, string>> = {
  mariadb: `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
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
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
  sqlite: `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  version CHAR(14) NOT NULL UNIQUE,
  name VARCHAR(255) NOT NULL,
  filename VARCHAR(255) NOT NULL UNIQUE,
  checksum CHAR(64) NOT NULL,
  applied_at DATETIME NOT NULL,
  execution_ms INTEGER NOT NULL
)`,
};

/** `CREATE TABLE IF NOT EXISTS fw_migrations` for a dialect. */
export function migrationsTableDdl(dialect: DialectName): string {
  return MIGRATIONS_TABLE_DDL[dialect];
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
    version: string;
    name: string;
    filename: string;
    checksum: string;
    applied_at: unknown;
    execution_ms: unknown;
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

/** The refusal for misnamed, empty or duplicated `.sql` files in mvc/migrations/. */
export function invalidFilesError(problems: readonly MigrationFileProblem[]): CliError {
  const list = problems.map((problem) => `${problem.filename} (${problem.reason})`).join(', ');
  return new CliError(
    `${problems.length} fichier(s) .sql invalide(s) dans mvc/migrations/ : ${list}.`,
    'renommez-les en YYYYMMDDHHMMSS_<nom>.sql (une version par fichier, contenu non vide) ou sortez-les du dossier.',
  );
}
