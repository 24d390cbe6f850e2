import type { CommandEntry } from '../../command-entry.js';

/** The upload and media commands (help family `Médias et JavaScript`). */
export const MEDIA_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'upload:init',
    family: 'Médias et JavaScript',
    usage: '[--dry-run]',
    summary: "Prépare les dossiers d'upload (images, images/medium, images/thumbnail, documents, tmp).",
    load: () => import('./upload-init.js'),
  },
  {
    name: 'media:init',
    family: 'Médias et JavaScript',
    usage: '[--dry-run]',
    summary: "Écrit le SQL de la table media (sans l'appliquer) et prépare les dossiers des variantes d'images.",
    load: () => import('./media-init.js'),
  },
];
