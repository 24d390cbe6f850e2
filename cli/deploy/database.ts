/**
 * What `fw deploy:check` reads from the production database, with the application account (DB_APP_* of env/prod):
 * whether it answers, the migrations' statuses, and on MariaDB the account's grants. Read-only; a SQLite file that
 * does not exist is reported, never created.
 */
import type { DbSettings } from '../db/connection.js';

export interface DatabaseFacts {
  /** Null when the database answered; else why not. */
  readonly error: string | null;
  /** Migration file names by status (APPLIED, PENDING, CHANGED, MISSING); null when not read. */
  readonly migrations: Record<string, string[]> | null;
  readonly migrationTable: boolean;
  /** MariaDB: the lines of SHOW GRANTS for the application account. */
  readonly grants: string[] | null;
}

export async function readDatabaseFacts(settings: DbSettings, root: string): Promise<DatabaseFacts> {
  const { databaseFileMissing, openHandle } = await import('../db/connection.js');
  if (databaseFileMissing(settings)) {
    return { error: `le fichier ${settings.file} n'existe pas (« fw db:init » le crée)`, migrations: null, migrationTable: false, grants: null };
  }
  const { migrationStatuses } = await import('../db/migrations.js');
  let db;
  try {
    db = openHandle(settings, 'app', { poolSize: 1 });
    await db.fetchAll('SELECT 1 AS one');
  } catch (error) {
    await db?.close().catch(() => undefined);
    return { error: String((error as Error)?.message ?? error).split('\n')[0]!, migrations: null, migrationTable: false, grants: null };
  }
  try {
    const report = await migrationStatuses(db, root);
    const migrations: Record<string, string[]> = {};
    for (const status of report.statuses) (migrations[status.status] ??= []).push(status.filename);
    let grants: string[] | null = null;
    if (settings.driver === 'mariadb') {
      const rows = await db.fetchAll<Record<string, unknown>>('SHOW GRANTS FOR CURRENT_USER()');
      grants = rows.map((row) => String(Object.values(row)[0] ?? ''));
    }
    return { error: null, migrations, migrationTable: report.tableExists, grants };
  } finally {
    await db.close();
  }
}

/** What is wrong with the grants of the application account of database `name`: each line, why. */
export function grantProblems(grants: readonly string[], name: string): string[] {
  const problems: string[] = [];
  for (const grant of grants) {
    if (/\bWITH\b.*\bGRANT OPTION\b/i.test(grant)) problems.push(`GRANT OPTION (${grant})`);
    const found = /^GRANT\s+(.+?)\s+ON\s+(?:(?:TABLE|FUNCTION|PROCEDURE)\s+)?(\S+)\s+TO\b/i.exec(grant);
    if (!found) continue;
    const privileges = found[1]!.trim().toUpperCase();
    const target = found[2]!;
    if (privileges === 'USAGE') continue;
    const database = /^`?([^`.]+|\*)`?\./.exec(target)?.[1]?.replace(/\\_/g, '_');
    if (database !== name) problems.push(`droits hors de sa base (${grant})`);
  }
  return problems;
}
