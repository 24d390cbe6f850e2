/**
 * The user selector of the `auth:user:*` commands (docs/auth.md "Commands"): `--id <id>` or `--email <EMAIL>`,
 * exactly one of them. E-mails compare without case.
 */
import type { Command } from 'commander';
import type { AuthUser } from '../../runtime/auth/users.js';
import type { Queryable } from '../../runtime/db/index.js';
import { CliError } from '../errors.js';

export type UserSelector = { readonly id: number } | { readonly email: string };

/** Declares `--id` and `--email`. */
export function selectorOptions(command: Command): Command {
  return command.option('--id <id>', "identifiant de l'utilisateur").option('--email <EMAIL>', "e-mail de l'utilisateur (sans casse)");
}

/** The selector given on the command line; a CliError when there are both, none, or a malformed id. */
export function readSelector(options: Readonly<Record<string, unknown>>, commandName: string): UserSelector {
  const id = options.id as string | undefined;
  const email = options.email as string | undefined;
  const example = `par exemple « fw ${commandName} --email alice@example.com » ou « fw ${commandName} --id 1 »`;
  if (id !== undefined && email !== undefined) {
    throw new CliError(`--id et --email ne vont pas ensemble : « fw ${commandName} » désigne un seul utilisateur.`, `gardez l'un des deux, ${example}.`);
  }
  if (id === undefined && email === undefined) {
    throw new CliError(
      `« fw ${commandName} » attend l'utilisateur : --id <id> ou --email <EMAIL>.`,
      `${example} ; « fw auth:user:list » liste les utilisateurs.`,
    );
  }
  if (id !== undefined) {
    if (!/^[1-9][0-9]{0,14}$/.test(id.trim())) {
      throw new CliError(`--id attend un entier positif (lu : « ${id} »).`, '« fw auth:user:list » donne les identifiants.');
    }
    return { id: Number(id.trim()) };
  }
  return { email: email! };
}

/** `#3 alice@example.com`. */
export function userLabel(user: Pick<AuthUser, 'id' | 'email'>): string {
  return `#${user.id} ${user.email}`;
}

/** The selected user, or a CliError naming the selector and the way out. */
export async function selectUser(db: Queryable, selector: UserSelector): Promise<AuthUser> {
  const { findUserByEmail, findUserById, normalizeEmail } = await import('../../runtime/auth/users.js');
  if ('id' in selector) {
    const user = await findUserById(selector.id, db);
    if (!user) throw new CliError(`aucun utilisateur n'a l'identifiant ${selector.id}.`, '« fw auth:user:list » liste les utilisateurs et leurs identifiants.');
    return user;
  }
  const user = await findUserByEmail(selector.email, db);
  if (!user) {
    const email = normalizeEmail(selector.email);
    throw new CliError(
      `aucun utilisateur n'a l'e-mail « ${email} ».`,
      `« fw auth:user:list » liste les utilisateurs ; « fw auth:user:create --email ${email} --password-prompt » en crée un.`,
    );
  }
  return user;
}
