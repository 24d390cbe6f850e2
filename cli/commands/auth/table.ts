import type { CommandEntry } from '../../command-entry.js';

const USER_SELECTOR = '(--id <id> | --email <EMAIL>)';

/** The authentication commands: files, diagnostics, users and roles (help family `Auth / Sécurité`). */
export const AUTH_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'auth:init',
    family: 'Auth / Sécurité',
    usage: '[--password-reset] [--dry-run]',
    summary: "Écrit les fichiers SQL d'authentification (sans les appliquer) et ajoute registerAuthRoutes à mvc/routes.ts.",
    load: () => import('./auth-init.js'),
  },
  {
    name: 'auth:doctor',
    family: 'Auth / Sécurité',
    usage: '[--json]',
    summary: "Diagnostic de l'authentification (OK, WARN, FAIL, SKIP).",
    load: () => import('./auth-doctor.js'),
  },
  {
    name: 'auth:status',
    family: 'Auth / Sécurité',
    usage: '[--json]',
    summary: "État de l'authentification : fichiers SQL, routes, tables, utilisateurs et rôles.",
    load: () => import('./auth-status.js'),
  },
  {
    name: 'auth:list-sql',
    family: 'Auth / Sécurité',
    usage: '[--json]',
    summary: "Liste les fichiers SQL d'authentification, présents ou absents, par dialecte.",
    load: () => import('./auth-list-sql.js'),
  },
  {
    name: 'auth:user:create',
    family: 'Auth / Sécurité',
    usage: '--email <EMAIL> (--password <valeur> | --password-prompt) [--role <rôle>]…',
    summary: 'Crée un utilisateur local avec un mot de passe haché (Argon2id).',
    example: 'fw auth:user:create --email alice@example.com --password-prompt',
    load: () => import('./auth-user-create.js'),
  },
  {
    name: 'auth:user:list',
    family: 'Auth / Sécurité',
    usage: '',
    summary: 'Liste les utilisateurs, sans aucun secret.',
    load: () => import('./auth-user-list.js'),
  },
  {
    name: 'auth:user:show',
    family: 'Auth / Sécurité',
    usage: USER_SELECTOR,
    summary: 'Affiche un utilisateur, ses rôles et ses permissions.',
    load: () => import('./auth-user-show.js'),
  },
  {
    name: 'auth:user:disable',
    family: 'Auth / Sécurité',
    usage: USER_SELECTOR,
    summary: 'Désactive un utilisateur (is_active faux) et met fin à ses sessions.',
    load: () => import('./auth-user-disable.js'),
  },
  {
    name: 'auth:user:enable',
    family: 'Auth / Sécurité',
    usage: USER_SELECTOR,
    summary: 'Réactive un utilisateur (is_active vrai).',
    load: () => import('./auth-user-enable.js'),
  },
  {
    name: 'auth:user:password',
    family: 'Auth / Sécurité',
    usage: `${USER_SELECTOR} (--password <valeur> | --password-prompt)`,
    summary: "Change le mot de passe d'un utilisateur (Argon2id) et met fin à ses sessions.",
    load: () => import('./auth-user-password.js'),
  },
  {
    name: 'auth:user:role:add',
    family: 'Auth / Sécurité',
    usage: `${USER_SELECTOR} --role <rôle>`,
    summary: 'Associe un rôle existant à un utilisateur.',
    load: () => import('./auth-user-role-add.js'),
  },
  {
    name: 'auth:user:role:remove',
    family: 'Auth / Sécurité',
    usage: `${USER_SELECTOR} --role <rôle>`,
    summary: 'Retire un rôle à un utilisateur.',
    load: () => import('./auth-user-role-remove.js'),
  },
  {
    name: 'auth:user:roles',
    family: 'Auth / Sécurité',
    usage: USER_SELECTOR,
    summary: "Liste les rôles d'un utilisateur.",
    load: () => import('./auth-user-roles.js'),
  },
  {
    name: 'auth:role:create',
    family: 'Auth / Sécurité',
    usage: '<nom>',
    summary: 'Crée un rôle (admin, editeur…), à donner ensuite avec auth:user:role:add.',
    example: 'fw auth:role:create admin',
    load: () => import('./auth-role-create.js'),
  },
  {
    name: 'auth:role:list',
    family: 'Auth / Sécurité',
    usage: '',
    summary: "Liste les rôles et leur nombre d'utilisateurs.",
    load: () => import('./auth-role-list.js'),
  },
];
