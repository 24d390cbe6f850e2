/** The one way the upload chain writes a file: whole or not at all, never over an existing one. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UploadStorageError, storageFailure } from './errors.js';
import { FILE_MODE } from './paths.js';

/** Errors of `link()` on a file system without hard links: the rename fallback applies. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Writes `data` to `target`, which must not exist: first to a hidden temporary file of the same folder (mode 0640),
 * then hard-linked to its name (a link never replaces a file; where links are not supported, renamed after a check),
 * so that a reader never sees a half-written file. On failure nothing is left (UploadStorageError; the disk full or
 * read-only: UploadStorageUnavailableError, 507).
 */
export async function writeNewFile(target: string, data: Buffer | Uint8Array): Promise<void> {
  const temp = path.join(path.dirname(target), `.upload-${randomBytes(8).toString('hex')}.tmp`);
  try {
    await fs.promises.writeFile(temp, data, { flag: 'wx', mode: FILE_MODE });
    try {
      await fs.promises.link(temp, target);
    } catch (err) {
      if (!NO_LINKS.has(String((err as NodeJS.ErrnoException).code))) throw err;
      if (fs.existsSync(target)) throw Object.assign(new Error(`EEXIST: ${target}`), { code: 'EEXIST' });
      await fs.promises.rename(temp, target);
    }
  } catch (err) {
    const exists = (err as NodeJS.ErrnoException).code === 'EEXIST';
    const detail = exists
      ? `Le fichier ${target} existe déjà : un dépôt ne remplace jamais un fichier.`
      : `Écriture du fichier ${target} impossible : ${(err as Error).message}`;
    // A disk full or read-only: 507, the form shown again (docs/uploads.md "Errors"); anything else stays a 500.
    throw storageFailure(err, path.basename(target), detail, () => new UploadStorageError(detail, { cause: err }));
  } finally {
    await fs.promises.rm(temp, { force: true }).catch(() => {});
  }
}
