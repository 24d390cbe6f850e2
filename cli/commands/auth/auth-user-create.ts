/**
 * `fw auth:user:create --email <EMAIL> (--password <valeur> | --password-prompt) [--role <rôle>]…`: a local user in
 * `users` (the table `POST /login` reads, docs/decisions.md#one-user-model), its password hashed with Argon2id, with existing roles. The
 * e-mail is stored lower-cased and must be free in any case. Every check runs before anything is written; the user
 * and its roles are written in one transaction.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { duplicateEmail, invalidEmail, invalidRoleName, unknownRole } from '../../auth/errors.js';
import { checkGivenPassword, obtainPassword, passwordOptions, readPasswordSource } from '../../auth/password.js';
import { CliError } from '../../errors.js';

const EXAMPLE = 'fw auth:user:create --email alice@example.com --password-prompt';

export function configure(command: Command): void {
  command.option('--email <EMAIL>', "e-mail de l'utilisateur (son identifiant de connexion, sans casse)");
  passwordOptions(command);
  command.option('--role <rôle>', 'rôle existant à lui donner (répétable)', (value: string, previous: string[] = []) => [...previous, value]);
}

export async function run({ options }: CommandInput): Promise<number> {
  const given = options.email as string | undefined;
  if (given === undefined) throw new CliError('« fw auth:user:create » attend --email <EMAIL>.', `par exemple « ${EXAMPLE} ».`);
  const users = await import('../../../runtime/auth/users.js');
  const email = users.normalizeEmail(given);
  if (!users.isValidEmail(email)) throw invalidEmail(given);
  const roles = [...new Set((options.role as string[] | undefined) ?? [])];
  for (const role of roles) if (!users.isValidRoleName(role)) throw invalidRoleName(role);
  const source = readPasswordSource(options, 'auth:user:create', EXAMPLE);
  await checkGivenPassword(source);

  const { withAuthDatabase, ROLE_TABLES, USER_TABLES } = await import('../../auth/database.js');
  const { DuplicateError } = await import('../../../runtime/db/index.js');
  const id = await withAuthDatabase(roles.length > 0 ? ROLE_TABLES : USER_TABLES, async ({ db }) => {
    const existing = await users.findUserByEmail(email, db);
    if (existing) throw duplicateEmail(email, existing.id);
    for (const role of roles) if (!(await users.findRole(role, db))) throw await unknownRole(role, db);
    const password = await obtainPassword(source);
    const { hashPassword } = await import('../../../runtime/auth/passwords.js');
    const passwordHash = await hashPassword(password);
    try {
      return await db.transaction(async (tx) => {
        const created = await users.createUser({ email, passwordHash }, tx);
        for (const role of roles) await users.addUserRole(created, role, tx);
        return created;
      });
    } catch (error) {
      // Another process took the address between the check and the insert.
      if (error instanceof DuplicateError) throw duplicateEmail(email);
      throw error;
    }
  });
  process.stdout.write(`Utilisateur créé : #${id} ${email} (actif)${roles.length > 0 ? `, rôles : ${roles.join(', ')}` : ''}.\n`);
  return 0;
}
