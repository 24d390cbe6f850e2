/**
 * The table of `fw` commands, kept as data: the help, the dispatcher and the tests all read it. Each folder of
 * cli/commands/ lists its own rows in its table.ts (`load` imports the implementing module on demand); the rows
 * below have no module yet: a command without `load` is listed but not available yet in this version. The order of
 * the rows is the order of the help within each family.
 */
import type { CommandEntry } from './command-entry.js';
import { PROJECT_COMMANDS, PROJECT_CHECK_COMMANDS } from './commands/project/table.js';
import { I18N_COMMANDS } from './commands/i18n/table.js';
import { ENTITY_COMMANDS } from './commands/entities/table.js';
import { PUBLIC_COMMANDS } from './commands/public/table.js';
import { DB_COMMANDS } from './commands/db/table.js';
import { STARTER_COMMANDS } from './commands/starters/table.js';
import { MODULE_COMMANDS } from './commands/modules/table.js';
import { AUTH_COMMANDS } from './commands/auth/table.js';
import { MEDIA_COMMANDS } from './commands/media/table.js';
import { FRONTEND_COMMANDS } from './commands/frontend/table.js';
import { DEPLOY_COMMANDS } from './commands/deploy/table.js';

export { FAMILIES, type CommandEntry, type Family } from './command-entry.js';

/** Mail commands, not available yet. */
const MAIL_COMMANDS: readonly CommandEntry[] = [
  { name: 'mail:init', family: 'Mail', usage: '', summary: 'Crée les gabarits de mail, le dossier de journaux et le SQL mail_log.' },
  { name: 'mail:doctor', family: 'Mail', usage: '', summary: 'Vérifie la configuration du mail.' },
  { name: 'mail:test', family: 'Mail', usage: '--to <EMAIL>', summary: 'Envoie un message de test.' },
  { name: 'mail:render', family: 'Mail', usage: '<gabarit> [--context <fichier.json>]', summary: 'Affiche un gabarit de mail rendu.' },
  { name: 'mail:logs', family: 'Mail', usage: '[--limit N]', summary: 'Affiche les dernières lignes de mail_log.' },
];

export const COMMANDS: readonly CommandEntry[] = [
  ...PROJECT_COMMANDS,
  ...I18N_COMMANDS,
  ...PROJECT_CHECK_COMMANDS,
  ...ENTITY_COMMANDS,
  ...PUBLIC_COMMANDS,
  ...DB_COMMANDS,
  ...STARTER_COMMANDS,
  ...MODULE_COMMANDS,
  ...AUTH_COMMANDS,
  ...MAIL_COMMANDS,
  ...MEDIA_COMMANDS,
  ...FRONTEND_COMMANDS,
  ...DEPLOY_COMMANDS,
];

/** The entry of a command name, or undefined. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((entry) => entry.name === name);
}
