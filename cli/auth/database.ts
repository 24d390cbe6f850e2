/**
 * The database the `auth:*` commands work on: the project's (env/<APP_ENV>, DB_DRIVER, DB_FILE, DB_NAME), reached
 * with the APPLICATION account (DB_APP_*), the one `POST /login` uses: these commands read and write rows, they
 * never change the schema. A SQLite file that does not exist yet is never created by them.
 */
import path from 'node:path';
import type { Database } from '../../runtime/db/index.js';
import { databaseFileMissing, openHandle, readDbSettings, usingHandle, type DbSettings } from '../db/connection.js';
import { tableExists } from '../db/schema.js';
import { CliError } from '../errors.js';
import { projectRoot } from '../current-project.js';

/** What a command needs: `users` alone, or the role tables too. */
export const USER_TABLES = ['users'] as const;
export const ROLE_TABLES = ['users', 'roles', 'user_roles'] as const;
export const ACCESS_TABLES = ['users', 'roles', 'user_roles', 'permissions', 'role_permissions'] as const;

/** The advice for missing tables, everywhere. */
export const INIT_ADVICE = 'lancez « fw auth:init » puis « fw db:apply ».';

export interface AuthContext {
  readonly root: string;
  readonly settings: DbSettings;
  readonly db: Database;
}

/** `SQLite storage/database.sqlite` or `MariaDB 127.0.0.1:3306/base`, for messages. */
export function describeTarget(settings: DbSettings): string {
  if (settings.driver === 'sqlite') return `SQLite ${path.relative(settings.root, settings.file) || settings.file}`;
  return `MariaDB ${settings.app.host}:${settings.app.port}/${settings.name}`;
}

function missingTables(settings: DbSettings, missing: readonly string[]): CliError {
  return new CliError(`tables d'authentification absentes de la base (${describeTarget(settings)}) : ${missing.join(', ')}.`, INIT_ADVICE);
}

/**
 * Opens the project's database, checks that `tables` exist (else a CliError that says to run auth:init then
 * db:apply), runs `fn` and closes the handle whatever happens.
 */
export async function withAuthDatabase<T>(tables: readonly string[], fn: (context: AuthContext) => Promise<T>): Promise<T> {
  const root = projectRoot();
  const settings = readDbSettings(root);
  if (databaseFileMissing(settings)) throw missingTables(settings, tables);
  return usingHandle(openHandle(settings, 'app', { poolSize: 1 }), async (db) => {
    const missing: string[] = [];
    for (const table of tables) if (!(await tableExists(db, table))) missing.push(table);
    if (missing.length > 0) throw missingTables(settings, missing);
    return fn({ root, settings, db });
  });
}
