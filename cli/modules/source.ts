/**
 * The files a module provides, kind by kind, and where `fw module:files` puts them in the project (docs/decisions.md#local-modules;
 * docs/modules.md). The walk refuses symbolic links and anything that is not a plain file or folder: a module
 * copied into a project brings real files only, read from inside its own folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATION_FILE_NAME } from '../db/migrations.js';
import { CliError } from '../errors.js';
import type { LocalModule, ModuleKind } from './manifest.js';

/** A file of the module: its path inside the kind's folder (posix) and the project path it is copied to. */
export interface ModuleFile {
  readonly kind: ModuleKind;
  /** Posix, relative to the module folder: `views/index.html`. */
  readonly source: string;
  /** Posix, relative to the project root: `mvc/views/blog/index.html`. */
  readonly destination: string;
}

/** The project folder each copied kind goes to (`routes` is not copied: `fw module:routes` reads it). */
export function destinationFolder(kind: Exclude<ModuleKind, 'routes'>, name: string): string {
  switch (kind) {
    case 'views':
      return `mvc/views/${name}`;
    case 'controllers':
      return 'mvc/controllers';
    case 'entities':
      return 'mvc/entities';
    case 'static':
      return `static/modules/${name}`;
    case 'migrations':
      return 'mvc/migrations';
    case 'docs':
      return `docs/modules/${name}`;
  }
}

/** A backslash (a folder separator elsewhere) or a control character (a newline…): not in a module's file names. */
const BAD_NAME_CHARACTER = /[\\\u0000-\u001f\u007f]/;

/** The path as shown in a message: control characters written as escapes (`\n`, `\u0007`), so it stays on one line. */
function shownName(file: string): string {
  return file.replace(/[\u0000-\u001f\u007f]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Every plain file under `folder` (posix paths relative to it, sorted); a symbolic link anywhere is refused, and so is
 * a name with a backslash or a control character (the project paths it would be copied to are posix and one line).
 */
export function walkFiles(absoluteFolder: string, shownFolder: string): string[] {
  const out: string[] = [];
  const walk = (sub: string): void => {
    const entries = fs.readdirSync(path.join(absoluteFolder, ...sub.split('/').filter(Boolean)), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const relative = sub ? `${sub}/${entry.name}` : entry.name;
      if (BAD_NAME_CHARACTER.test(entry.name)) {
        throw new CliError(
          `nom refusé « ${shownName(`${shownFolder}/${relative}`)} » : le nom d'un fichier ou d'un dossier de module ne contient ni « \\ » ni caractère de contrôle (saut de ligne, tabulation…) ; rien n'a été écrit.`,
          'renommez-le dans le module (lettres, chiffres, « - », « _ », « . »), puis relancez la commande.',
        );
      }
      if (entry.isSymbolicLink()) {
        throw new CliError(
          `« ${shownFolder}/${relative} » est un lien symbolique : un module ne contient que de vrais fichiers, rien n'a été écrit.`,
          'remplacez le lien par une copie du fichier (ou du dossier) dans le module, puis relancez la commande.',
        );
      }
      if (entry.isDirectory()) walk(relative);
      else if (entry.isFile()) out.push(relative);
      else
        throw new CliError(
          `« ${shownFolder}/${relative} » n'est ni un fichier ni un dossier : refusé, rien n'a été écrit.`,
          'retirez-le du module, puis relancez la commande.',
        );
    }
  };
  walk('');
  return out;
}

/** A migration of the module must be named as `fw migration:make` names them, or migration:status would reject it. */
function checkMigrationName(module: LocalModule, folder: string, file: string): void {
  if (file.includes('/') || !MIGRATION_FILE_NAME.test(file)) {
    throw new CliError(
      `« ${module.dir}/${folder}/${file} » n'est pas un nom de migration : AAAAMMJJHHMMSS_<nom>.sql attendu, directement dans le dossier des migrations ; rien n'a été écrit.`,
      'renommez le fichier comme « fw migration:make » les nomme (par exemple 20250101120000_blog_articles.sql).',
    );
  }
}

/** The files of every copied kind the module provides, with their destinations; refuses symbolic links. */
export function moduleFiles(module: LocalModule): ModuleFile[] {
  const { name } = module.manifest;
  const files: ModuleFile[] = [];
  for (const kind of module.manifest.provides) {
    const folder = module.manifest.paths[kind]!;
    const shown = `${module.dir}/${folder}`;
    const found = walkFiles(path.join(module.absoluteDir, ...folder.split('/')), shown);
    if (kind === 'routes') continue;
    for (const file of found) {
      if (kind === 'migrations') checkMigrationName(module, folder, file);
      files.push({ kind, source: `${folder}/${file}`, destination: `${destinationFolder(kind, name)}/${file}` });
    }
  }
  return files;
}
