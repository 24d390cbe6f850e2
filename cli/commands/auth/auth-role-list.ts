/** `fw auth:role:list` (docs/decisions.md#commands-beyond-the-original-list): every role with the number of users holding it. */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';

export function configure(_command: Command): void {}

export async function run(_input: CommandInput): Promise<number> {
  const { withAuthDatabase, ROLE_TABLES } = await import('../../auth/database.js');
  const { listRoles } = await import('../../../runtime/auth/users.js');
  const { roleTable } = await import('../../auth/format.js');
  const roles = await withAuthDatabase(ROLE_TABLES, ({ db }) => listRoles(db));
  process.stdout.write(roleTable(roles));
  return 0;
}
