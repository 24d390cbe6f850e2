/**
 * `fw backup:restore <sauvegarde> [--force]` (docs/deploy.md "Backups"): checks the backup against its manifest
 * (sizes, sha256) before touching anything, then puts back the database (SQLite: the file copied beside the
 * database and renamed over it; MariaDB: the dump fed to the `mariadb` client) and the upload root. A database
 * holding rows, or an upload root holding files, is only replaced with --force.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import type { DbSettings } from '../../db/connection.js';

export function configure(command: Command): void {
  command.argument('<sauvegarde>', 'dossier écrit par « fw backup:create »');
  command.option('--force', 'remplace une base qui a des lignes et des fichiers téléversés existants');
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const { findProjectRoot, readDbSettings } = await import('../../db/connection.js');
  const { projectUploadRoot } = await import('../../media/inspect.js');
  const backup = await import('../../deploy/backup.js');
  const dir = path.resolve(String(args[0]));
  const manifest = backup.verifyBackup(dir);
  const root = findProjectRoot();
  const settings = readDbSettings(root);
  if (manifest.dialect !== settings.driver) {
    throw new CliError(
      `la sauvegarde est une base ${manifest.dialect}, le projet utilise ${settings.driver} (DB_DRIVER de env/${settings.envName}).`,
      'restaurez-la dans un projet du même DB_DRIVER.',
    );
  }
  const uploads = projectUploadRoot(root);
  if (options.force !== true) {
    const filled = await tablesWithRows(settings);
    // A `.gitkeep` (the project template's) is no user's file.
    const present = backup.filesUnder(uploads, uploads).filter((file) => !path.posix.basename(file).startsWith('.'));
    if (filled.length > 0 || present.length > 0) {
      const what = [
        ...(filled.length > 0 ? [`la base a des lignes (${filled.join(', ')})`] : []),
        ...(present.length > 0 ? [`${path.relative(root, uploads) || uploads} a ${present.length} fichier(s)`] : []),
      ];
      throw new CliError(`${what.join(' et ')} : la restauration les remplacerait.`, "relancez avec --force pour les remplacer (arrêtez d'abord le service).");
    }
  }
  const source = path.join(dir, backup.databaseEntry(manifest.dialect));
  if (settings.driver === 'sqlite') {
    fs.mkdirSync(path.dirname(settings.file), { recursive: true });
    const temp = `${settings.file}.restore-${process.pid}`;
    fs.copyFileSync(source, temp);
    // An old journal next to the new file would be replayed into it.
    for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(settings.file + suffix, { force: true });
    fs.renameSync(temp, settings.file);
  } else {
    const { checkDatabaseName } = await import('../../db/connection.js');
    const fd = fs.openSync(source, 'r');
    try {
      backup.runMariaDbTool(settings, 'mariadb', ['--default-character-set=utf8mb4', checkDatabaseName(settings)], { stdin: fd });
    } finally {
      fs.closeSync(fd);
    }
  }
  const restoredUploads = restoreUploads(path.join(dir, 'uploads'), uploads);
  process.stdout.write(
    `Restauré depuis ${dir} (créée le ${manifest.created_at}, fw-mvc ${manifest.fw_mvc_version}) :\n` +
      `  base ${settings.driver === 'sqlite' ? settings.file : settings.name}\n  ${restoredUploads} fichier(s) dans ${uploads}\n`,
  );
  return 0;
}

/** The tables other than fw_migrations that hold at least one row. */
async function tablesWithRows(settings: DbSettings): Promise<string[]> {
  const { databaseFileMissing, openHandle, usingHandle } = await import('../../db/connection.js');
  if (databaseFileMissing(settings)) return [];
  const { listTables } = await import('../../db/schema.js');
  return usingHandle(openHandle(settings, 'schema'), async (handle) => {
    const filled: string[] = [];
    const quote = (name: string): string => (settings.driver === 'sqlite' ? `"${name.replace(/"/g, '""')}"` : `\`${name.replace(/`/g, '``')}\``);
    for (const table of await listTables(handle)) {
      if (table === 'fw_migrations') continue;
      if (await handle.fetchOne(`SELECT 1 AS found FROM ${quote(table)} LIMIT 1`)) filled.push(table);
    }
    return filled;
  });
}

/** Copies `from` beside `to`, then swaps it in (the old folder removed last). Returns the number of files. */
function restoreUploads(from: string, to: string): number {
  const parent = path.dirname(to);
  fs.mkdirSync(parent, { recursive: true });
  const incoming = `${to}.restore-${process.pid}`;
  const outgoing = `${to}.old-${process.pid}`;
  fs.rmSync(incoming, { recursive: true, force: true });
  if (fs.existsSync(from)) fs.cpSync(from, incoming, { recursive: true });
  else fs.mkdirSync(incoming);
  if (fs.existsSync(to)) fs.renameSync(to, outgoing);
  fs.renameSync(incoming, to);
  fs.rmSync(outgoing, { recursive: true, force: true });
  let count = 0;
  for (const entry of fs.readdirSync(to, { withFileTypes: true, recursive: true })) if (entry.isFile()) count++;
  return count;
}
