/**
 * The table of `fw` commands (spec "Command-line commands"), kept as data: the help, the dispatcher and the
 * tests all read it. `load` imports the implementing module on demand; a command without `load` is listed
 * but not available yet in this version.
 */
import type { CommandModule } from './command-module.js';

/** Help families, in the order the grouped help prints them (spec "Command-line commands"). */
export const FAMILIES = [
  'Projet',
  'Entités',
  'Pages publiques',
  'Base de données',
  'Starters et modules',
  'Auth / Sécurité',
  'Mail',
  'Médias et JavaScript',
  'Déploiement',
] as const;

export type Family = (typeof FAMILIES)[number];

export interface CommandEntry {
  /** The command name as typed after `fw`. */
  readonly name: string;
  readonly family: Family;
  /** Arguments and options after the name, as shown in the help. */
  readonly usage: string;
  /** One French line for the help. */
  readonly summary: string;
  /** A complete example, given as advice when a required argument is missing. */
  readonly example?: string;
  /** Imports the implementing module; absent while the command is not implemented. */
  readonly load?: () => Promise<CommandModule>;
}

const USER_SELECTOR = '(--id <id> | --email <EMAIL>)';

export const COMMANDS: readonly CommandEntry[] = [
  // Projet
  {
    name: 'new',
    family: 'Projet',
    usage: '<Nom> [--ref <ref>] [--profile standard|auth-mfa] [--no-install]',
    summary: 'Crée un projet (version stable par défaut, --ref main pour la version de développement).',
    example: 'fw new MonProjet',
    load: () => import('./commands/project/new.js'),
  },
  {
    name: 'routes:list',
    family: 'Projet',
    usage: '[--json]',
    summary: "Liste les routes de l'application.",
    load: () => import('./commands/project/routes-list.js'),
  },
  {
    name: 'i18n:init',
    family: 'Projet',
    usage: '',
    summary: 'Crée ou complète translations/fr.json avec les clés utilisées qui n’ont pas encore de traduction.',
    load: () => import('./commands/i18n/i18n-init.js'),
  },
  {
    name: 'i18n:check',
    family: 'Projet',
    usage: '[--json]',
    summary: 'Vérifie les catalogues de traduction : clés manquantes, absentes d’un catalogue, vides (FAIL) ou inutilisées (WARN).',
    load: () => import('./commands/i18n/i18n-check.js'),
  },
  { name: 'doctor', family: 'Projet', usage: '[--json]', summary: 'Diagnostic en lecture seule (OK, WARN, FAIL, SKIP).' },
  // project:check and project:audit are not implemented yet; their modules parse the arguments and refuse what the
  // spec refuses (outside a project), then say the command is not available.
  {
    name: 'project:check',
    family: 'Projet',
    usage: '[--json]',
    summary: 'Contrôle strict de la structure du projet (OK, WARN, FAIL).',
    load: async () => (await import('./commands/project/project-diagnostic.js')).projectDiagnostic('project:check'),
  },
  {
    name: 'project:audit',
    family: 'Projet',
    usage: '[--json]',
    summary: 'Rapport détaillé et non destructif sur le projet (OK, WARN, FAIL, INFO).',
    load: async () => (await import('./commands/project/project-diagnostic.js')).projectDiagnostic('project:audit'),
  },

  // Entités
  {
    name: 'make:entity',
    family: 'Entités',
    usage: '<Entité> [--no-input]',
    summary: "Crée le fichier JSON canonique d'une entité.",
    example: 'fw make:entity Contact',
    load: () => import('./commands/entities/make-entity.js'),
  },
  {
    name: 'make:crud',
    family: 'Entités',
    usage: '<Entité> [--dry-run] [--media] [--public] [--check]',
    summary: 'Génère contrôleur, modèle, formulaire, vues et routes du CRUD.',
    example: 'fw make:crud Contact',
    load: () => import('./commands/entities/make-crud.js'),
  },
  {
    name: 'make:relation',
    family: 'Entités',
    usage:
      '[--name <nom> --type many_to_one|many_to_many --from <Entité.champ> --to <Entité.champ> --on-delete <action> --on-update <action> --fk-name <nom> --no-input]',
    summary: 'Assistant de création de relation entre entités (ou options sans questions).',
    load: () => import('./commands/entities/make-relation.js'),
  },
  {
    name: 'sync:entity',
    family: 'Entités',
    usage: '<Entité> [--dry-run] [--force]',
    summary: "Régénère la classe de base et le SQL d'une entité.",
    example: 'fw sync:entity Contact',
    load: () => import('./commands/entities/sync-entity.js'),
  },
  {
    name: 'sync:relations',
    family: 'Entités',
    usage: '[--dry-run] [--force]',
    summary: 'Régénère mvc/entities/relations.sql.',
    load: () => import('./commands/entities/sync-relations.js'),
  },
  {
    name: 'build:model',
    family: 'Entités',
    usage: '[--dry-run] [--force] [--check]',
    summary: 'Régénère les modèles.',
    load: () => import('./commands/entities/build-model.js'),
  },
  {
    name: 'check:model',
    family: 'Entités',
    usage: '[--json]',
    summary: 'Vérifie la cohérence des modèles.',
    load: () => import('./commands/entities/check-model.js'),
  },

  // Pages publiques
  {
    name: 'make:public-page',
    family: 'Pages publiques',
    usage: '<nom> [--title <titre>] [--dry-run]',
    summary: 'Page publique : gabarit, méthode de contrôleur et route ; titre tiré du nom ou donné par --title.',
    example: 'fw make:public-page a-propos --title "À propos de nous"',
    load: () => import('./commands/public/make-public-page.js'),
  },
  {
    name: 'make:public-list',
    family: 'Pages publiques',
    usage: '<Entité> [--dry-run]',
    summary: 'Liste publique, route /<pluriel>.',
    example: 'fw make:public-list Contact',
    load: async () => (await import('./commands/public/make-public-entity.js')).publicEntityCommand('list'),
  },
  {
    name: 'make:public-show',
    family: 'Pages publiques',
    usage: '<Entité> [--dry-run]',
    summary: 'Fiche publique, route /<pluriel>/{id}.',
    example: 'fw make:public-show Contact',
    load: async () => (await import('./commands/public/make-public-entity.js')).publicEntityCommand('show'),
  },
  {
    name: 'make:public-form',
    family: 'Pages publiques',
    usage: '<Entité> [--dry-run]',
    summary: 'Formulaire public, routes GET /<pluriel>/new et POST /<pluriel>.',
    example: 'fw make:public-form Contact',
    load: async () => (await import('./commands/public/make-public-entity.js')).publicEntityCommand('form'),
  },
  {
    name: 'make:public-contact',
    family: 'Pages publiques',
    usage: '[--dry-run]',
    summary: 'Page de contact statique, route GET /contact.',
    load: () => import('./commands/public/make-public-contact.js'),
  },
  {
    name: 'sync:landing',
    family: 'Pages publiques',
    usage: '[--check]',
    summary: "Rend mvc/views/landing/index.html en page statique docs/index.html (avec docs/static/), ou vérifie qu'elle est à jour.",
    load: () => import('./commands/public/sync-landing.js'),
  },

  // Base de données
  {
    name: 'db:init',
    family: 'Base de données',
    usage: '[--app-hosts <hôtes>]',
    summary: "Prépare la base, l'utilisateur applicatif et la table fw_migrations.",
    load: () => import('./commands/db/db-init.js'),
  },
  {
    name: 'db:apply',
    family: 'Base de données',
    usage: '[--dry-run]',
    summary: 'Applique le SQL généré (tables puis relations, dans l’ordre des dépendances).',
    load: () => import('./commands/db/db-apply.js'),
  },
  {
    name: 'migration:status',
    family: 'Base de données',
    usage: '[--json]',
    summary: 'État des migrations (APPLIED, PENDING, CHANGED, MISSING), en lecture seule.',
    load: () => import('./commands/db/migration-status.js'),
  },
  {
    name: 'migration:make',
    family: 'Base de données',
    usage: '<nom> [--from-entity <Entité> | --from-entities | --from-diff <Entité>]',
    summary: "Crée un fichier de migration dans mvc/migrations/ sans l'appliquer.",
    example: 'fw migration:make ajout_contacts --from-entity Contact',
    load: () => import('./commands/db/migration-make.js'),
  },
  {
    name: 'migration:diff',
    family: 'Base de données',
    usage: '--entity <Entité> | --all [--check] [--json]',
    summary: 'Compare une entité à sa table réelle (colonnes, index, clés uniques et étrangères), en lecture seule (--check : code 2 au moindre écart).',
    load: () => import('./commands/db/migration-diff.js'),
  },
  {
    name: 'migration:apply',
    family: 'Base de données',
    usage: '',
    summary: "Applique les migrations PENDING dans l'ordre des versions.",
    load: () => import('./commands/db/migration-apply.js'),
  },

  // Starters et modules
  {
    name: 'starter:list',
    family: 'Starters et modules',
    usage: '',
    summary: 'Liste les applications de démarrage (id, alias, description).',
    load: () => import('./commands/starters/starter-list.js'),
  },
  {
    name: 'starter:build',
    family: 'Starters et modules',
    usage: '<id|alias> [--dry-run] [--init-db] [--force] [--public]',
    summary: 'Construit une application de démarrage dans le projet (contacts, auth, carnet, suivi, mfa).',
    example: 'fw starter:build contacts',
    load: () => import('./commands/starters/starter-build.js'),
  },
  {
    name: 'module:list',
    family: 'Starters et modules',
    usage: '[--path modules]',
    summary: 'Liste les modules locaux (version, installé ou non).',
    load: () => import('./commands/modules/module-list.js'),
  },
  {
    name: 'module:install',
    family: 'Starters et modules',
    usage: '<nom> [--path modules] [--dry-run]',
    summary: 'Enregistre un module dans fw_modules.json.',
    example: 'fw module:install blog',
    load: () => import('./commands/modules/module-install.js'),
  },
  {
    name: 'module:files',
    family: 'Starters et modules',
    usage: '<nom> [--dry-run]',
    summary: "Copie les fichiers déclarés d'un module installé.",
    example: 'fw module:files blog',
    load: () => import('./commands/modules/module-files.js'),
  },
  {
    name: 'module:routes',
    family: 'Starters et modules',
    usage: '<nom> [--dry-run]',
    summary: 'Écrit mvc/routes_<nom>.ts et affiche les lignes à ajouter à mvc/routes.ts.',
    example: 'fw module:routes blog',
    load: () => import('./commands/modules/module-routes.js'),
  },

  // Auth / Sécurité
  {
    name: 'auth:init',
    family: 'Auth / Sécurité',
    usage: '[--dry-run]',
    summary: "Écrit les fichiers SQL d'authentification (sans les appliquer) et ajoute registerAuthRoutes à mvc/routes.ts.",
    load: () => import('./commands/auth/init.js'),
  },
  {
    name: 'auth:doctor',
    family: 'Auth / Sécurité',
    usage: '[--json]',
    summary: "Diagnostic de l'authentification (OK, WARN, FAIL, SKIP).",
    load: () => import('./commands/auth/doctor.js'),
  },
  {
    name: 'auth:status',
    family: 'Auth / Sécurité',
    usage: '[--json]',
    summary: "État de l'authentification : fichiers SQL, routes, tables, utilisateurs et rôles.",
    load: () => import('./commands/auth/status.js'),
  },
  {
    name: 'auth:list-sql',
    family: 'Auth / Sécurité',
    usage: '[--json]',
    summary: "Liste les fichiers SQL d'authentification, présents ou absents, par dialecte.",
    load: () => import('./commands/auth/list-sql.js'),
  },
  {
    name: 'auth:user:create',
    family: 'Auth / Sécurité',
    usage: '--email <EMAIL> (--password <valeur> | --password-prompt) [--role <rôle>]…',
    summary: 'Crée un utilisateur local avec un mot de passe haché (Argon2id).',
    example: 'fw auth:user:create --email alice@example.com --password-prompt',
    load: () => import('./commands/auth/user-create.js'),
  },
  {
    name: 'auth:user:list',
    family: 'Auth / Sécurité',
    usage: '',
    summary: 'Liste les utilisateurs, sans aucun secret.',
    load: () => import('./commands/auth/user-list.js'),
  },
  {
    name: 'auth:user:show',
    family: 'Auth / Sécurité',
    usage: USER_SELECTOR,
    summary: 'Affiche un utilisateur, ses rôles et ses permissions.',
    load: () => import('./commands/auth/user-show.js'),
  },
  {
    name: 'auth:user:disable',
    family: 'Auth / Sécurité',
    usage: USER_SELECTOR,
    summary: 'Désactive un utilisateur (is_active faux) et met fin à ses sessions.',
    load: async () => (await import('./commands/auth/user-state.js')).userState(false),
  },
  {
    name: 'auth:user:enable',
    family: 'Auth / Sécurité',
    usage: USER_SELECTOR,
    summary: 'Réactive un utilisateur (is_active vrai).',
    load: async () => (await import('./commands/auth/user-state.js')).userState(true),
  },
  {
    name: 'auth:user:password',
    family: 'Auth / Sécurité',
    usage: `${USER_SELECTOR} (--password <valeur> | --password-prompt)`,
    summary: "Change le mot de passe d'un utilisateur (Argon2id) et met fin à ses sessions.",
    load: () => import('./commands/auth/user-password.js'),
  },
  {
    name: 'auth:user:role:add',
    family: 'Auth / Sécurité',
    usage: `${USER_SELECTOR} --role <rôle>`,
    summary: 'Associe un rôle existant à un utilisateur.',
    load: async () => (await import('./commands/auth/user-role.js')).userRole('add'),
  },
  {
    name: 'auth:user:role:remove',
    family: 'Auth / Sécurité',
    usage: `${USER_SELECTOR} --role <rôle>`,
    summary: 'Retire un rôle à un utilisateur.',
    load: async () => (await import('./commands/auth/user-role.js')).userRole('remove'),
  },
  {
    name: 'auth:user:roles',
    family: 'Auth / Sécurité',
    usage: USER_SELECTOR,
    summary: "Liste les rôles d'un utilisateur.",
    load: () => import('./commands/auth/user-roles.js'),
  },
  {
    name: 'auth:role:create',
    family: 'Auth / Sécurité',
    usage: '<nom>',
    summary: 'Crée un rôle (admin, editeur…), à donner ensuite avec auth:user:role:add.',
    example: 'fw auth:role:create admin',
    load: () => import('./commands/auth/role-create.js'),
  },
  {
    name: 'auth:role:list',
    family: 'Auth / Sécurité',
    usage: '',
    summary: "Liste les rôles et leur nombre d'utilisateurs.",
    load: () => import('./commands/auth/role-list.js'),
  },

  // Mail
  { name: 'mail:init', family: 'Mail', usage: '', summary: 'Crée les gabarits de mail, le dossier de journaux et le SQL mail_log.' },
  { name: 'mail:doctor', family: 'Mail', usage: '', summary: 'Vérifie la configuration du mail.' },
  { name: 'mail:test', family: 'Mail', usage: '--to <EMAIL>', summary: 'Envoie un message de test.' },
  { name: 'mail:render', family: 'Mail', usage: '<gabarit> [--context <fichier.json>]', summary: 'Affiche un gabarit de mail rendu.' },
  { name: 'mail:logs', family: 'Mail', usage: '[--limit N]', summary: 'Affiche les dernières lignes de mail_log.' },

  // Médias et JavaScript
  {
    name: 'upload:init',
    family: 'Médias et JavaScript',
    usage: '[--dry-run]',
    summary: "Prépare les dossiers d'upload (images, images/medium, images/thumbnail, documents, tmp).",
    load: () => import('./commands/media/upload-init.js'),
  },
  {
    name: 'media:init',
    family: 'Médias et JavaScript',
    usage: '[--dry-run]',
    summary: "Écrit le SQL de la table media (sans l'appliquer) et prépare les dossiers des variantes d'images.",
    load: () => import('./commands/media/media-init.js'),
  },
  {
    name: 'js:init',
    family: 'Médias et JavaScript',
    usage: 'htmx|alpine|htmx-alpine',
    summary: 'Ajoute htmx et/ou Alpine (build CSP) : dépendance npm, copie dans static/vendor/ ; les layouts ne sont pas modifiés.',
    example: 'fw js:init htmx',
    load: () => import('./commands/frontend/js-init.js'),
  },
  {
    name: 'build:css',
    family: 'Médias et JavaScript',
    usage: '',
    summary: 'Reconstruit static/tailwind.css avec le CLI Tailwind du projet (comme « npm run build:css »).',
    load: () => import('./commands/frontend/build-css.js'),
  },

  // Déploiement
  { name: 'deploy:init', family: 'Déploiement', usage: '', summary: 'Crée les fichiers de déploiement.' },
  { name: 'deploy:check', family: 'Déploiement', usage: '', summary: 'Vérifie la préparation au déploiement.' },
];

/** The entry of a command name, or undefined. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((entry) => entry.name === name);
}
