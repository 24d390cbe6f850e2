import type { CommandEntry } from '../../command-entry.js';

/** The mail commands (help family `Mail`; docs/mail.md "Commands"). */
export const MAIL_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'mail:init',
    family: 'Mail',
    usage: '[--dry-run]',
    summary: "Écrit le gabarit « test », le SQL de mail_log et des tâches (sans l'appliquer : « fw db:apply ») et crée storage/mail/ ; ne réécrit rien.",
    load: () => import('./mail-init.js'),
  },
  {
    name: 'mail:doctor',
    family: 'Mail',
    usage: '[--json]',
    summary: 'Diagnostic du mail sans rien écrire : MAIL_*, gabarits, table mail_log, puis une vraie session SMTP étape par étape (aucun envoi).',
    load: () => import('./mail-doctor.js'),
  },
  {
    name: 'mail:test',
    family: 'Mail',
    usage: '--to <EMAIL>',
    summary: "Envoie tout de suite le message « test » (hors file d'envoi) et affiche la réponse du serveur ; journalisé dans mail_log si la table existe.",
    example: 'fw mail:test --to alice@example.com',
    load: () => import('./mail-test.js'),
  },
  {
    name: 'mail:render',
    family: 'Mail',
    usage: '<gabarit> [--context <fichier.json>]',
    summary: "Affiche un message rendu depuis mvc/views/mail/ : le sujet, puis les parties [TEXTE] et [HTML]. Rien n'est envoyé.",
    example: 'fw mail:render test --context contexte.json',
    load: () => import('./mail-render.js'),
  },
  {
    name: 'mail:logs',
    family: 'Mail',
    usage: '[--limit N]',
    summary: 'Affiche les N dernières lignes de mail_log (20 par défaut, de 1 à 1000), la plus récente en premier ; jamais le corps des messages.',
    example: 'fw mail:logs --limit 50',
    load: () => import('./mail-logs.js'),
  },
];
