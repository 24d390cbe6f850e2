/**
 * `fw auth:user:password (--id <id> | --email <EMAIL>) (--password <valeur> | --password-prompt)`: a new Argon2id
 * hash for the user and its unused reset links ended, in one transaction (`changePasswordHash`), and the user's open sessions closed in the configured store (docs/decisions.md#session-stores;
 * cli/auth/sessions.ts).
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { checkGivenPassword, obtainPassword, passwordOptions, readPasswordSource } from '../../auth/password.js';
import { auditCli } from '../../auth/audit.js';
import { readSelector, selectorOptions, userLabel } from '../../auth/select.js';

export function configure(command: Command): void {
  selectorOptions(command);
  passwordOptions(command);
}

export async function run({ options }: CommandInput): Promise<number> {
  const selector = readSelector(options, 'auth:user:password');
  const example = `fw auth:user:password ${'id' in selector ? `--id ${selector.id}` : `--email ${selector.email}`} --password-prompt`;
  const source = readPasswordSource(options, 'auth:user:password', example);
  await checkGivenPassword(source);
  const { withAuthDatabase, USER_TABLES } = await import('../../auth/database.js');
  const { selectUser } = await import('../../auth/select.js');
  const { changePasswordHash } = await import('../../../runtime/auth/users.js');
  const lines = await withAuthDatabase(USER_TABLES, async (context) => {
    const user = await selectUser(context.db, selector);
    const sessions = await (await import('../../auth/sessions.js')).userSessions(context);
    const password = await obtainPassword(source);
    const { hashPassword } = await import('../../../runtime/auth/passwords.js');
    await changePasswordHash(user.id, await hashPassword(password), context.db);
    await auditCli('user.password_changed', user.id);
    return [`Mot de passe de ${userLabel(user)} changé.`, await sessions.end(user.id)];
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
