/**
 * `db:init` (spec "Command-line commands"): prepares the database, the application account, `fw_migrations` and
 * `fw_sessions` (the database session store's table, DECISIONS §8).
 * Idempotent: a second run reports everything as already present.
 *
 * MariaDB, with the admin account (DB_ADMIN_*, or DB_APP_* when DB_ADMIN_LOGIN is empty):
 * `CREATE DATABASE IF NOT EXISTS` in utf8mb4; the account DB_APP_LOGIN@'%' and @'localhost' with DB_APP_PWD when
 * absent (an existing account keeps its password); `GRANT SELECT, INSERT, UPDATE, DELETE ON <db>.*` only; then
 * `fw_migrations` and `fw_sessions`. When the application login is the admin login, no account or grant is touched.
 * SQLite: the file's folder, the file, `fw_migrations` and `fw_sessions`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../runtime/db/index.js';
import { fwSessionsDdl, SESSIONS_TABLE } from '../../runtime/session/sessions-table.js';
import { CliError } from '../errors.js';
import { checkDatabaseName, credentialsFor, IDENTIFIER, openHandle, usingHandle, type DbSettings } from './connection.js';
import { APP_PRIVILEGES, extraGrants, hasAppGrant, revokeStatement } from './grants.js';
import { ensureMigrationsTable, MIGRATIONS_TABLE } from './migrations.js';
import { dialectOf, tableExists, type Handle } from './schema.js';

/** The hosts of the application account: '%' for TCP from anywhere, 'localhost' so that an anonymous local account cannot shadow it. */
export const APP_HOSTS = ['%', 'localhost'] as const;

/** What happened to one object. */
export type InitFate = 'créé' | 'déjà présent' | 'accordé' | 'déjà accordé' | 'ignoré' | 'en trop';

export interface InitStep {
  readonly fate: InitFate;
  readonly subject: string;
  readonly detail?: string;
}

/** Runs db:init for the project's settings and returns the steps, in order. */
export async function initDatabase(settings: DbSettings): Promise<InitStep[]> {
  return settings.driver === 'sqlite' ? initSqlite(settings) : initMariaDb(settings);
}

async function initSqlite(settings: DbSettings): Promise<InitStep[]> {
  const steps: InitStep[] = [];
  const folder = path.dirname(settings.file);
  const shown = path.relative(settings.root, settings.file) || settings.file;
  if (!fs.existsSync(folder)) {
    fs.mkdirSync(folder, { recursive: true });
    steps.push({ fate: 'créé', subject: `dossier ${path.relative(settings.root, folder) || folder}` });
  }
  const existed = fs.existsSync(settings.file);
  await usingHandle(openHandle(settings, 'admin'), async (db) => {
    await db.fetchOne('SELECT 1 AS ok');
    steps.push({ fate: existed ? 'déjà présent' : 'créé', subject: `fichier SQLite ${shown}` });
    steps.push({ fate: (await ensureMigrationsTable(db)) ? 'créé' : 'déjà présent', subject: `table ${MIGRATIONS_TABLE}` });
    steps.push({ fate: (await ensureSessionsTable(db)) ? 'créé' : 'déjà présent', subject: `table ${SESSIONS_TABLE}` });
  });
  return steps;
}

/** Creates `fw_sessions` and its indexes when the table is absent; resolves to true when it was created. */
export async function ensureSessionsTable(handle: Handle): Promise<boolean> {
  if (await tableExists(handle, SESSIONS_TABLE)) return false;
  for (const statement of fwSessionsDdl(dialectOf(handle))) await handle.execute(statement);
  return true;
}

