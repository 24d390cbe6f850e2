/**
 * `fw deploy:release [--from <dossier|archive>] [--root <dossier>] [--version <nom>] [--keep <N>] [--build <cmd>]
 * [--migrate <cmd>] [--reload <cmd> | --no-reload]` (docs/deploy.md "Releases"): builds a release in its own folder
 * (`releases/<version>`: copy or unpack, `storage` and `env/prod` linked to `shared/`, dependencies installed and
 * compiled, migrations applied), then switches `current` to it atomically and reloads the service (SIGHUP: the
 * workers are replaced one by one, no request lost). A failed step removes the folder and leaves `current` as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { projectRoot } from '../../current-project.js';

export const DEFAULT_BUILD = 'npm ci --no-audit --no-fund && npm run build';
export const DEFAULT_MIGRATE = 'npx --no-install fw migration:apply';

export function configure(command: Command): void {
  command.option('--from <source>', "dossier du projet ou archive .tar.gz/.tgz/.tar (défaut : le projet d'où la commande part)");
  command.option('--root <dossier>', 'dossier de déploiement (releases/, shared/, current) ; défaut : celui de la release courante');
  command.option('--version <nom>', "nom de la release (défaut : l'heure UTC, AAAAMMJJ-HHMMSS)");
  command.option('--keep <N>', 'releases gardées après le basculement (défaut : 5, au moins 2)');
  command.option('--build <commande>', `installation et compilation dans la release (défaut : ${DEFAULT_BUILD})`);
  command.option('--migrate <commande>', `migrations, avant le basculement, avec APP_ENV=prod (défaut : ${DEFAULT_MIGRATE})`);
  command.option('--reload <commande>', 'rechargement après le basculement (défaut : systemctl reload <application>)');
  command.option('--no-reload', 'bascule sans recharger le service');
}

export async function run({ options }: CommandInput): Promise<number> {
  const releases = await import('../../deploy/releases.js');
  const { appName } = await import('../../deploy/settings.js');
  const paths = releases.layout(releases.deployBase(options.root));
  const keep = releases.keepCount(options.keep);
  const version = releases.releaseVersion(options.version);
  const from = typeof options.from === 'string' ? options.from : projectRoot();
  releases.prepareShared(paths);
  const dir = path.join(paths.releases, version);
  if (fs.existsSync(dir)) {
    const { CliError } = await import('../../errors.js');
    throw new CliError(`la release ${version} existe déjà (${dir}).`, "un autre nom : « --version <nom> », ou sans --version (l'heure UTC).");
  }
  const previous = releases.currentRelease(paths);
  try {
    releases.unpack(from, dir);
    releases.linkShared(dir);
    releases.runStep('compilation', typeof options.build === 'string' ? options.build : DEFAULT_BUILD, dir);
    releases.runStep('migrations', typeof options.migrate === 'string' ? options.migrate : DEFAULT_MIGRATE, dir, { ...process.env, APP_ENV: 'prod' });
    releases.writeMarker(dir, { version, builtAt: new Date().toISOString() });
  } catch (error) {
    // Nothing of a release that did not build stays: `current` and the releases kept are untouched.
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  releases.switchCurrent(paths, version);
  process.stdout.write(`current → releases/${version}${previous ? ` (avant : ${previous})` : ''}\n`);
  const reload = options.reload === false ? undefined : typeof options.reload === 'string' ? options.reload : `systemctl reload ${appName(dir)}`;
  releases.reload(reload, dir, version);
  const removed = releases.prune(paths, keep);
  if (removed.length > 0) process.stdout.write(`Releases supprimées (--keep ${keep}) : ${removed.join(', ')}\n`);
  return 0;
}
