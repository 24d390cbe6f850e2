import type { CommandEntry } from '../../command-entry.js';

/** The `Projet` commands of the project itself (creation, routes). */
export const PROJECT_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'new',
    family: 'Projet',
    usage: '<Nom> [--ref <ref>] [--profile standard|auth-mfa] [--no-install]',
    summary: 'Crée un projet (version stable par défaut, --ref main pour la version de développement).',
    example: 'fw new MonProjet',
    load: () => import('./new.js'),
  },
  {
    name: 'routes:list',
    family: 'Projet',
    usage: '[--json]',
    summary: "Liste les routes de l'application.",
    load: () => import('./routes-list.js'),
  },
];

/** The `Projet` diagnostics (docs/diagnostics.md), printed after the i18n commands. */
export const PROJECT_CHECK_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'doctor',
    family: 'Projet',
    usage: '[--json] [--env <nom>] [--skip <ID>]',
    summary: 'Diagnostic en lecture seule (OK, WARN, FAIL, SKIP).',
    load: () => import('./doctor.js'),
  },
  {
    name: 'project:check',
    family: 'Projet',
    usage: '[--json] [--env <nom>] [--skip <ID>]',
    summary: 'Contrôle strict de la structure du projet (OK, WARN, FAIL).',
    load: () => import('./project-check.js'),
  },
  {
    name: 'project:audit',
    family: 'Projet',
    usage: '[--json] [--env <nom>] [--skip <ID>]',
    summary: 'Rapport détaillé et non destructif sur le projet (OK, WARN, FAIL, INFO).',
    load: () => import('./project-audit.js'),
  },
];
