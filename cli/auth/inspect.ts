/**
 * What `auth:list-sql`, `auth:status` and `auth:doctor` look at, read once and never written: the auth SQL files,
 * the `registerAuthRoutes` call in `mvc/routes.ts`, and the auth tables and their counts in the project's database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { hasGeneratedMarker } from '../../emitters/marker.js';
import { authSqlContent, authSqlPath } from '../../emitters/auth/sql-files.js';
import { AUTH_TABLES } from '../../runtime/auth/schema.js';
import { DatabaseUnavailableError, DIALECT_NAMES, type DialectName } from '../../runtime/db/index.js';
import { databaseFileMissing, openHandle, type DbSettings } from '../db/connection.js';
import { tableExists } from '../db/schema.js';
import { CliError } from '../errors.js';

export const ROUTES_FILE = 'mvc/routes.ts';

/**
 * `ok`: what auth:init writes. `stale`: still carries its marker line but differs (auth:init rewrites it).
 * `owned`: its marker line was removed, the file is the user's and db:apply applies it as written. `absent`.
 */
export type SqlFileState = 'ok' | 'stale' | 'owned' | 'absent';

export interface SqlFileInfo {
  readonly table: string;
  readonly dialect: DialectName;
  readonly path: string;
  readonly state: SqlFileState;
}

/** Every auth SQL file of every dialect, in AUTH_TABLES order, with its state on disk. */
export function sqlFileStates(root: string): SqlFileInfo[] {
  return DIALECT_NAMES.flatMap((dialect) =>
    AUTH_TABLES.map((table) => {
      const file = authSqlPath(table.name, dialect);
      const absolute = path.join(root, file);
      let state: SqlFileState = 'absent';
      if (fs.statSync(absolute, { throwIfNoEntry: false })?.isFile()) {
        const text = fs.readFileSync(absolute, 'utf8');
        state = text === authSqlContent(table, dialect) ? 'ok' : hasGeneratedMarker(text) ? 'stale' : 'owned';
      }
      return { table: table.name, dialect, path: file, state };
    }),
  );
}

/**
 * The auth SQL files `db:apply` runs after the entity tables and relations, in AUTH_TABLES order, for `dialect`:
 * none when the project has none (no authentication), else every table's file as it is on disk (a file the user
 * took over included). A missing file, or one still marked as generated that differs from what `auth:init`
 * writes, is a problem: nothing is applied.
 */
export function authFilesToApply(root: string, dialect: DialectName): { files: Array<{ path: string; text: string }>; problems: string[] } {
  const states = sqlFileStates(root).filter((file) => file.dialect === dialect);
  if (states.every((file) => file.state === 'absent')) return { files: [], problems: [] };
  const problems = states.filter((f) => f.state === 'absent' || f.state === 'stale').map((f) => `${f.path} (${f.state === 'absent' ? 'absent' : 'périmé'})`);
  if (problems.length > 0) return { files: [], problems };
  return { files: states.map((file) => ({ path: file.path, text: fs.readFileSync(path.join(root, file.path), 'utf8') })), problems: [] };
}

/** How `mvc/routes.ts` stands with the auth routes. */
export type RoutesState =
  | { readonly kind: 'no-file' }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'absent'; readonly conflicts: readonly string[] }
  | { readonly kind: 'present'; readonly conflicts: readonly string[] };

/** Reads `mvc/routes.ts` through its syntax tree (loads ts-morph): is `registerAuthRoutes` imported and called? */
export async function routesState(root: string): Promise<RoutesState> {
  const absolute = path.join(root, ROUTES_FILE);
  if (!fs.existsSync(absolute)) return { kind: 'no-file' };
  const { addAuthRoutes } = await import('../../emitters/auth/routes-edit.js');
  const { RoutesEditError } = await import('../../emitters/codemods/routes-edit.js');
  const text = fs.readFileSync(absolute, 'utf8');
  try {
    // The edit is computed in memory only: unchanged text means the import and the call are both there.
    const edit = addAuthRoutes(text, ROUTES_FILE);
    return { kind: edit.text === text ? 'present' : 'absent', conflicts: edit.conflicts };
  } catch (error) {
    if (error instanceof RoutesEditError) {
      // No registerRoutes to add the call to: the routes are absent all the same.
      return error.manualLines ? { kind: 'absent', conflicts: [] } : { kind: 'unreadable', reason: error.message };
    }
    throw error;
  }
}

export interface DatabaseInfo {
  /** Why the database could not be read (unreachable, refused, absent SQLite file), or null. */
  readonly problem: { readonly summary: string; readonly advice: string } | null;
  readonly present: readonly string[];
  readonly missing: readonly string[];
  /** Null when the table is missing. */
  readonly users: number | null;
  readonly activeUsers: number | null;
  readonly roles: number | null;
}

/** The auth tables of the database and the counts of users and roles; a database that cannot be read is reported, not thrown. */
export async function databaseState(settings: DbSettings): Promise<DatabaseInfo> {
  const names = AUTH_TABLES.map((table) => table.name);
  const unread = (summary: string, advice: string): DatabaseInfo => ({
    problem: { summary, advice },
    present: [],
    missing: names,
    users: null,
    activeUsers: null,
    roles: null,
  });
  if (databaseFileMissing(settings)) {
    return unread(
      `le fichier SQLite ${path.relative(settings.root, settings.file) || settings.file} n'existe pas encore`,
      '« fw db:init » ou « fw db:apply » le crée.',
    );
  }
  let db;
  try {
    db = openHandle(settings, 'app', { poolSize: 1 });
  } catch (error) {
    if (error instanceof CliError) return unread(error.message, error.advice ?? '');
    throw error;
  }
  try {
    const present: string[] = [];
    const missing: string[] = [];
    for (const name of names) ((await tableExists(db, name)) ? present : missing).push(name);
    const count = async (table: string, where = ''): Promise<number | null> => {
      if (!present.includes(table)) return null;
      const row = await db.fetchOne<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}${where}`);
      return Number(row?.n ?? 0);
    };
    return {
      problem: null,
      present,
      missing,
      users: await count('users'),
      activeUsers: await count('users', ' WHERE is_active = 1'),
      roles: await count('roles'),
    };
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) return unread(error.summary, error.advice);
    throw error;
  } finally {
    await db.close().catch(() => {});
  }
}
