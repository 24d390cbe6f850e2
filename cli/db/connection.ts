/**
 * Database settings of the project a command runs in, read from `env/<APP_ENV|dev>` and the process
 * environment (the process wins, docs/decisions.md#how-a-generated-app-runs), and the handles opened from them.
 *
 * Which credentials a command uses:
 * - `db:init` uses the ADMIN account (`DB_ADMIN_*`): it creates the database, the application account and its
 *   grants. Without `DB_ADMIN_LOGIN` it falls back to the application account.
 * - Schema-changing commands (`db:apply`, `migration:apply`) and `migration:status` (which must see what apply
 *   will see) use the ADMIN account when `DB_ADMIN_LOGIN` is set, because the application account only holds
 *   SELECT, INSERT, UPDATE, DELETE (docs/entities.md "Which account"); otherwise the application account.
 * - The running application and read-only tools use the APPLICATION account (`DB_APP_*`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseUnavailableError, isDialectName, openDatabase, type Database, type DialectName } from '../../runtime/db/index.js';
import { loadEnv } from '../../runtime/env.js';
import { CliError } from '../errors.js';

export interface DbCredentials {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
}

export interface DbSettings {
  /** The project root (holds `mvc/`). */
  readonly root: string;
  /** `APP_ENV` or `dev`: the env file read is `env/<envName>`. */
  readonly envName: string;
  readonly driver: DialectName;
  /** SQLite file, absolute (DB_FILE resolved from the project root). */
  readonly file: string;
  /** MariaDB database name (DB_NAME). */
  readonly name: string;
  readonly app: DbCredentials;
  readonly admin: DbCredentials;
  /** True when DB_ADMIN_LOGIN is set: `admin` then holds the DB_ADMIN_* account, else a copy of `app`. */
  readonly adminConfigured: boolean;
  /** DB_APP_ACCOUNT_HOSTS as read: the hosts `db:init` creates the application account for (see cli/db/init.ts). */
  readonly appAccountHosts?: string;
  /** DB_APP_PRIVILEGES as read: the privileges `db:init` grants the application account (see cli/db/grants.ts). */
  readonly appPrivileges?: string;
}

/** Which account a handle uses. */
export type Role = 'app' | 'admin' | 'schema';

/** MariaDB identifiers interpolated into DDL (database and account names). */
export const IDENTIFIER = /^[A-Za-z0-9_]+$/;

export { projectRoot as findProjectRoot } from '../current-project.js';

/** Reads the database settings of the project at `root` (loads `env/<APP_ENV|dev>` into process.env first). */
export function readDbSettings(root: string): DbSettings {
  loadEnv(root);
  const env = process.env;
  const envName = env.APP_ENV || 'dev';
  const envFile = `env/${envName}`;
  const driver = (env.DB_DRIVER || 'sqlite').trim();
  if (!isDialectName(driver)) {
    throw new CliError(`DB_DRIVER doit valoir « sqlite » ou « mariadb » (valeur lue : « ${driver} »).`, `corrigez DB_DRIVER dans ${envFile}.`);
  }
  const port = (variable: string, fallback: string | undefined): number => {
    const text = (env[variable] || fallback || '3306').trim();
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1 || value > 65535) {
      throw new CliError(`${variable} doit être un numéro de port (lu : « ${text} »).`, `corrigez ${variable} dans ${envFile}.`);
    }
    return value;
  };
  const app: DbCredentials = {
    host: env.DB_APP_HOST || '127.0.0.1',
    port: port('DB_APP_PORT', undefined),
    user: env.DB_APP_LOGIN || '',
    password: env.DB_APP_PWD ?? '',
  };
  const adminConfigured = Boolean(env.DB_ADMIN_LOGIN);
  const admin: DbCredentials = adminConfigured
    ? {
        host: env.DB_ADMIN_HOST || app.host,
        port: port('DB_ADMIN_PORT', env.DB_APP_PORT),
        user: env.DB_ADMIN_LOGIN!,
        password: env.DB_ADMIN_PWD ?? '',
      }
    : app;
  return {
    root,
    envName,
    driver,
    file: path.resolve(root, env.DB_FILE || 'storage/database.sqlite'),
    name: env.DB_NAME || '',
    app,
    admin,
    adminConfigured,
    appAccountHosts: env.DB_APP_ACCOUNT_HOSTS ?? '',
    appPrivileges: env.DB_APP_PRIVILEGES ?? '',
  };
}

