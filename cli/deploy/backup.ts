/**
 * Backups of a project (docs/deploy.md "Backups"): a folder holding the database (SQLite's online backup, or
 * `mariadb-dump --single-transaction`), a copy of the upload root and `manifest.json` (sizes and sha256 of every
 * file). The folder is written under a temporary name and renamed once complete, so a failed backup leaves nothing
 * that looks like one. `verifyBackup` checks a folder against its manifest before `fw backup:restore` touches anything.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError } from '../errors.js';
import { credentialsFor, checkDatabaseName, type DbSettings } from '../db/connection.js';

export const MANIFEST = 'manifest.json';
export const FORMAT_VERSION = 1;

export interface ManifestFile {
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
}

export interface Manifest {
  readonly format_version: number;
  readonly fw_mvc_version: string;
  readonly dialect: 'sqlite' | 'mariadb';
  readonly created_at: string;
  readonly files: ManifestFile[];
}

/** The database file of a backup, by dialect. */
export function databaseEntry(dialect: 'sqlite' | 'mariadb'): string {
  return dialect === 'sqlite' ? 'database.sqlite' : 'database.sql';
}

/** The folder name of a backup made at `date`: `2026-12-02T09-50-12-345Z` (UTC, sortable, no colon). */
export function backupName(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

export function sha256File(file: string): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    let read: number;
    while ((read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** Every regular file under `dir`, as `/`-separated paths relative to `base`, sorted. */
export function filesUnder(dir: string, base: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    found.push(path.relative(base, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  }
  return found.sort();
}

/** A temporary MariaDB option file holding the account (the password never appears on a command line). */
function withOptionFile<T>(settings: DbSettings, fn: (file: string) => T): T {
  const { credentials } = credentialsFor(settings, 'schema');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-backup-'));
  const file = path.join(dir, 'client.cnf');
  const quote = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  fs.writeFileSync(
    file,
    `[client]\nhost=${quote(credentials.host)}\nport=${credentials.port}\nuser=${quote(credentials.user)}\npassword=${quote(credentials.password)}\n`,
    { mode: 0o600 },
  );
  try {
    return fn(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs a MariaDB client program; a missing program or a failure is a CliError naming it. */
export function runMariaDbTool(settings: DbSettings, program: string, args: readonly string[], io: { stdin?: number; stdout?: number }): void {
  withOptionFile(settings, (optionFile) => {
    const run = spawnSync(program, [`--defaults-extra-file=${optionFile}`, ...args], {
      stdio: [io.stdin ?? 'ignore', io.stdout ?? 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    if (run.error) {
      throw new CliError(`${program} introuvable (${run.error.message}).`, 'installez le client MariaDB (paquet mariadb-client).');
    }
    if (run.status !== 0) {
      throw new CliError(`${program} a échoué (code ${run.status}) : ${run.stderr.trim()}`, 'vérifiez DB_ADMIN_* (ou DB_APP_*) et DB_NAME.');
    }
  });
}

/** Writes the database into `target` (a file of the backup folder being built). */
export async function dumpDatabase(settings: DbSettings, target: string): Promise<void> {
  if (settings.driver === 'sqlite') {
    if (!fs.existsSync(settings.file)) {
      throw new CliError(`la base SQLite ${settings.file} n'existe pas : rien à sauvegarder.`, 'vérifiez DB_FILE, ou lancez « fw db:init ».');
    }
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(settings.file, { fileMustExist: true });
    try {
      // SQLite's online backup: a consistent copy while the application keeps reading and writing.
      await db.backup(target);
    } finally {
      db.close();
    }
    return;
  }
  const name = checkDatabaseName(settings);
  const fd = fs.openSync(target, 'w', 0o600);
  try {
    runMariaDbTool(settings, 'mariadb-dump', ['--single-transaction', '--routines', '--triggers', '--hex-blob', '--default-character-set=utf8mb4', name], {
      stdout: fd,
    });
  } finally {
    fs.closeSync(fd);
  }
}

/** Builds the manifest of the finished files of `dir`. */
export function buildManifest(dir: string, dialect: 'sqlite' | 'mariadb', version: string, createdAt: Date): Manifest {
  const files = filesUnder(dir, dir).map((file) => {
    const absolute = path.join(dir, file);
    return { path: file, size: fs.statSync(absolute).size, sha256: sha256File(absolute) };
  });
  return { format_version: FORMAT_VERSION, fw_mvc_version: version, dialect, created_at: createdAt.toISOString(), files };
}

/**
 * Checks a backup folder before anything is restored: the manifest reads, its format is known, the database file
 * is there, and every listed file has its size and sha256. Throws a CliError naming the first bad file.
 */
export function verifyBackup(dir: string): Manifest {
  const manifestPath = path.join(dir, MANIFEST);
  if (!fs.existsSync(manifestPath)) {
    throw new CliError(`${manifestPath} est introuvable : ce dossier n'est pas une sauvegarde fw-mvc.`, 'donnez un dossier écrit par « fw backup:create ».');
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch (error) {
    throw new CliError(`${manifestPath} n'est pas du JSON valide (${(error as Error).message}).`, 'la sauvegarde est abîmée : prenez-en une autre.');
  }
  if (manifest.format_version !== FORMAT_VERSION || !Array.isArray(manifest.files) || (manifest.dialect !== 'sqlite' && manifest.dialect !== 'mariadb')) {
    throw new CliError(
      `${manifestPath} : format inconnu (format_version ${String(manifest.format_version)}).`,
      "restaurez-la avec la version de fw-mvc qui l'a écrite.",
    );
  }
  const listed = new Set<string>();
  for (const file of manifest.files) {
    const name = String(file.path);
    if (name.startsWith('/') || name.split('/').some((part) => part === '..' || part === '') || name === MANIFEST) {
      throw new CliError(`${manifestPath} : chemin refusé « ${name} ».`, 'la sauvegarde est abîmée : prenez-en une autre.');
    }
    const absolute = path.join(dir, ...name.split('/'));
    const stat = fs.statSync(absolute, { throwIfNoEntry: false });
    if (!stat?.isFile()) throw new CliError(`${name} manque dans la sauvegarde ${dir}.`, 'la sauvegarde est incomplète : prenez-en une autre.');
    if (stat.size !== file.size || sha256File(absolute) !== file.sha256) {
      throw new CliError(
        `${name} ne correspond pas au manifeste de ${dir} (taille ou sha256) : le fichier a été modifié ou abîmé.`,
        "rien n'a été restauré ; prenez une autre sauvegarde.",
      );
    }
    listed.add(name);
  }
  if (!listed.has(databaseEntry(manifest.dialect))) {
    throw new CliError(`${databaseEntry(manifest.dialect)} manque dans le manifeste de ${dir}.`, 'la sauvegarde est incomplète : prenez-en une autre.');
  }
  return manifest;
}

/** Removes the oldest backups of `parent` beyond `keep` (only folders holding a manifest). Returns the names removed. */
export function pruneBackups(parent: string, keep: number): string[] {
  const backups = fs
    .readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && fs.existsSync(path.join(parent, entry.name, MANIFEST)))
    .map((entry) => entry.name)
    .sort();
  const removed = backups.slice(0, Math.max(0, backups.length - keep));
  for (const name of removed) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  return removed;
}
