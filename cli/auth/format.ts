/** How the `auth:*` commands print users and roles. No hash, no secret: only what an administrator may see. */
import type { AuthUser, RoleSummary } from '../../runtime/auth/users.js';

/** Columns padded to their widest cell, two spaces apart, the last one unpadded. */
export function formatTable(rows: ReadonlyArray<readonly string[]>): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n');
}

export const yesNo = (value: boolean): string => (value ? 'oui' : 'non');

/** A UTC date of the tables, or `jamais`. */
export const when = (value: string | null): string => (value ? `${value} UTC` : 'jamais');

/** `ID  EMAIL  ACTIF  E-MAIL VÉRIFIÉ  DERNIÈRE CONNEXION  CRÉÉ LE`, one row per user, and a count. */
export function userTable(users: readonly AuthUser[]): string {
  if (users.length === 0) return '(aucun utilisateur : « fw auth:user:create --email <EMAIL> --password-prompt » en crée un)\n';
  const rows = [
    ['ID', 'EMAIL', 'ACTIF', 'E-MAIL VÉRIFIÉ', 'DERNIÈRE CONNEXION', 'CRÉÉ LE'],
    ...users.map((u) => [String(u.id), u.email, yesNo(u.isActive), yesNo(u.emailVerifiedAt !== null), u.lastLoginAt ?? 'jamais', u.createdAt]),
  ];
  const active = users.filter((user) => user.isActive).length;
  return `${formatTable(rows)}\n${users.length} utilisateur(s), ${active} actif(s) ; dates en UTC.\n`;
}

/** The detail of one user, label and value per line. */
export function userDetails(user: AuthUser, roles: readonly string[], permissions: readonly string[]): string {
  const rows = [
    ['E-mail', user.email],
    ['Actif', yesNo(user.isActive)],
    ['E-mail vérifié', user.emailVerifiedAt ? `oui, le ${when(user.emailVerifiedAt)}` : 'non'],
    ['Dernière connexion', when(user.lastLoginAt)],
    ['Créé le', when(user.createdAt)],
    ['Modifié le', when(user.updatedAt)],
    ['Rôles', roles.length > 0 ? roles.join(', ') : '(aucun)'],
    ['Permissions', permissions.length > 0 ? permissions.join(', ') : '(aucune)'],
  ];
  return `Utilisateur #${user.id}\n${formatTable(rows)
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')}\n`;
}

/** `RÔLE  UTILISATEURS  CRÉÉ LE`, one row per role. */
export function roleTable(roles: readonly RoleSummary[]): string {
  if (roles.length === 0) return '(aucun rôle : « fw auth:role:create <nom> » en crée un)\n';
  const rows = [['RÔLE', 'UTILISATEURS', 'CRÉÉ LE'], ...roles.map((role) => [role.name, String(role.userCount), role.createdAt])];
  return `${formatTable(rows)}\n${roles.length} rôle(s) ; dates en UTC.\n`;
}
