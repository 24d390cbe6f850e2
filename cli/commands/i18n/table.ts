import type { CommandEntry } from '../../command-entry.js';

/** The translation catalogue commands (help family `Projet`). */
export const I18N_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'i18n:init',
    family: 'Projet',
    usage: '',
    summary: "Crée ou complète translations/fr.json avec les clés utilisées qui n'ont pas encore de traduction.",
    load: () => import('./i18n-init.js'),
  },
  {
    name: 'i18n:check',
    family: 'Projet',
    usage: '[--json]',
    summary: "Vérifie les catalogues de traduction : clés manquantes, absentes d'un catalogue, vides (FAIL) ou inutilisées (WARN).",
    load: () => import('./i18n-check.js'),
  },
];
