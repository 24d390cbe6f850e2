/**
 * The table of `fw` commands, kept as data: the help, the dispatcher and the tests all read it. Each folder of
 * cli/commands/ lists its own rows in its table.ts (`load` imports the implementing module on demand; a row without
 * `load` would be listed but not available). The order of the rows is the order of the help within each family.
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
import { MAIL_COMMANDS } from './commands/mail/table.js';
import { JOBS_COMMANDS } from './commands/jobs/table.js';
import { FRONTEND_COMMANDS } from './commands/frontend/table.js';
import { DEPLOY_COMMANDS } from './commands/deploy/table.js';

export { FAMILIES, type CommandEntry, type Family } from './command-entry.js';

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
  ...JOBS_COMMANDS,
  ...MEDIA_COMMANDS,
  ...FRONTEND_COMMANDS,
  ...DEPLOY_COMMANDS,
];

/** The entry of a command name, or undefined. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((entry) => entry.name === name);
}
