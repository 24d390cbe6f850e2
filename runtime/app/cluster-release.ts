/**
 * The primary under a release layout (docs/deploy.md "Releases"): the entry point it forks, relative to its folder,
 * and the switch to the release the `current` symlink names on SIGHUP (runtime/app/cluster.ts calls both).
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { getLogger } from '../logger.js';

const log = getLogger('fw.cluster');

/**
 * The entry point the primary was started with, relative to its working folder (`dist/app.js`); undefined when it
 * lies outside (the primary then keeps forking the file it was started with).
 */
export function entryInProject(): string | undefined {
  const script = process.argv[1];
  if (!script) return undefined;
  const relative = path.relative(process.cwd(), fs.realpathSync(path.resolve(script)));
  return relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative;
}

/**
 * Under a release layout (docs/deploy.md "Releases"), APP_DIR names the `current` symlink the service was started
 * in. The kernel resolved it once, at the start: the primary's working folder and the entry point node:cluster forks
 * (process.argv[1]) are those of the release then current. On SIGHUP the primary re-enters APP_DIR, which resolves
 * the symlink again, and forks `APP_DIR/<entry>` from then on: the replacements run the new release, in its folder.
 * The primary's own code (this file) stays the one it started with: docs/deploy.md says when a restart is needed.
 */
export function followRelease(entry: string | undefined): void {
  const dir = process.env.APP_DIR?.trim();
  if (!dir || entry === undefined) return;
  try {
    const target = fs.realpathSync(dir);
    if (!fs.existsSync(path.join(target, entry))) throw new Error(`${path.join(dir, entry)} introuvable`);
    process.chdir(dir);
    cluster.setupPrimary({ exec: path.join(dir, entry) });
    log.info(`SIGHUP : les nouveaux processus partent de ${target}.`);
  } catch (error) {
    log.error(`APP_DIR « ${dir} » : ${(error as Error).message} ; les processus gardent le dossier ${process.cwd()}.`);
  }
}
