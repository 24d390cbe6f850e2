import type { CommandEntry } from '../../command-entry.js';

/** The database and migration commands (help family `Base de données`). */
export const DB_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'db:init',
    family: 'Base de données',
    usage: '[--app-hosts <hôtes>]',
    summary: "Prépare la base, l'utilisateur applicatif et la table fw_migrations.",
    load: () => import('./db-init.js'),
  },
  {
    name: 'db:apply',
    family: 'Base de données',
    usage: '[--dry-run]',
    summary: "Applique le SQL généré (tables puis relations, dans l'ordre des dépendances).",
    load: () => import('./db-apply.js'),
  },
  {
    name: 'migration:status',
    family: 'Base de données',
    usage: '[--json]',
    summary: 'État des migrations (APPLIED, PENDING, CHANGED, MISSING), en lecture seule.',
    load: () => import('./migration-status.js'),
  },
  {
    name: 'migration:make',
    family: 'Base de données',
    usage: '<nom> [--from-entity <Entité> | --from-entities | --from-diff <Entité> | --framework]',
    summary: "Crée un fichier de migration dans mvc/migrations/ sans l'appliquer.",
    example: 'fw migration:make ajout_contacts --from-entity Contact',
    load: () => import('./migration-make.js'),
  },
  {
    name: 'migration:diff',
    family: 'Base de données',
    usage: '--entity <Entité> | --all [--check] [--json]',
    summary: 'Compare une entité à sa table réelle (colonnes, index, clés uniques et étrangères), en lecture seule (--check : code 2 au moindre écart).',
    load: () => import('./migration-diff.js'),
  },
  {
    name: 'migration:apply',
    family: 'Base de données',
    usage: '[--allow-destructive]',
    summary: "Applique les migrations PENDING dans l'ordre des versions (refuse les étapes destructives sans --allow-destructive).",
    load: () => import('./migration-apply.js'),
  },
  {
    name: 'migration:lint',
    family: 'Base de données',
    usage: '[--json]',
    summary: "Étapes destructives des migrations PENDING et lignes touchées, en lecture seule (code 2 s'il y en a).",
    load: () => import('./migration-lint.js'),
  },
];
