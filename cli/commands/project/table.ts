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

/** The `Projet` diagnostics (`doctor` is listed but not available yet), printed after the i18n commands. */
export const PROJECT_CHECK_COMMANDS: readonly CommandEntry[] = [
  { name: 'doctor', family: 'Projet', usage: '[--json]', summary: 'Diagnostic en lecture seule (OK, WARN, FAIL, SKIP).' },
  // project:check and project:audit are not implemented yet; their modules parse the arguments and refuse what they
  // will refuse (outside a project), then say the command is not available.
  {
    name: 'project:check',
    family: 'Projet',
    usage: '[--json]',
    summary: 'Contrôle strict de la structure du projet (OK, WARN, FAIL).',
    load: async () => (await import('./project-diagnostic.js')).projectDiagnostic('project:check'),
  },
  {
    name: 'project:audit',
    family: 'Projet',
    usage: '[--json]',
    summary: 'Rapport détaillé et non destructif sur le projet (OK, WARN, FAIL, INFO).',
    load: async () => (await import('./project-diagnostic.js')).projectDiagnostic('project:audit'),
  },
];
