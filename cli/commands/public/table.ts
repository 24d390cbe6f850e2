import type { CommandEntry } from '../../command-entry.js';

/** The public page generators (help family `Pages publiques`). */
export const PUBLIC_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'make:public-page',
    family: 'Pages publiques',
    usage: '<nom> [--title <titre>] [--dry-run]',
    summary: 'Page publique : gabarit, méthode de contrôleur et route ; titre tiré du nom ou donné par --title.',
    example: 'fw make:public-page a-propos --title "À propos de nous"',
    load: () => import('./make-public-page.js'),
  },
  {
    name: 'make:public-list',
    family: 'Pages publiques',
    usage: '<Entité> [--dry-run]',
    summary: 'Liste publique, route /<pluriel>.',
    example: 'fw make:public-list Contact',
    load: () => import('./make-public-list.js'),
  },
  {
    name: 'make:public-show',
    family: 'Pages publiques',
    usage: '<Entité> [--dry-run]',
    summary: 'Fiche publique, route /<pluriel>/{id}.',
    example: 'fw make:public-show Contact',
    load: () => import('./make-public-show.js'),
  },
  {
    name: 'make:public-form',
    family: 'Pages publiques',
    usage: '<Entité> [--dry-run]',
    summary: 'Formulaire public, routes GET /<pluriel>/new et POST /<pluriel>.',
    example: 'fw make:public-form Contact',
    load: () => import('./make-public-form.js'),
  },
  {
    name: 'make:public-contact',
    family: 'Pages publiques',
    usage: '[--dry-run]',
    summary: 'Page de contact statique, route GET /contact.',
    load: () => import('./make-public-contact.js'),
  },
  {
    name: 'sync:landing',
    family: 'Pages publiques',
    usage: '[--check]',
    summary: "Rend mvc/views/landing/index.html en page statique docs/index.html (avec docs/static/), ou vérifie qu'elle est à jour.",
    load: () => import('./sync-landing.js'),
  },
];
