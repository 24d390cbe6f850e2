/**
 * `fw auth:role:create <nom>` (docs/decisions.md#commands-beyond-the-original-list: `auth:user:role:add` refuses an unknown role, this
 * command makes one). Names are lower-case ASCII (`admin`, `editeur`), the same on both dialects.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { invalidRoleName } from '../../auth/errors.js';
import { CliError } from '../../errors.js';

export function configure(command: Command): void {
  command.argument('<nom>', 'nom du rôle (lettres minuscules, chiffres, « _ », « . », « - »)');
}

export async function run({ args }: CommandInput): Promise<number> {
  const name = String(args[0]);
  const roles = await import('../../../runtime/auth/users.js');
  if (!roles.isValidRoleName(name)) throw invalidRoleName(name);
  const { withAuthDatabase } = await import('../../auth/database.js');
  const { DuplicateError } = await import('../../../runtime/db/index.js');
  const taken = (): CliError =>
    new CliError(
      `le rôle « ${name} » existe déjà.`,
      `« fw auth:role:list » liste les rôles ; « fw auth:user:role:add --email <EMAIL> --role ${name} » le donne à un utilisateur.`,
    );
  const id = await withAuthDatabase(['roles'], async ({ db }) => {
    if (await roles.findRole(name, db)) throw taken();
    try {
      return await roles.createRole(name, db);
    } catch (error) {
      if (error instanceof DuplicateError) throw taken();
      throw error;
    }
  });
  process.stdout.write(`Rôle « ${name} » créé (#${id}).\n`);
  return 0;
}
