/**
 * `fw auth:user:disable` and `fw auth:user:enable` (selector `--id` or `--email`): set `is_active`. A disabled user
 * can no longer sign in, and its open sessions are ended (DECISIONS §8).
 */
import type { Command } from 'commander';
import type { CommandInput, CommandModule } from '../../command-module.js';
import { readSelector, selectorOptions, userLabel } from '../../auth/select.js';

/** The module of `auth:user:enable` (active) or `auth:user:disable`. */
export function userState(active: boolean): CommandModule {
  const name = active ? 'auth:user:enable' : 'auth:user:disable';
  const done = active ? 'réactivé' : 'désactivé';
  const already = active ? 'actif' : 'inactif';
  return {
    configure(command: Command): void {
      selectorOptions(command);
    },
    async run({ options }: CommandInput): Promise<number> {
      const selector = readSelector(options, name);
      const { withAuthDatabase, USER_TABLES } = await import('../../auth/database.js');
      const { selectUser } = await import('../../auth/select.js');
      const { setUserActive } = await import('../../../runtime/auth/users.js');
      const lines = await withAuthDatabase(USER_TABLES, async (context) => {
        const user = await selectUser(context.db, selector);
        if (user.isActive === active) return [`${userLabel(user)} est déjà ${already} : rien n'a changé.`];
        await setUserActive(user.id, active, context.db);
        return [`Utilisateur ${userLabel(user)} ${done}.`];
      });
      process.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    },
  };
}
