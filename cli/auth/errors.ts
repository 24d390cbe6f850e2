/** The errors the `auth:*` commands share, each with the way out (docs/decisions.md#cli-errors-and-exit-codes: `Erreur : …` and `Conseil : …`). */
import type { Queryable } from '../../runtime/db/index.js';
import { CliError } from '../errors.js';

/** An e-mail `isValidEmail` refuses. */
export function invalidEmail(email: string): CliError {
  return new CliError(
    `adresse e-mail invalide : « ${email} ».`,
    'donnez une adresse comme alice@example.com : un seul @, un domaine avec un point, sans espace, 190 caractères au plus.',
  );
}

/** An e-mail already taken (in any case). */
export function duplicateEmail(email: string, id?: number): CliError {
  return new CliError(
    `un utilisateur a déjà l'e-mail « ${email} »${id === undefined ? '' : ` (#${id})`} (les e-mails ne tiennent pas compte de la casse).`,
    `choisissez une autre adresse, ou changez son mot de passe : « fw auth:user:password --email ${email} --password-prompt ».`,
  );
}

/** A role name `isValidRoleName` refuses. */
export function invalidRoleName(name: string): CliError {
  const suggestion = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 100);
  return new CliError(
    `nom de rôle invalide : « ${name} ».`,
    `un nom de rôle commence par une lettre minuscule, puis lettres minuscules non accentuées, chiffres, « _ », « . » ou « - » (100 caractères au plus)${suggestion ? `, par exemple « ${suggestion} »` : ''}.`,
  );
}

/** A role that does not exist, with the known ones. */
export async function unknownRole(name: string, db: Queryable): Promise<CliError> {
  const { listRoles } = await import('../../runtime/auth/users.js');
  const known = (await listRoles(db)).map((role) => role.name);
  return new CliError(
    `rôle inconnu : « ${name} » (rôles existants : ${known.length > 0 ? known.join(', ') : 'aucun'}).`,
    `créez-le d'abord avec « fw auth:role:create ${name} »${known.length > 0 ? ', ou choisissez un rôle existant' : ''}.`,
  );
}
