import type { CommandEntry } from '../../command-entry.js';

/** The background jobs commands (help family `Tâches de fond`; docs/jobs.md "Commands"). */
export const JOBS_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'make:job',
    family: 'Tâches de fond',
    usage: '<Nom>',
    summary:
      "Écrit mvc/jobs/<nom>_job.ts (un fichier à vous : defineJob et son traitement), l'inscrit dans mvc/jobs/index.ts et écrit le SQL des tables si besoin.",
    example: 'fw make:job SendReport',
    load: () => import('./make-job.js'),
  },
  {
    name: 'jobs:init',
    family: 'Tâches de fond',
    usage: '[--dry-run]',
    summary: "Écrit le SQL des tables fw_jobs et fw_job_ticks (sans l'appliquer : « fw db:apply »).",
    load: () => import('./jobs-init.js'),
  },
  {
    name: 'jobs:list',
    family: 'Tâches de fond',
    usage: '[--status S] [--queue Q] [--name N] [--limit N] [--json]',
    summary: 'Liste les tâches, la plus récente en premier : numéro, nom, file, statut, essais, échéance, dernière erreur.',
    example: 'fw jobs:list --status dead',
    load: () => import('./jobs-list.js'),
  },
  {
    name: 'jobs:retry',
    family: 'Tâches de fond',
    usage: '<id…> | --status S [--name N] [--queue Q]',
    summary: 'Remet en file, tout de suite et essais à zéro, des tâches mortes ou en attente (par numéros ou par filtre).',
    example: 'fw jobs:retry --status dead --name send_report',
    load: () => import('./jobs-retry.js'),
  },
  {
    name: 'jobs:discard',
    family: 'Tâches de fond',
    usage: '<id…> | --status S [--name N] [--queue Q]',
    summary: 'Supprime des tâches qui ne sont pas en cours (par numéros ou par filtre).',
    example: 'fw jobs:discard 12 13',
    load: () => import('./jobs-discard.js'),
  },
  {
    name: 'jobs:work',
    family: 'Tâches de fond',
    usage: '[--queue Q…] [--concurrency N]',
    summary: "Traite les tâches de mvc/jobs/ dans un processus à part, jusqu'à SIGTERM ou Ctrl+C (les tâches en cours finissent ou reviennent en file).",
    load: () => import('./jobs-work.js'),
  },
];
