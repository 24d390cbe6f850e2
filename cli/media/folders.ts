/** The upload folders `fw upload:init` and `fw media:init` create, reported line by line. */
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';
import { FATE_LABELS } from '../writer.js';

/**
 * Creates the folders (relative to `uploadRoot`; '.' is the root itself) that are missing, through the runtime's
 * ensureUploadDirs (real locations checked: a folder that is a link leading out of the root is refused); returns
 * one line per folder (`créé` or `inchangé`) and how many were created.
 */
export async function makeUploadFolders(
  projectRoot: string,
  uploadRoot: string,
  dirs: readonly string[],
  dryRun: boolean,
): Promise<{ lines: string[]; created: number }> {
  const { ensureUploadDirs } = await import('../../runtime/uploads/paths.js');
  const { UploadError } = await import('../../runtime/uploads/errors.js');
  const shown = (dir: string): string => {
    const relative = path.relative(projectRoot, path.join(uploadRoot, dir)).split(path.sep).join('/');
    return relative === '' ? '.' : relative.startsWith('..') ? path.join(uploadRoot, dir) : relative;
  };
  const wanted = ['.', ...dirs];
  const missing = new Set(wanted.filter((dir) => !fs.existsSync(path.join(uploadRoot, dir))));
  if (!dryRun && missing.size > 0) {
    try {
      ensureUploadDirs({ root: uploadRoot, dirs });
    } catch (err) {
      if (!(err instanceof UploadError)) throw err;
      throw new CliError(
        `${err.message.replace(/\.$/, '')} (dossier des dépôts ${uploadRoot}).`,
        'vérifiez les droits et les liens symboliques du dossier des dépôts (UPLOAD_ROOT), puis relancez la commande.',
      );
    }
  }
  const width = Math.max(...Object.values(FATE_LABELS).map((label) => label.length));
  const lines = wanted.map((dir) => `  ${(missing.has(dir) ? FATE_LABELS.created : FATE_LABELS.unchanged).padEnd(width)}  ${shown(dir)}/`);
  return { lines, created: missing.size };
}
