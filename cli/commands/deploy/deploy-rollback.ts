/**
 * `fw deploy:rollback [--root <dossier>] [--reload <cmd> | --no-reload]` (docs/deploy.md "Releases"): points
 * `current` back at the release built before the current one, marks the one left as rolled back (a second rollback
 * goes further back), then reloads the service. Migrations are not undone (docs/deploy.md says why).
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';

export function configure(command: Command): void {
  command.option('--root <dossier>', 'dossier de déploiement (releases/, shared/, current) ; défaut : celui de la release courante');
  command.option('--reload <commande>', 'rechargement après le basculement (défaut : systemctl reload <application>)');
  command.option('--no-reload', 'bascule sans recharger le service');
}

export async function run({ options }: CommandInput): Promise<number> {
  const releases = await import('../../deploy/releases.js');
  const { appName } = await import('../../deploy/settings.js');
  const paths = releases.layout(releases.deployBase(options.root));
  const current = releases.currentRelease(paths);
  if (current === undefined)
    throw new CliError(
      `${paths.current} n'existe pas : aucune release n'est servie.`,
      'une première release : « fw deploy:release --root ' + paths.base + ' ».',
    );
  const completed = releases.completedReleases(paths);
  const at = completed.findIndex((release) => release.version === current);
  const candidates = (at === -1 ? completed : completed.slice(0, at)).filter((release) => !release.marker.rolledBack);
  const target = candidates.at(-1);
  if (!target)
    throw new CliError(
      `aucune release antérieure à ${current} dans ${paths.releases}.`,
      'le retour arrière demande une release précédente complète (--keep en garde 5 par défaut).',
    );
  const left = completed[at];
  if (left) releases.writeMarker(path.join(paths.releases, current), { ...left.marker, rolledBack: new Date().toISOString() });
  releases.switchCurrent(paths, target.version);
  process.stdout.write(`current → releases/${target.version} (avant : ${current}, marquée comme abandonnée)\n`);
  const dir = path.join(paths.releases, target.version);
  const reload = options.reload === false ? undefined : typeof options.reload === 'string' ? options.reload : `systemctl reload ${appName(dir)}`;
  releases.reload(reload, dir, target.version);
  return 0;
}
