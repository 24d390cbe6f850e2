/**
 * `fw auth:user:role:add` and `fw auth:user:role:remove` (selector and `--role <rôle>`): add or remove a
 * `user_roles` association; never create a role (`fw auth:role:create` does). Adding a role the user holds, or
 * removing one it does not, changes nothing and says so. The session user's roles are read at login: the change
 * applies at the user's next sign-in.
 */
import type { Command } from 'commander';
import type { CommandInput, CommandModule } from '../command-module.js';
import { invalidRoleName, unknownRole } from './errors.js';
import { auditCli } from './audit.js';
import { readSelector, selectorOptions, userLabel } from './select.js';
import { CliError } from '../errors.js';

/** The module of `auth:user:role:add` or `auth:user:role:remove`. */
export function userRole(action: 'add' | 'remove'): CommandModule {
  const name = `auth:user:role:${action}`;
  return {
    configure(command: Command): void {
      selectorOptions(command).option('--role <rôle>', action === 'add' ? 'rôle existant à donner' : 'rôle à retirer');
    },
    async run({ options }: CommandInput): Promise<number> {
      const selector = readSelector(options, name);
      const role = options.role as string | undefined;
      if (role === undefined) {
        throw new CliError(
          `« fw ${name} » attend --role <rôle>.`,
          `par exemple « fw ${name} --email alice@example.com --role admin » ; « fw auth:role:list » liste les rôles.`,
        );
      }
      const users = await import('../../runtime/auth/users.js');
      if (!users.isValidRoleName(role)) throw invalidRoleName(role);
      const { withAuthDatabase, ROLE_TABLES } = await import('./database.js');
      const { selectUser } = await import('./select.js');
      const line = await withAuthDatabase(ROLE_TABLES, async ({ db }) => {
        const user = await selectUser(db, selector);
        if (!(await users.findRole(role, db))) throw await unknownRole(role, db);
        const changed = action === 'add' ? await users.addUserRole(user.id, role, db) : await users.removeUserRole(user.id, role, db);
        if (!changed)
          return action === 'add'
            ? `${userLabel(user)} a déjà le rôle « ${role} » : rien n'a changé.`
            : `${userLabel(user)} n'a pas le rôle « ${role} » : rien n'a changé.`;
        await auditCli(action === 'add' ? 'user_role.added' : 'user_role.removed', user.id, { role });
        return `Rôle « ${role} » ${action === 'add' ? 'donné à' : 'retiré à'} ${userLabel(user)} (effectif à sa prochaine connexion).`;
      });
      process.stdout.write(`${line}\n`);
      return 0;
    },
  };
}
