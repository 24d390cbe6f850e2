/**
 * The application's secret (docs/runtime.md "CSRF"): the HMAC key that signs what the server must recognise
 * without storing it (the CSRF tokens of anonymous visitors), and that keys the sessions at rest (`sessionKey`,
 * so that a session is valid only in the application that made it: docs/decisions.md#session-stores). `app_secret` when configured, else `APP_SECRET`
 * from the environment, at least 32 characters; else a random secret created once in `<session_dir>/.app_secret`
 * (mode 0600, in the sessions folder that is 0700 and kept out of git), so that every process of one machine
 * and every restart share it. Several machines must set APP_SECRET, the same on each.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { get, getPath, onConfigChange } from '../config.js';
import { getLogger } from '../logger.js';

const log = getLogger('fw.security');
/** The shortest secret the runtime accepts (`fw doctor` checks APP_SECRET against it). */
export const APP_SECRET_MIN_LENGTH = 32;
export const APP_SECRET_FILE = '.app_secret';

let cached: Buffer | null = null;
onConfigChange((keys) => {
  if (keys.includes('app_secret') || keys.includes('session_dir') || keys.includes('project_root')) cached = null;
});

/** The secret as bytes; throws on a configured secret too short to be one. */
export function appSecret(): Buffer {
  cached ??= readSecret();
  return cached;
}

function readSecret(): Buffer {
  const configured = get('app_secret');
  if (configured !== null) return checked(configured, 'app_secret');
  const fromEnv = process.env.APP_SECRET;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return checked(fromEnv.trim(), 'APP_SECRET');
  return fileSecret(path.join(getPath('session_dir'), APP_SECRET_FILE));
}

function checked(value: string, name: string): Buffer {
  if (value.length < APP_SECRET_MIN_LENGTH) {
    throw new Error(
      `${name} doit compter au moins ${APP_SECRET_MIN_LENGTH} caractères (lu : ${value.length}) ; par exemple la sortie de « openssl rand -hex 32 ».`,
    );
  }
  return Buffer.from(value, 'utf8');
}

/** Reads the secret file, creating it (exclusively: two processes starting together agree on one) when absent. */
function fileSecret(file: string): Buffer {
  try {
    return readSecretFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return processSecret(file, error);
  }
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return processSecret(file, error);
  }
  try {
    return readSecretFile(file);
  } catch (error) {
    return processSecret(file, error);
  }
}

function readSecretFile(file: string): Buffer {
  const text = fs.readFileSync(file, 'utf8').trim();
  if (text.length < APP_SECRET_MIN_LENGTH) throw new Error(`${file} : secret trop court (${text.length} caractères)`);
  return Buffer.from(text, 'utf8');
}

/** The last resort: a secret of this process only (tokens of anonymous forms die with it). */
function processSecret(file: string, error: unknown): Buffer {
  log.warning(
    `Secret de l'application illisible et impossible à créer (${file} : ${(error as Error).message}) : un secret propre à ce processus est utilisé, ` +
      'les sessions et les formulaires ouverts par des visiteurs anonymes seront perdus au redémarrage. Définissez APP_SECRET (au moins 32 caractères).',
  );
  return randomBytes(32);
}
