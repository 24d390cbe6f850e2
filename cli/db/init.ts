/**
 * `db:init` (docs/entities.md "Commands"): prepares the database, the application account, `fw_migrations` and
 * `fw_sessions` (the database session store's table, docs/decisions.md#session-stores).
 * Idempotent: a second run reports everything as already present.
 *
 * MariaDB, with the admin account (DB_ADMIN_*, or DB_APP_* when DB_ADMIN_LOGIN is empty):
 * `CREATE DATABASE IF NOT EXISTS` in utf8mb4; the account DB_APP_LOGIN with DB_APP_PWD when absent (an existing
 * account keeps its password) on the hosts the application connects from: 'localhost' and '127.0.0.1' when
 * DB_APP_HOST is this machine, else those of DB_APP_ACCOUNT_HOSTS or `--app-hosts` (never '%' unless asked);
 * `GRANT <DB_APP_PRIVILEGES, by default SELECT, INSERT, UPDATE, DELETE> ON <db>.*` only; then `fw_migrations` and
 * `fw_sessions`. When the application login is the admin login, no account or grant is touched. Accounts of the
 * same login on other hosts and privileges beyond the list are reported (`en trop`), never dropped or revoked.
 * SQLite: the file's folder, the file, `fw_migrations` and `fw_sessions`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database, DialectName } from '../../runtime/db/index.js';
import { fwSessionsDdl, SESSIONS_TABLE } from '../../runtime/session/sessions-table.js';
import { CliError } from '../errors.js';
import { checkDatabaseName, credentialsFor, IDENTIFIER, openHandle, usingHandle, type DbSettings } from './connection.js';
import { DATABASE_PRIVILEGES, extraGrants, hasAppGrant, parseAppPrivileges, revokeStatement } from './grants.js';
import { ensureMigrationsTable, MIGRATIONS_TABLE } from './migrations.js';
import { dialectOf, tableExists, type Handle } from './schema.js';

/** Server addresses of this machine: the application account is then created for local connections only. */
const LOCAL_SERVERS = new Set(['127.0.0.1', 'localhost', '::1']);

/** A MariaDB account host: a name, an address, or a pattern with `%` and `_` (e.g. `10.0.0.%`). */
const ACCOUNT_HOST = /^[A-Za-z0-9._%:-]{1,255}$/;

/** Options of `fw db:init`. */
export interface InitOptions {
  /** `--app-hosts`: wins over DB_APP_ACCOUNT_HOSTS. */
  readonly appHosts?: string;
}

/**
 * The hosts of the application account. A server on this machine (DB_APP_HOST 127.0.0.1, localhost or ::1):
 * 'localhost' (a socket, or TCP when the server resolves 127.0.0.1 to its name; it also keeps an anonymous local
 * account from shadowing ours) and '127.0.0.1' (TCP under skip-name-resolve), plus '::1' for an IPv6 server address.
 * Another server cannot tell from here which address it will see: the hosts must be given.
 */
export function appAccountHosts(settings: DbSettings, options: InitOptions = {}): string[] {
  const envFile = `env/${settings.envName}`;
  const given = options.appHosts ?? settings.appAccountHosts ?? '';
  const source = options.appHosts !== undefined ? '--app-hosts' : 'DB_APP_ACCOUNT_HOSTS';
  if (given.trim() !== '') {
    const hosts = [...new Set(given.split(',').map((part) => part.trim()))];
    const bad = hosts.filter((host) => !ACCOUNT_HOST.test(host));
    if (bad.length > 0) {
      throw new CliError(
        `${source} : « ${bad.map((host) => host || '(vide)').join(' », « ')} » n'est pas un hôte de compte MariaDB.`,
        `donnez des noms ou des adresses séparés par des virgules (ex. localhost,127.0.0.1 ou 10.0.0.%)${source === '--app-hosts' ? '' : ` dans ${envFile}`}.`,
      );
    }
    return hosts;
  }
  const server = settings.app.host.trim();
  if (LOCAL_SERVERS.has(server)) return server === '::1' ? ['localhost', '127.0.0.1', '::1'] : ['localhost', '127.0.0.1'];
  throw new CliError(
    `DB_APP_HOST vaut « ${server} » : le serveur MariaDB n'est pas sur cette machine, et db:init ne peut pas savoir de quelle adresse l'application s'y connectera.`,
    `indiquez l'hôte (ou les hôtes, séparés par des virgules) du compte applicatif : DB_APP_ACCOUNT_HOSTS=10.0.0.5 dans ${envFile}, ou « fw db:init --app-hosts 10.0.0.5 » (« % » : tout hôte, déconseillé).`,
  );
}

/** The privileges of DB_APP_PRIVILEGES, or the default four; an unknown name is refused before anything is done. */
export function appPrivileges(settings: DbSettings): readonly string[] {
  const parsed = parseAppPrivileges(settings.appPrivileges);
  if ('unknown' in parsed) {
    throw new CliError(
      `DB_APP_PRIVILEGES : « ${parsed.unknown.join(' », « ')} » n'est pas un privilège que db:init accorde sur une base.`,
      `corrigez DB_APP_PRIVILEGES dans env/${settings.envName} (noms séparés par des virgules, parmi : ${DATABASE_PRIVILEGES.join(', ')}), ou videz-la pour SELECT, INSERT, UPDATE, DELETE.`,
    );
  }
  return parsed;
}

