/**
 * Paths of the upload chain (docs/uploads.md "Paths and categories"): the upload
 * root, categories, safe file names, media paths and their place on disk. Every path that reaches the disk is
 * checked twice: by its text (normalizeMediaPath) and by its real location, symbolic links resolved, which must
 * stay inside the real upload root.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getPath } from '../config.js';
import { UploadPathError, UploadStorageError, storageFailure } from './errors.js';

/** Category names (docs/uploads.md "Paths and categories"). */
const CATEGORY_PATTERN = /^[A-Za-z0-9_-]+$/;
/** Longest category name: a path must fit the `media.path` column (255) with its file name. */
export const CATEGORY_MAX_LENGTH = 64;
/** Longest stored file name stem before its random suffix. */
const STEM_MAX_LENGTH = 100;
const EXTENSION_MAX_LENGTH = 16;

/** The folders `ensureUploadDirs()` (and `fw upload:init`) create under the upload root. */
export const UPLOAD_DIRS: readonly string[] = ['images', 'images/medium', 'images/thumbnail', 'documents', 'tmp'];

/** Folders are made owner rwx, group rx; files owner rw, group r (the application serves them, not a web server). */
export const DIR_MODE = 0o750;
export const FILE_MODE = 0o640;

/** `upload_root()`: the `upload_root` key resolved from `project_root` (absolute). */
export function uploadRoot(): string {
  return getPath('upload_root');
}

/** `safe_category(category)`: the name itself when it matches `^[A-Za-z0-9_-]+$` (64 characters at most); else UploadPathError. */
export function safeCategory(category: string): string {
  if (typeof category !== 'string' || !CATEGORY_PATTERN.test(category) || category.length > CATEGORY_MAX_LENGTH) {
    throw new UploadPathError(
      String(category),
      `une catégorie ne contient que des lettres, chiffres, « _ » et « - » (${CATEGORY_MAX_LENGTH} au plus), par exemple images, documents ou tmp`,
    );
  }
  return category;
}

/**
 * `normalize_media_path(path)`: the relative POSIX form of a media path (`images//a.jpg` and `images/./a.jpg` give
 * `images/a.jpg`). Refused (UploadPathError): anything but a non-empty string, absolute Unix or Windows paths, UNC
 * paths, URLs and any URI scheme (any `:`), backslashes, `..` segments, null bytes and other control characters.
 * Percent signs are not decoded: `%2e%2e` is a literal name.
 */
export function normalizeMediaPath(value: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new UploadPathError(String(value ?? ''), 'chemin vide');
  if (value.length > 1024) throw new UploadPathError(value, 'chemin trop long');
  if (value.includes('\0')) throw new UploadPathError(value, 'octet nul');
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new UploadPathError(value, 'caractère de contrôle');
  if (value.includes('\\')) throw new UploadPathError(value, 'barre oblique inversée (chemin Windows ou UNC)');
  if (value.startsWith('/')) throw new UploadPathError(value, 'chemin absolu');
  if (value.includes(':')) throw new UploadPathError(value, 'schéma d’URI, lecteur Windows ou « : »');
  const segments = value.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment === '..')) throw new UploadPathError(value, 'remontée « .. »');
  if (segments.length === 0) throw new UploadPathError(value, 'chemin vide');
  return segments.join('/');
}

/**
 * `secure_filename()`: the base name only (no folder), accents folded (`é` → `e`), every character outside
 * `A-Z a-z 0-9 . _ -` (spaces included) replaced by `_`, null bytes removed, no leading dot (no hidden file),
 * a stem of 100 characters at most. An empty result becomes `fichier`.
 */
export function secureFilename(name: string): string {
  let base = String(name ?? '').replace(/\0/g, '');
  base = base.slice(Math.max(base.lastIndexOf('/'), base.lastIndexOf('\\')) + 1);
  base = base.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  base = base
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[._-]+/, '')
    .replace(/[._]+$/, '');
  const dot = base.lastIndexOf('.');
  let stem = dot > 0 ? base.slice(0, dot) : base;
  let extension = dot > 0 ? base.slice(dot + 1) : '';
  stem = stem.slice(0, STEM_MAX_LENGTH).replace(/[._]+$/, '');
  extension = extension.slice(0, EXTENSION_MAX_LENGTH);
  if (stem === '') stem = 'fichier';
  // Names Windows reserves for devices, should the folder ever be copied there.
  if (/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(stem)) stem = `_${stem}`;
  return extension === '' ? stem : `${stem}.${extension}`;
}