async function initMariaDb(settings: DbSettings): Promise<InitStep[]> {
  const name = checkDatabaseName(settings);
  const { credentials: admin } = credentialsFor(settings, 'admin');
  const appLogin = settings.app.user;
  const envFile = `env/${settings.envName}`;
  if (!appLogin) {
    throw new CliError('DB_APP_LOGIN est vide : quel compte applicatif créer ?', `renseignez DB_APP_LOGIN et DB_APP_PWD dans ${envFile}.`);
  }
  if (!IDENTIFIER.test(appLogin) || appLogin.length > 80) {
    throw new CliError(
      `DB_APP_LOGIN « ${appLogin} » n'est pas un nom de compte accepté.`,
      `utilisez des lettres non accentuées, des chiffres ou « _ » (80 au plus) dans ${envFile}.`,
    );
  }
  const steps: InitStep[] = [];
  await usingHandle(openHandle(settings, 'admin', { withDatabase: false, poolSize: 1 }), async (server) => {
    const exists = await server.fetchOne('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [name]);
    if (!exists) await server.execute(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    steps.push({ fate: exists ? 'déjà présent' : 'créé', subject: `base ${name}`, detail: exists ? undefined : 'utf8mb4' });

    if (appLogin === admin.user) {
      steps.push({
        fate: 'ignoré',
        subject: `compte applicatif ${appLogin}`,
        detail: 'DB_APP_LOGIN est aussi le compte administrateur : aucun compte ni droit créé',
      });
    } else {
      for (const host of APP_HOSTS) steps.push(...(await ensureAppAccount(server, name, appLogin, host, settings.app.password)));
    }
  });
  await usingHandle(openHandle(settings, 'admin', { poolSize: 1 }), async (db) => {
    steps.push({ fate: (await ensureMigrationsTable(db)) ? 'créé' : 'déjà présent', subject: `table ${MIGRATIONS_TABLE}` });
    steps.push({ fate: (await ensureSessionsTable(db)) ? 'créé' : 'déjà présent', subject: `table ${SESSIONS_TABLE}` });
  });
  return steps;
}

async function ensureAppAccount(server: Database, database: string, login: string, host: string, password: string): Promise<InitStep[]> {
  const account = `'${login}'@'${host}'`;
  const steps: InitStep[] = [];
  const grants = await showGrants(server, login, host);
  if (grants === null) {
    // The password goes as a `?` parameter: escaped by the driver layer, never written into the SQL by hand.
    await server.execute('CREATE USER ?@? IDENTIFIED BY ?', [login, host, password]);
    steps.push({ fate: 'créé', subject: `compte ${account}`, detail: password ? undefined : 'mot de passe vide (DB_APP_PWD)' });
  } else {
    steps.push({ fate: 'déjà présent', subject: `compte ${account}`, detail: 'mot de passe inchangé' });
  }
  const privileges = APP_PRIVILEGES.join(', ');
  if (grants && hasAppGrant(grants, database)) {
    steps.push({ fate: 'déjà accordé', subject: `${privileges} sur ${database}.* à ${account}` });
  } else {
    // In GRANT, `_` and `%` of a database name are wildcards: escaped, the grant covers this database only.
    await server.execute(`GRANT ${privileges} ON \`${database.replace(/_/g, '\\_')}\`.* TO ?@?`, [login, host]);
    steps.push({ fate: 'accordé', subject: `${privileges} sur ${database}.* à ${account}` });
  }
  // Reported, never revoked: the extra rights may be wanted (a shared account), and revoking is the admin's call.
  for (const extra of extraGrants(grants ?? [], database)) {
    steps.push({
      fate: 'en trop',
      subject: `${extra.privileges.join(', ')} sur ${extra.on === '*.*' ? 'toutes les bases (*.*)' : `${database}.*`} à ${account}`,
      detail:
        `le compte applicatif ne devrait avoir que ${privileges} ; pour les retirer : ${revokeStatement(extra, login, host)}` +
        (extra.privileges.includes('ALL PRIVILEGES') ? ' puis relancez « fw db:init » (REVOKE ALL retire aussi les quatre droits)' : ''),
    });
  }
  return steps;
}

/** The GRANT lines of an account, or null when it does not exist (error 1141). */
async function showGrants(server: Database, login: string, host: string): Promise<string[] | null> {
  try {
    const rows = await server.fetchAll('SHOW GRANTS FOR ?@?', [login, host]);
    return rows.map((row) => String(Object.values(row)[0]));
  } catch (error) {
    if ((error as { errno?: unknown }).errno === 1141) return null;
    throw error;
  }
}
