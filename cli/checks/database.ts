/**
 * What the `db` and `migr` checks read from the project's database, read once per context over one connection with
 * the application's account (`context.once`), bounded in time, and closed before the checks look at it: whether
 * the database answers, the rows of `fw_migrations` (cli/db/migrations.ts, as `migration:status` reads them) and
 * the tables of the entities (cli/db/schema.ts, as `migration:diff` reads them).
 *
 * A SQLite file is never opened where it is: SQLite, even read-only, leaves `-wal` and `-shm` files beside a WAL
 * database and an open would create a missing file. The file (and its `-wal`) is copied into a private folder of the
 * system's temporary directory, opened there and removed; a file that does not exist is reported, never created.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ModelNode } from '../../compiler/ir.js';
import type { Database, DialectName } from '../../runtime/db/index.js';
import { databaseFileMissing, openHandle, type DbSettings } from '../db/connection.js';
import type { MigrationRecord } from '../db/migrations.js';
import type { TableInfo } from '../db/schema.js';
import { CliError } from '../errors.js';
import type { ProjectContext } from './context.js';

/** How long the connection and each statement may take: a stalled server is reported, never waited for. */
export const CONNECT_TIMEOUT_MS = 3000;
export const QUERY_TIMEOUT_MS = 3000;
/** Beyond it the whole read is abandoned (a server that accepts the connection and then stalls). */
export const READ_DEADLINE_MS = 8000;

export type DatabaseReads =
  /** Not configured (or the settings cannot be read): why, for a SKIP. */
  | { readonly state: 'unconfigured'; readonly reason: string }
  /** The SQLite file does not exist yet (`file` relative to the project when inside it). */
  | { readonly state: 'no-file'; readonly file: string }
  /** Configured but not answering (or refusing the account): what failed, and what to check. */
  | { readonly state: 'unavailable'; readonly target: string; readonly summary: string; readonly advice: string }
  | {
      readonly state: 'open';
      readonly target: string;
      readonly elapsedMs: number;
      /** The rows of fw_migrations; null when the table does not exist. */
      readonly migrations: MigrationRecord[] | null;
      /** The compiled model and each entity's table (null: absent), or why it could not be compiled. */
      readonly model: ModelNode | null;
      readonly tables: ReadonlyMap<string, TableInfo | null>;
      readonly dialect: DialectName;
    };

/** `MariaDB 127.0.0.1:3306/base` or `SQLite storage/database.sqlite`. */
export function describeDatabase(settings: DbSettings): string {
  if (settings.driver === 'sqlite') return `SQLite ${relativeFile(settings)}`;
  return `MariaDB ${settings.app.host}:${settings.app.port}/${settings.name}`;
}

function relativeFile(settings: DbSettings): string {
  const relative = path.relative(settings.root, settings.file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? settings.file : relative.split(path.sep).join('/');
}

/** The model the drift needs: compiled once per context; null when the entities do not compile (their own check says why). */
export function compiledModel(context: ProjectContext): Promise<ModelNode | null> {
  return context.once('model.compiled', async () => {
    // The compiler reads mvc/entities/ itself: an entity reached by a link out of the project is not read (FW-STRUCT-008).
    const { walkFiles } = await import('./files.js');
    if (walkFiles(context.root, 'mvc/entities').outside.length > 0) return null;
    try {
      const { compileProject } = await import('../../compiler/index.js');
      const compiled = compileProject(context.root);
      return compiled.diagnostics.length === 0 && compiled.model ? compiled.model : null;
    } catch {
      return null;
    }
  });
}

/** A copy of the SQLite file (and of its `-wal`) in a new private temporary folder; `remove()` deletes the folder. */
function sqliteCopy(file: string): { file: string; remove: () => void } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-check-'));
  const copy = path.join(folder, 'database.sqlite');
  const remove = (): void => fs.rmSync(folder, { recursive: true, force: true });
  try {
    fs.copyFileSync(file, copy);
    if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
  } catch (error) {
    remove();
    throw error;
  }
  return { file: copy, remove };
}

async function readAll(db: Database, model: ModelNode | null): Promise<{ migrations: MigrationRecord[] | null; tables: Map<string, TableInfo | null> }> {
  const { readMigrationRecords } = await import('../db/migrations.js');
  const { readTable } = await import('../db/schema.js');
  // The first statement is the connection test: a server that does not answer fails here.
  await db.fetchOne('SELECT 1 AS ok');
  const migrations = await readMigrationRecords(db);
  const tables = new Map<string, TableInfo | null>();
  for (const entity of model?.entities ?? []) tables.set(entity.table, await readTable(db, entity.table));
  return { migrations, tables };
}

function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

async function read(context: ProjectContext): Promise<DatabaseReads> {
  const settings = context.settings;
  if (!settings) return { state: 'unconfigured', reason: context.settingsError?.message.replace(/\.$/, '') ?? 'réglages de la base illisibles' };
  const target = describeDatabase(settings);
  if (settings.driver === 'mariadb' && (!settings.app.user || !settings.name)) {
    return { state: 'unconfigured', reason: `${!settings.app.user ? 'DB_APP_LOGIN' : 'DB_NAME'} est vide dans env/${settings.envName}` };
  }
  if (databaseFileMissing(settings)) return { state: 'no-file', file: relativeFile(settings) };
  const model = await compiledModel(context);
  const started = Date.now();
  let copy: { file: string; remove: () => void } | null = null;
  let db: Database | null = null;
  try {
    if (settings.driver === 'sqlite') {
      copy = sqliteCopy(settings.file);
      db = openHandle({ ...settings, file: copy.file }, 'app');
    } else {
      db = openHandle(settings, 'app', { poolSize: 1, connectTimeoutMs: CONNECT_TIMEOUT_MS, queryTimeoutMs: QUERY_TIMEOUT_MS });
    }
    const opened = db;
    const found = await withDeadline(
      readAll(opened, model),
      READ_DEADLINE_MS,
      () => new CliError(`${target} n'a pas répondu en ${READ_DEADLINE_MS / 1000} s`, 'vérifiez que le serveur est démarré et joignable'),
    );
    return { state: 'open', target, elapsedMs: Date.now() - started, model, dialect: settings.driver, ...found };
  } catch (error) {
    const summary = (error as { summary?: unknown }).summary;
    const advice = (error as { advice?: unknown }).advice;
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    // The copy's path means nothing to the user: the message names the project's file.
    const named = (text: string): string => (copy ? text.split(copy.file).join(relativeFile(settings)) : text);
    return {
      state: 'unavailable',
      target,
      summary: named(typeof summary === 'string' ? summary : message).replace(/\.$/, ''),
      advice: typeof advice === 'string' ? advice.replace(/\.$/, '') : '',
    };
  } finally {
    // The copy is closed before its folder goes; a stalled MariaDB server is not waited for past a second.
    const closing = db?.close().catch(() => {});
    if (closing) await (copy ? closing : Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 1000).unref())]));
    copy?.remove();
  }
}

/** The database reads of the context, made once. */
export function databaseReads(context: ProjectContext): Promise<DatabaseReads> {
  return context.once('database.reads', () => read(context));
}
