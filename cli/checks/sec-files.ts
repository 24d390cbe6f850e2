/**
 * FW-SEC-011 (docs/diagnostics.md "Security of the environment"): in production, the files that hold secrets are
 * readable and writable by their owner only. `env/<APP_ENV>` holds APP_SECRET and the database password; the
 * SQLite file (and its -wal and -shm) the password hashes, TOTP secrets and sessions; `storage/sessions/.app_secret`
 * the secret the server made when APP_SECRET is unset. Absent files are not reported. Only their modes are read
 * (fs.stat): nothing is opened, nothing is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { result, type CheckDefinition, type CheckResult } from './check.js';
import type { ProjectContext } from './context.js';

/** The mode bits that make a secret file readable or writable by its group or by others. */
export const SHARED_BITS = 0o066;

/** The secret files of the project for its environment, absolute, present or not. */
function secretFiles(context: ProjectContext): string[] {
  const files = [path.join(context.root, 'env', context.appEnv)];
  if (context.settings?.driver === 'sqlite') files.push(context.settings.file, `${context.settings.file}-wal`, `${context.settings.file}-shm`);
  files.push(path.join(context.root, 'storage', 'sessions', '.app_secret'));
  return files;
}

const octal = (mode: number): string => `0${(mode & 0o777).toString(8)}`;

/** FW-SEC-011: FAIL on a secret file whose group or others may read or write it; SKIP outside production. */
export function secretFileModesCheck(definition: CheckDefinition, context: ProjectContext, prodOnly: string): CheckResult {
  if (!context.production) return result(definition, 'SKIP', prodOnly);
  const shown = (file: string): string => {
    const relative = path.relative(context.root, file);
    return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
  };
  const open: string[] = [];
  const fine: string[] = [];
  for (const file of secretFiles(context)) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    if ((stat.mode & SHARED_BITS) !== 0) open.push(`${shown(file)} (${octal(stat.mode)})`);
    else fine.push(shown(file));
  }
  if (open.length > 0) {
    const names = open.map((entry) => entry.replace(/ \(0\d+\)$/, ''));
    return {
      ...result(
        definition,
        'FAIL',
        `lisible par d'autres que son propriétaire : ${open.join(', ')} ; ${open.length > 1 ? 'ces fichiers gardent' : 'ce fichier garde'} des secrets (APP_SECRET, mots de passe, sessions)`,
        `chmod 600 ${names.join(' ')}, propriétaire l'utilisateur du service (chown <utilisateur> …)`,
      ),
      file: names[0]!,
    };
  }
  if (fine.length === 0) return result(definition, 'OK', 'aucun fichier secret présent');
  return result(definition, 'OK', `${fine.join(', ')} : propriétaire seulement`);
}
