/** `fw auth:user:roles (--id <id> | --email <EMAIL>)`: the user's roles, one per line. */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { readSelector, selectorOptions, userLabel } from '../../auth/select.js';

export function configure(command: Command): void {
  selectorOptions(command);
}

export async function run({ options }: CommandInput): Promise<number> {
  const selector = readSelector(options, 'auth:user:roles');
  const { withAuthDatabase, ROLE_TABLES } = await import('../../auth/database.js');
  const { selectUser } = await import('../../auth/select.js');
  const { userRoles } = await import('../../../runtime/auth/users.js');
  const { user, roles } = await withAuthDatabase(ROLE_TABLES, async ({ db }) => {
    const found = await selectUser(db, selector);
    return { user: found, roles: await userRoles(found.id, db) };
  });
  const body = roles.length > 0 ? roles.map((role) => `  ${role}\n`).join('') : '  (aucun rôle)\n';
  process.stdout.write(`Rôles de ${userLabel(user)} :\n${body}`);
  return 0;
}