/** `generate_unique_filename()`: the secure name with `_` and a random 32-digit hexadecimal UUID before its (lower-cased) extension. */
export function generateUniqueFilename(name: string): string {
  const secure = secureFilename(name);
  const dot = secure.lastIndexOf('.');
  const stem = dot > 0 ? secure.slice(0, dot) : secure;
  const extension = dot > 0 ? `.${secure.slice(dot + 1).toLowerCase()}` : '';
  return `${stem}_${randomUUID().replace(/-/g, '')}${extension}`;
}

/** The real path of an existing folder or file, or null when it does not exist. */
function realpathOrNull(target: string): string | null {
  try {
    return fs.realpathSync(target);
  } catch {
    return null;
  }
}

function isInside(real: string, realRoot: string): boolean {
  return real === realRoot || real.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep);
}

/**
 * Throws UploadPathError unless the real location of `target` stays inside the real `root`: the target itself when
 * it exists, else its deepest existing folder. A symbolic link inside the root that points outside is refused,
 * and so is a dangling one.
 */
export function assertContained(root: string, target: string, shown: string): void {
  const realRoot = realpathOrNull(root);
  if (realRoot === null) return; // no root yet: nothing under it exists, no link can lead out
  let probe = target;
  for (;;) {
    let exists = true;
    try {
      fs.lstatSync(probe);
    } catch {
      exists = false;
    }
    if (exists) break;
    const parent = path.dirname(probe);
    if (parent === probe) return;
    probe = parent;
  }
  const real = realpathOrNull(probe);
  if (real === null || !isInside(real, realRoot)) {
    throw new UploadPathError(shown, 'son emplacement réel (liens symboliques résolus) sort du dossier des dépôts');
  }
}

/**
 * `media_path_to_storage_path(path, root=...)`: the absolute path of a media path under `root` (default: the
 * upload root), after normalizeMediaPath and the containment checks (text, then real location). The file need
 * not exist.
 */
export function mediaPathToStoragePath(mediaPath: string, options: { root?: string } = {}): string {
  const normalized = normalizeMediaPath(mediaPath);
  const root = path.resolve(options.root ?? uploadRoot());
  const target = path.resolve(root, ...normalized.split('/'));
  if (!target.startsWith(root + path.sep)) throw new UploadPathError(mediaPath, 'hors du dossier des dépôts');
  assertContained(root, target, mediaPath);
  return target;
}

/** `get_upload_path(relative_path)`: mediaPathToStoragePath under the configured upload root. */
export function getUploadPath(relativePath: string): string {
  return mediaPathToStoragePath(relativePath);
}

/** Creates a folder (and its parents) inside `root`, then checks that its real location stayed inside. */
export function makeDirInside(root: string, relative: string): string {
  const target = mediaPathToStoragePath(relative, { root });
  try {
    fs.mkdirSync(root, { recursive: true, mode: DIR_MODE });
    fs.mkdirSync(target, { recursive: true, mode: DIR_MODE });
  } catch (err) {
    const detail = `Impossible de créer le dossier de dépôt « ${relative} » sous ${root} : ${(err as Error).message}`;
    throw storageFailure(err, relative, detail, () => new UploadStorageError(detail, { cause: err }));
  }
  assertContained(root, target, relative);
  if (!fs.statSync(target).isDirectory()) throw new UploadStorageError(`« ${relative} » existe sous ${root} mais n'est pas un dossier.`);
  return target;
}

/** `category_dir(category)`: the absolute folder of a category under the upload root, created when missing. */
export function categoryDir(category: string, options: { root?: string } = {}): string {
  return makeDirInside(path.resolve(options.root ?? uploadRoot()), safeCategory(category));
}

/**
 * `ensure_upload_dirs()`: creates the upload root and images, images/medium, images/thumbnail, documents and tmp
 * under it (mode 0750); returns the folders it created, relative to the root (none on a second run).
 */
export function ensureUploadDirs(options: { root?: string; dirs?: readonly string[] } = {}): string[] {
  const root = path.resolve(options.root ?? uploadRoot());
  const created: string[] = [];
  if (!fs.existsSync(root)) created.push('.');
  for (const dir of options.dirs ?? UPLOAD_DIRS) {
    const existed = fs.existsSync(path.join(root, dir));
    makeDirInside(root, dir);
    if (!existed) created.push(dir);
  }
  return created;
}
