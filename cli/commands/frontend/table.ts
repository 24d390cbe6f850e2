import type { CommandEntry } from '../../command-entry.js';

/** The JavaScript libraries and the CSS build (help family `Médias et JavaScript`, after the media). */
export const FRONTEND_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'js:init',
    family: 'Médias et JavaScript',
    usage: 'htmx|alpine|htmx-alpine',
    summary: 'Ajoute htmx et/ou Alpine (build CSP) : dépendance npm, copie dans static/vendor/ ; les layouts ne sont pas modifiés.',
    example: 'fw js:init htmx',
    load: () => import('./js-init.js'),
  },
  {
    name: 'build:css',
    family: 'Médias et JavaScript',
    usage: '',
    summary: 'Reconstruit static/tailwind.css avec le CLI Tailwind du projet (comme « npm run build:css »).',
    load: () => import('./build-css.js'),
  },
  {
    name: 'build:assets',
    family: 'Médias et JavaScript',
    usage: '',
    summary: "Copie les fichiers de static/ sous un nom à empreinte (cache d'un an), les compresse (gzip, brotli) et écrit static/assets-manifest.json.",
    load: () => import('./build-assets.js'),
  },
];
