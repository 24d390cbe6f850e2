/**
 * Reading a project's files for the checks without ever throwing and without following them anywhere dangerous:
 * a file that is absent, a folder where a file is expected, a symbolic link loop, a file that cannot be read
 * (permissions), a file too large to be a source file, or a binary file each come back as a reason naming it, which
 * the check reports as a FAIL. A file or folder whose real path (links resolved) lies outside the project is never
 * read nor walked into: its content would otherwise reach the report (a parse error quotes it); FW-STRUCT-008
 * reports the link (docs/diagnostics.md). Reads only: no write, no cache.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The largest source file a check reads (entities, templates, catalogues…): a bigger one is refused, not parsed. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

export type SourceRead = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** `root`-relative posix path → absolute path. */
export function absolute(root: string, relative: string): string {
  return path.join(root, ...relative.split('/'));
}

/** The reason given for a file reached by a link that leaves the project (it is not read). */
export const OUTSIDE_REASON = 'lien symbolique qui mène hors du projet : non lu (voir FW-STRUCT-008)';

/** True when `real` (a resolved path) is `realRoot` or lies below it. */
function within(realRoot: string, real: string): boolean {
  const relative = path.relative(realRoot, real);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The project's root with its links resolved (the root itself may be reached through a link). */
export function realRoot(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/**
 * True when `relative` exists and its real path (every link on the way resolved) lies outside the project: a check
 * must not read it. False when it is absent or cannot be resolved (a loop: the read reports that).
 */
export function outsideProject(root: string, relative: string): boolean {
  let real: string;
  try {
    real = fs.realpathSync(absolute(root, relative));
  } catch {
    return false;
  }
  return !within(realRoot(root), real);
}

/** Why a filesystem call failed, in French, from its error code. */
export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'introuvable';
    case 'EACCES':
    case 'EPERM':
      return 'lecture refusée (droits insuffisants)';
    case 'ELOOP':
      return 'boucle de liens symboliques';
    case 'EISDIR':
      return 'un dossier se trouve là où un fichier est attendu';
    case 'ENOTDIR':
      return 'un fichier se trouve là où un dossier est attendu';
    default:
      return `lecture impossible (${code ?? (error as Error)?.message ?? String(error)})`;
  }
}

/** The text of a source file, or why it cannot be read: never throws. */
export function readSource(root: string, relative: string, maxBytes = MAX_SOURCE_BYTES): SourceRead {
  const file = absolute(root, relative);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    return { ok: false, reason: fsReason(error) };
  }
  if (stat.isDirectory()) return { ok: false, reason: 'un dossier se trouve là où un fichier est attendu' };
  if (!stat.isFile()) return { ok: false, reason: "ce n'est pas un fichier ordinaire" };
  if (outsideProject(root, relative)) return { ok: false, reason: OUTSIDE_REASON };
  if (stat.size > maxBytes) {
    return { ok: false, reason: `fichier trop volumineux (${stat.size} octets, au plus ${maxBytes}) : ce n'est pas un fichier source` };
  }
  let buffer: Buffer;
  try {
    buffer = fs.readFileSync(file);
  } catch (error) {
    return { ok: false, reason: fsReason(error) };
  }
  if (buffer.includes(0)) return { ok: false, reason: 'fichier binaire (octet nul) : un fichier texte est attendu' };
  return { ok: true, text: buffer.toString('utf8') };
}

/** True when `relative` is a folder (through links); false when absent or not a folder, never throws. */
export function isDirectory(root: string, relative: string): boolean {
  try {
    return fs.statSync(absolute(root, relative)).isDirectory();
  } catch {
    return false;
  }
}

/** What is at `relative`: a file, a folder, something else, nothing, or an error (a loop…) with its reason. */
export function entryKind(root: string, relative: string): 'file' | 'dir' | 'other' | 'absent' | { readonly reason: string } {
  try {
    const stat = fs.statSync(absolute(root, relative));
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : 'other';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && !isDanglingLink(root, relative) ? 'absent' : { reason: fsReason(error) };
  }
}

function isDanglingLink(root: string, relative: string): boolean {
  try {
    return fs.lstatSync(absolute(root, relative)).isSymbolicLink();
  } catch {
    return false;
  }
}

export interface WalkProblem {
  /** Posix, relative to the project root. */
  readonly file: string;
  readonly reason: string;
}

/**
 * Every plain file under the folder `relative` (posix paths from the root, sorted), following symbolic links to
 * files and folders inside the project but never twice into the same real folder; a loop, a dangling link or an
 * unreadable folder is a problem naming it, never an exception. A link whose target lies outside the project is
 * neither listed nor followed: it is in `outside` (FW-STRUCT-008 reports it). `skip` names folders left out
 * (`node_modules`).
 */
export function walkFiles(
  root: string,
  relative: string,
  skip: ReadonlySet<string> = new Set(),
): { files: string[]; problems: WalkProblem[]; outside: string[] } {
  const files: string[] = [];
  const problems: WalkProblem[] = [];
  const outside: string[] = [];
  const seen = new Set<string>();
  const top = realRoot(root);
  const walk = (dir: string): void => {
    let real: string;
    let entries: fs.Dirent[];
    try {
      real = fs.realpathSync(absolute(root, dir));
      if (!within(top, real)) {
        outside.push(dir);
        return;
      }
      if (seen.has(real)) {
        problems.push({ file: dir, reason: 'boucle de liens symboliques (ce dossier est déjà parcouru)' });
        return;
      }
      seen.add(real);
      entries = fs.readdirSync(absolute(root, dir), { withFileTypes: true });
    } catch (error) {
      problems.push({ file: dir, reason: fsReason(error) });
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const child = `${dir}/${entry.name}`;
      if (skip.has(entry.name)) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.push(child);
      else if (entry.isSymbolicLink()) {
        const kind = entryKind(root, child);
        if ((kind === 'dir' || kind === 'file') && outsideProject(root, child)) outside.push(child);
        else if (kind === 'dir') walk(child);
        else if (kind === 'file') files.push(child);
        else if (kind === 'absent') problems.push({ file: child, reason: 'lien symbolique vers une cible absente' });
        else if (typeof kind === 'object') problems.push({ file: child, reason: kind.reason });
      }
    }
  };
  if (isDirectory(root, relative)) walk(relative);
  return { files, problems, outside };
}
