import type { CommandEntry } from '../../command-entry.js';

/** The deployment commands (help family `Déploiement`, docs/deploy.md). */
export const DEPLOY_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'deploy:init',
    family: 'Déploiement',
    usage: '[--domain <nom>] [--user <nom>] [--force] [--dry-run]',
    summary: "Écrit le site nginx (HTTPS), le service systemd, env/prod s'il manque et README_DEPLOY.md.",
    load: () => import('./deploy-init.js'),
  },
  {
    name: 'deploy:check',
    family: 'Déploiement',
    usage: '[--json] [--skip <ID>]',
    summary: 'Vérifie la préparation à la production (doctor --env prod, build, migrations, base, nginx, systemd).',
    load: () => import('./deploy-check.js'),
  },
  {
    name: 'deploy:release',
    family: 'Déploiement',
    usage: '[--from <dossier|archive>] [--root <dossier>] [--version <nom>] [--keep <N>] [--build <cmd>] [--migrate <cmd>] [--reload <cmd> | --no-reload]',
    summary: 'Construit une release dans releases/<version>, applique les migrations, bascule current et recharge le service.',
    load: () => import('./deploy-release.js'),
  },
  {
    name: 'deploy:rollback',
    family: 'Déploiement',
    usage: '[--root <dossier>] [--reload <cmd> | --no-reload]',
    summary: 'Revient à la release précédente (bascule current, recharge le service).',
    load: () => import('./deploy-rollback.js'),
  },
  {
    name: 'backup:create',
    family: 'Déploiement',
    usage: '[--out <dossier>] [--keep <N>]',
    summary: 'Sauvegarde cohérente de la base et des fichiers téléversés dans storage/backups/<date>/ (avec manifest.json et sha256).',
    load: () => import('./backup-create.js'),
  },
  {
    name: 'backup:restore',
    family: 'Déploiement',
    usage: '<sauvegarde> [--force]',
    summary: 'Vérifie une sauvegarde (sha256) puis restaure la base et les fichiers téléversés (--force remplace des données existantes).',
    example: 'fw backup:restore storage/backups/2026-12-02T03-00-00-000Z',
    load: () => import('./backup-restore.js'),
  },
];
