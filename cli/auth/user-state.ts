/**
 * `fw auth:user:disable` and `fw auth:user:enable` (selector `--id` or `--email`): set `is_active`. A disabled user
 * can no longer sign in, and its open sessions are closed in the configured store (docs/decisions.md#session-stores; cli/auth/sessions.ts).
 */
import type { Command } from 'commander';
import type { CommandInput, CommandModule } from '../command-module.js';
import { auditCli } from './audit.js';
import { readSelector, selectorOptions, userLabel } from './select.js';

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
      const { withAuthDatabase, USER_TABLES } = await import('./database.js');
      const { selectUser } = await import('./select.js');
      const { setUserActive } = await import('../../runtime/auth/users.js');
      const lines = await withAuthDatabase(USER_TABLES, async (context) => {
        const user = await selectUser(context.db, selector);
        // Checked before the write: a user is never disabled while its sessions cannot be dealt with.
        const sessions = active ? null : await (await import('./sessions.js')).userSessions(context);
        const out: string[] = [];
        if (user.isActive === active) {
          out.push(`${userLabel(user)} est déjà ${already} : rien n'a changé.`);
        } else {
          await setUserActive(user.id, active, context.db);
          await auditCli(active ? 'user.enabled' : 'user.disabled', user.id);
          out.push(`Utilisateur ${userLabel(user)} ${done}.`);
        }
        // Disabling again still closes the sessions: a way to retry after a store failure.
        if (sessions) out.push(await sessions.end(user.id));
        return out;
      });
      process.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    },
  };
}
