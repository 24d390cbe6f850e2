import type { CommandEntry } from '../../command-entry.js';

/** The starter applications (help family `Starters et modules`). */
export const STARTER_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'starter:list',
    family: 'Starters et modules',
    usage: '',
    summary: 'Liste les applications de démarrage (id, alias, description).',
    load: () => import('./starter-list.js'),
  },
  {
    name: 'starter:build',
    family: 'Starters et modules',
    usage: '<id|alias> [--dry-run] [--init-db] [--force] [--public]',
    summary: 'Construit une application de démarrage dans le projet (contacts, auth, carnet, suivi, mfa).',
    example: 'fw starter:build contacts',
    load: () => import('./starter-build.js'),
  },
];
