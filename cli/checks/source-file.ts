/**
 * Reading a project file for a check without ever throwing: a missing file, a folder, a symlink loop, an unreadable,
 * binary or oversized file each come back as a reason naming the file, for a FAIL result. Read-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { OUTSIDE_REASON, outsideProject } from './files.js';

/** Larger than any hand-written routes or controller file: beyond it a file is refused rather than parsed. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

export type SourceRead = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly missing: boolean; readonly reason: string };

/** `relative` (posix, from the project root) as text, or why it cannot be read as a text file. */
export function readSourceFile(root: string, relative: string, maxBytes = MAX_SOURCE_BYTES): SourceRead {
  const absolute = path.join(root, ...relative.split('/'));
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true, reason: `${relative} est introuvable` };
    if (code === 'ELOOP') return { ok: false, missing: false, reason: `${relative} est une boucle de liens symboliques` };
    return { ok: false, missing: false, reason: `${relative} ne se lit pas (${code ?? (error as Error).message})` };
  }
  if (!stat.isFile()) return { ok: false, missing: false, reason: `${relative} n'est pas un fichier` };
  // A link that leaves the project is not read: its content would reach the report (docs/diagnostics.md, FW-STRUCT-008).
  if (outsideProject(root, relative)) return { ok: false, missing: false, reason: `${relative} : ${OUTSIDE_REASON}` };
  if (stat.size > maxBytes) {
    return { ok: false, missing: false, reason: `${relative} est trop volumineux (${stat.size} octets, au plus ${maxBytes})` };
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, missing: false, reason: `${relative} ne se lit pas (${code ?? (error as Error).message})` };
  }
  if (bytes.includes(0)) return { ok: false, missing: false, reason: `${relative} est un fichier binaire, pas du texte` };
  return { ok: true, text: bytes.toString('utf8').replace(/^\uFEFF/, '') };
}
