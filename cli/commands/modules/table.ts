import type { CommandEntry } from '../../command-entry.js';

/** The local modules (help family `Starters et modules`, after the starters). */
export const MODULE_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'module:list',
    family: 'Starters et modules',
    usage: '[--path modules]',
    summary: 'Liste les modules locaux (version, installé ou non).',
    load: () => import('./module-list.js'),
  },
  {
    name: 'module:install',
    family: 'Starters et modules',
    usage: '<nom> [--path modules] [--dry-run]',
    summary: 'Enregistre un module dans fw_modules.json.',
    example: 'fw module:install blog',
    load: () => import('./module-install.js'),
  },
  {
    name: 'module:files',
    family: 'Starters et modules',
    usage: '<nom> [--dry-run]',
    summary: "Copie les fichiers déclarés d'un module installé.",
    example: 'fw module:files blog',
    load: () => import('./module-files.js'),
  },
  {
    name: 'module:routes',
    family: 'Starters et modules',
    usage: '<nom> [--dry-run]',
    summary: 'Écrit mvc/routes_<nom>.ts et affiche les lignes à ajouter à mvc/routes.ts.',
    example: 'fw module:routes blog',
    load: () => import('./module-routes.js'),
  },
];
