/**
 * The dialects a test runs on, and a fresh database of each (docs/architecture.md "Dialects"). A test that repeats
 * itself per dialect loops over DIALECTS, the runtime's own list, instead of naming each one; a new dialect runs
 * those tests once it has its entry in FRESH below (and its server on this machine, if it needs one).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { configure } from '../../runtime/config.js';
import { openDatabase, type Database } from '../../runtime/db/database.js';
import { DIALECT_NAMES, spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import { MARIADB_ADMIN } from './cli.js';

export type { DialectName } from '../../runtime/db/dialect.js';

/** Every dialect, in the runtime's order. */
export const DIALECTS: readonly DialectName[] = DIALECT_NAMES;

/** The database's name in a test's title: `MariaDB`, `SQLite`. */
export function productOf(dialect: DialectName): string {
  return spellingOf(dialect).product;
}

/** An empty database of its own for a test. */
export interface FreshDatabase {
  readonly dialect: DialectName;
  readonly database: Database;
  /** `configure()` keys that point the runtime's default database at it (another process passes them too). */
  readonly config: Parameters<typeof configure>[0];
  /** Closes the handle and removes the database. */
  close(): Promise<void>;
  /** Removes the database, for a test that closes the handle itself. */
  remove(): Promise<void>;
  /** A second handle on the same database, as a second process would have (the caller closes it). */
  another(): Database;
}

export interface FreshOptions {
  /** Names the folder of a SQLite file or a MariaDB database (`fw_test_sessions` → `fw_test_sessions_<pid>_<hex>`). */
  readonly prefix: string;
  /** Connections of a MariaDB handle (5 by default). */
  readonly poolSize?: number;
}

/** Drops a MariaDB database of the tests, with the administration account. */
export async function dropMariaDb(databaseName: string): Promise<void> {
  const admin = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
  try {
    await admin.execute(`DROP DATABASE IF EXISTS \`${databaseName}\``);
  } finally {
    await admin.close();
  }
}

const FRESH: Readonly<Record<DialectName, (options: FreshOptions) => Promise<FreshDatabase>>> = {
  /** A database `<prefix>_<pid>_<random>` on the local server, dropped by `close()`. */
  async mariadb({ prefix, poolSize = 5 }) {
    const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
    try {
      await admin.execute(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    } finally {
      await admin.close();
    }
    const database = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: name, poolSize });
    return {
      dialect: 'mariadb',
      database,
      config: {
        db_driver: 'mariadb',
        db_host: MARIADB_ADMIN.host,
        db_port: MARIADB_ADMIN.port,
        db_user: MARIADB_ADMIN.user,
        db_password: MARIADB_ADMIN.password,
        db_name: name,
      },
      async close() {
        await database.close();
        await dropMariaDb(name);
      },
      remove: () => dropMariaDb(name),
      another: () => openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: name, poolSize: 1 }),
    };
  },

  /** A file in a temporary folder, removed with it by `close()`. */
  async sqlite({ prefix }) {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${prefix.replace(/_/g, '-')}-`)));
    const file = path.join(dir, 'database.sqlite');
    const database = openDatabase({ driver: 'sqlite', file });
    return {
      dialect: 'sqlite',
      database,
      config: { db_driver: 'sqlite', db_file: file },
      async close() {
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
      remove: async () => fs.rmSync(dir, { recursive: true, force: true }),
      another: () => openDatabase({ driver: 'sqlite', file }),
    };
  },
};

/** A fresh, empty database of `dialect`. */
export function freshDatabase(dialect: DialectName, options: FreshOptions): Promise<FreshDatabase> {
  return FRESH[dialect](options);
}