/** True when the database is a file (SQLite) that does not exist yet: read-only commands report it rather than create it. */
export function databaseFileMissing(settings: DbSettings): boolean {
  return settings.driver === 'sqlite' && !fs.existsSync(settings.file);
}

/** The credentials of a role: `schema` is the admin account when configured, else the application one. */
export function credentialsFor(settings: DbSettings, role: Role): { credentials: DbCredentials; envPrefix: string } {
  const useAdmin = role === 'admin' || (role === 'schema' && settings.adminConfigured);
  if (useAdmin && settings.adminConfigured) return { credentials: settings.admin, envPrefix: 'DB_ADMIN' };
  return { credentials: settings.app, envPrefix: 'DB_APP' };
}

/**
 * Opens a handle with the account of `role`. `withDatabase: false` connects to the MariaDB server without
 * selecting a database (db:init before CREATE DATABASE). `busyTimeoutMs` is the SQLite lock wait; `connectTimeoutMs` and
 * `queryTimeoutMs` bound a MariaDB connection and each statement (the diagnostics wait a few seconds at most).
 */
export function openHandle(
  settings: DbSettings,
  role: Role,
  options: { withDatabase?: boolean; busyTimeoutMs?: number; poolSize?: number; connectTimeoutMs?: number; queryTimeoutMs?: number } = {},
): Database {
  if (settings.driver === 'sqlite') {
    return openDatabase({ driver: 'sqlite', file: settings.file, busyTimeoutMs: options.busyTimeoutMs ?? 5000 });
  }
  const envFile = `env/${settings.envName}`;
  const { credentials, envPrefix } = credentialsFor(settings, role);
  if (!credentials.user) {
    throw new CliError(
      `${envPrefix}_LOGIN est vide : aucun compte pour se connecter à MariaDB.`,
      `renseignez ${envPrefix}_LOGIN et ${envPrefix}_PWD dans ${envFile}.`,
    );
  }
  if (options.withDatabase !== false) checkDatabaseName(settings);
  return openDatabase({
    driver: 'mariadb',
    host: credentials.host,
    port: credentials.port,
    ...(options.withDatabase === false ? {} : { database: settings.name }),
    user: credentials.user,
    password: credentials.password,
    poolSize: options.poolSize ?? 2,
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
    ...(options.queryTimeoutMs === undefined ? {} : { queryTimeoutMs: options.queryTimeoutMs }),
    envPrefix,
  });
}

/** DB_NAME must be set and a plain identifier before it is used in a connection or interpolated into DDL. */
export function checkDatabaseName(settings: DbSettings): string {
  const envFile = `env/${settings.envName}`;
  if (!settings.name) throw new CliError('DB_NAME est vide : quelle base MariaDB utiliser ?', `renseignez DB_NAME dans ${envFile}.`);
  if (!IDENTIFIER.test(settings.name) || settings.name.length > 64) {
    throw new CliError(
      `DB_NAME « ${settings.name} » n'est pas un nom de base accepté.`,
      `utilisez au plus 64 lettres non accentuées, chiffres ou « _ » dans ${envFile}.`,
    );
  }
  return settings.name;
}

/**
 * Runs `fn` with `handle` and always closes it; a DatabaseUnavailableError becomes a CliError (exit 1) with the
 * target and the variables to check.
 */
export async function usingHandle<T>(handle: Database, fn: (handle: Database) => Promise<T>): Promise<T> {
  try {
    return await fn(handle);
  } catch (error) {
    throw asCliError(error);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** A DatabaseUnavailableError as a CliError; any other error unchanged. */
export function asCliError(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError) return new CliError(error.summary, error.advice);
  return error;
}
