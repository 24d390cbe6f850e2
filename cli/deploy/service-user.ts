/** Whether a system user can write in a folder, judged from /etc/passwd, /etc/group and the folder's mode (read-only). */
import fs from 'node:fs';
import type { CheckStatus } from '../checks/check.js';

interface Account {
  readonly uid: number;
  readonly gids: number[];
}

/** The uid and groups of `user` from /etc/passwd and /etc/group; null when the user does not exist here. */
export function lookupAccount(user: string): Account | null {
  const read = (file: string): string[] => {
    try {
      return fs.readFileSync(file, 'utf8').split('\n');
    } catch {
      return [];
    }
  };
  const entry = read('/etc/passwd')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === user);
  if (!entry) return null;
  const gids = [Number(entry[3])];
  for (const fields of read('/etc/group').map((line) => line.split(':'))) {
    if ((fields[3] ?? '').split(',').includes(user)) gids.push(Number(fields[2]));
  }
  return { uid: Number(entry[2]), gids };
}

export function storageWritableBy(dir: string, user: string): { status: CheckStatus; detail: string; hint?: string } {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return { status: 'FAIL', detail: `${dir} absent`, hint: 'mkdir storage && chown -R <utilisateur> storage' };
  const account = lookupAccount(user);
  if (!account)
    return { status: 'WARN', detail: `l'utilisateur « ${user} » n'existe pas sur cette machine`, hint: `adduser --system --group ${user} (README_DEPLOY.md)` };
  const writable =
    account.uid === 0 ||
    (stat.uid === account.uid && (stat.mode & 0o300) === 0o300) ||
    (account.gids.includes(stat.gid) && (stat.mode & 0o030) === 0o030) ||
    (stat.mode & 0o003) === 0o003;
  return writable
    ? { status: 'OK', detail: `${dir} inscriptible par ${user}` }
    : { status: 'FAIL', detail: `${dir} n'est pas inscriptible par ${user}`, hint: `chown -R ${user}:${user} storage` };
}