/** What happened to one object. */
export type InitFate = 'créé' | 'déjà présent' | 'accordé' | 'déjà accordé' | 'ignoré' | 'en trop';

export interface InitStep {
  readonly fate: InitFate;
  readonly subject: string;
  readonly detail?: string;
}

/** Runs db:init for the project's settings and returns the steps, in order. */
export async function initDatabase(settings: DbSettings, options: InitOptions = {}): Promise<InitStep[]> {
  return INIT[settings.driver](settings, options);
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

async function initMariaDb(settings: DbSettings, options: InitOptions): Promise<InitStep[]> {
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
  const ownAccount = appLogin !== admin.user;
  // Checked before anything is created: a wrong host or privilege name leaves the server untouched.
  const privileges = appPrivileges(settings);
  const hosts = ownAccount ? appAccountHosts(settings, options) : [];
  const steps: InitStep[] = [];
  await usingHandle(openHandle(settings, 'admin', { withDatabase: false, poolSize: 1 }), async (server) => {
    const exists = await server.fetchOne('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [name]);
    if (!exists) await server.execute(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    steps.push({ fate: exists ? 'déjà présent' : 'créé', subject: `base ${name}`, detail: exists ? undefined : 'utf8mb4' });

    if (!ownAccount) {
      steps.push({
        fate: 'ignoré',
        subject: `compte applicatif ${appLogin}`,
        detail: 'DB_APP_LOGIN est aussi le compte administrateur : aucun compte ni droit créé',
      });
    } else {
      for (const host of hosts) steps.push(...(await ensureAppAccount(server, name, appLogin, host, settings.app.password, privileges)));
      steps.push(...(await otherHosts(server, appLogin, hosts)));
    }
  });
  await usingHandle(openHandle(settings, 'admin', { poolSize: 1 }), async (db) => {
    steps.push({ fate: (await ensureMigrationsTable(db)) ? 'créé' : 'déjà présent', subject: `table ${MIGRATIONS_TABLE}` });
    steps.push({ fate: (await ensureSessionsTable(db)) ? 'créé' : 'déjà présent', subject: `table ${SESSIONS_TABLE}` });
  });
  return steps;
}

async function ensureAppAccount(
  server: Database,
  database: string,
  login: string,
  host: string,
  password: string,
  wanted: readonly string[],
): Promise<InitStep[]> {
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
  const privileges = wanted.join(', ');
  if (grants && hasAppGrant(grants, database, wanted)) {
    steps.push({ fate: 'déjà accordé', subject: `${privileges} sur ${database}.* à ${account}` });
  } else {
    // In GRANT, `_` and `%` of a database name are wildcards: escaped, the grant covers this database only.
    await server.execute(`GRANT ${privileges} ON \`${database.replace(/_/g, '\\_')}\`.* TO ?@?`, [login, host]);
    steps.push({ fate: 'accordé', subject: `${privileges} sur ${database}.* à ${account}` });
  }
  // Reported, never revoked: the extra rights may be wanted (a shared account), and revoking is the admin's call.
  for (const extra of extraGrants(grants ?? [], database, wanted)) {
    steps.push({
      fate: 'en trop',
      subject: `${extra.privileges.join(', ')} sur ${extra.on === '*.*' ? 'toutes les bases (*.*)' : `${database}.*`} à ${account}`,
      detail:
        `le compte applicatif ne devrait avoir que ${privileges} ; pour les retirer : ${revokeStatement(extra, login, host)}` +
        (extra.privileges.includes('ALL PRIVILEGES') ? ' puis relancez « fw db:init » (REVOKE ALL retire aussi les droits voulus)' : ''),
    });
  }
  return steps;
}

/**
 * Accounts of the application login on hosts db:init does not create (`'…_app'@'%'` left by an earlier version,
 * or a host since removed from DB_APP_ACCOUNT_HOSTS): reported with the DROP USER, never dropped (it may serve
 * another application). Skipped when the admin account may not read mysql.user.
 */
async function otherHosts(server: Database, login: string, hosts: readonly string[]): Promise<InitStep[]> {
  const rows = await server.fetchAll<{ host: unknown }>('SELECT Host AS host FROM mysql.user WHERE User = ? ORDER BY Host', [login]).catch(() => []);
  const wanted = new Set(hosts.map((host) => host.toLowerCase()));
  return rows
    .map((row) => String(row.host))
    .filter((host) => !wanted.has(host.toLowerCase()))
    .map((host) => ({
      fate: 'en trop' as const,
      subject: `compte '${login}'@'${host}'`,
      detail:
        `db:init crée ce compte pour ${hosts.join(', ')} seulement (DB_APP_ACCOUNT_HOSTS) ; s'il ne sert plus : ` +
        `DROP USER '${login}'@'${host.replace(/'/g, "''")}';`,
    }));
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

/** What db:init prepares on each dialect: a server's database, account and grants, or a file. */
const INIT: Readonly<Record<DialectName, (settings: DbSettings, options: InitOptions) => Promise<InitStep[]>>> = {
  mariadb: initMariaDb,
  sqlite: initSqlite,
};
