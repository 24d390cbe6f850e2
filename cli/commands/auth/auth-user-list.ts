/** `fw auth:user:list`: every user (id, e-mail, active, verified, last login, creation), never a hash or a secret. */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';

export function configure(_command: Command): void {}

export async function run(_input: CommandInput): Promise<number> {
  const { withAuthDatabase, USER_TABLES } = await import('../../auth/database.js');
  const { listUsers } = await import('../../../runtime/auth/users.js');
  const { userTable } = await import('../../auth/format.js');
  const users = await withAuthDatabase(USER_TABLES, ({ db }) => listUsers(db));
  process.stdout.write(userTable(users));
  return 0;
}
