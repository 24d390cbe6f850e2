/**
 * `fw backup:create [--out <dossier>] [--keep <N>]` (docs/deploy.md "Backups"): writes `<out>/<UTC date>/` with the
 * database (SQLite online backup or `mariadb-dump --single-transaction`), a copy of the upload root and
 * `manifest.json`. Built under a hidden temporary name, renamed once complete: a failure leaves no backup behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';

export function configure(command: Command): void {
  command.option('--out <dossier>', 'dossier où créer la sauvegarde (défaut : storage/backups)');
  command.option('--keep <N>', 'garde les N sauvegardes les plus récentes de ce dossier, supprime les autres');
}

export async function run({ options }: CommandInput): Promise<number> {
  const { findProjectRoot, readDbSettings } = await import('../../db/connection.js');
  const { projectUploadRoot } = await import('../../media/inspect.js');
  const backup = await import('../../deploy/backup.js');
  const { packageInfo } = await import('../../package-root.js');
  const root = findProjectRoot();
  const settings = readDbSettings(root);
  let keep: number | undefined;
  if (options.keep !== undefined) {
    keep = Number(options.keep);
    if (!Number.isInteger(keep) || keep < 1)
      throw new CliError(`--keep attend un entier positif (lu : « ${String(options.keep)} »).`, 'par exemple « --keep 14 ».');
  }
  const parent = path.resolve(root, typeof options.out === 'string' ? options.out : path.join('storage', 'backups'));
  fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
  const createdAt = new Date();
  const name = backup.backupName(createdAt);
  const final = path.join(parent, name);
  if (fs.existsSync(final)) throw new CliError(`${final} existe déjà.`, "relancez la commande (le nom suit l'heure, à la milliseconde).");
  const temp = path.join(parent, `.${name}.partial`);
  fs.mkdirSync(temp, { mode: 0o700 });
  try {
    // The database first, then the uploads: a row that names a file was committed after the file was written.
    await backup.dumpDatabase(settings, path.join(temp, backup.databaseEntry(settings.driver)));
    const uploads = projectUploadRoot(root);
    if (fs.existsSync(uploads)) fs.cpSync(uploads, path.join(temp, 'uploads'), { recursive: true });
    else fs.mkdirSync(path.join(temp, 'uploads'));
    const manifest = backup.buildManifest(temp, settings.driver, packageInfo().version, createdAt);
    fs.writeFileSync(path.join(temp, backup.MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(temp, final);
    const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0);
    const uploadCount = manifest.files.filter((file) => file.path.startsWith('uploads/')).length;
    process.stdout.write(
      `Sauvegarde écrite : ${final}\n  ${backup.databaseEntry(settings.driver)} (${settings.driver}), ${uploadCount} fichier(s) téléversé(s), ${bytes} octets en tout.\n`,
    );
  } catch (error) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  if (keep !== undefined) {
    const removed = backup.pruneBackups(parent, keep);
    if (removed.length > 0) process.stdout.write(`Supprimées (au-delà de --keep ${keep}) : ${removed.join(', ')}\n`);
  }
  return 0;
}
