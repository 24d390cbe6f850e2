/** `fw auth:user:show (--id <id> | --email <EMAIL>)`: one user, its roles and the permissions they grant; no secret. */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { readSelector, selectorOptions } from '../../auth/select.js';

export function configure(command: Command): void {
  selectorOptions(command);
}

export async function run({ options }: CommandInput): Promise<number> {
  const selector = readSelector(options, 'auth:user:show');
  const { withAuthDatabase, ACCESS_TABLES } = await import('../../auth/database.js');
  const { selectUser } = await import('../../auth/select.js');
  const { loadUserAccess } = await import('../../../runtime/auth/users.js');
  const { userDetails } = await import('../../auth/format.js');
  const text = await withAuthDatabase(ACCESS_TABLES, async ({ db }) => {
    const user = await selectUser(db, selector);
    const access = await loadUserAccess(user.id, db);
    return userDetails(user, access.roles, access.permissions);
  });
  process.stdout.write(text);
  return 0;
}
