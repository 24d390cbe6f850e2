/**
 * The MariaDB / MySQL driver: a mysql2 pool carried by Kysely's `MysqlDialect`, its transactions, its errors translated
 * (docs/decisions.md#two-database-dialects), and its options read from the configuration registry.
 */
import type { Pool, PoolOptions, TypeCastField, TypeCastNext } from 'mysql2';
import { get } from '../../../config.js';
import type { Dialect, DialectDriver } from '../../dialect.js';
import { DatabaseUnavailableError, DuplicateError, ForeignKeyError } from '../../errors.js';
import { bindingPool, POOL_WAIT_TIMEOUT, QUERY_TIMEOUT } from './pool.js';

export interface MariaDbOptions {
  readonly host: string;
  readonly port: number;
  /** Omitted for server-level work (`CREATE DATABASE`). */
  readonly database?: string;
  readonly user: string;
  readonly password: string;
  /** Connections in the pool (`db_pool_size`, 5 by default). */
  readonly poolSize?: number;
  /** How long to wait for the server before giving up, 5 000 ms by default. */
  readonly connectTimeoutMs?: number;
  /** Longest wait for a free connection of the pool (`db_pool_wait_ms`); absent or 0: no limit. */
  readonly poolWaitMs?: number;
  /** Longest wait for a statement's answer (`db_query_timeout_ms`); absent or 0: no limit (the CLI's migrations). */
  readonly queryTimeoutMs?: number;
  /** Prefix of the environment variables named in connection errors: `DB_APP` (default) or `DB_ADMIN`. */
  readonly envPrefix?: string;
}

/** Connection-level error codes of Node and mysql2 that mean "the server could not be reached". */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNRESET',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
]);
const ER_DUP_ENTRY = 1062;
/** A parent row still referenced (1451, 1217 without details), a child row referring to no parent (1452, 1216). */
const ER_ROW_IS_REFERENCED = new Set([1451, 1217]);
const ER_NO_REFERENCED_ROW = new Set([1452, 1216]);
const ER_ACCESS_DENIED = 1045;
/** MariaDB's answer to an unknown account that sent a password it cannot check. */
const ER_ACCESS_DENIED_NO_PASSWORD = 1698;
const ER_DB_ACCESS_DENIED = 1044;
const ER_BAD_DB = 1049;

/** Builds the MariaDB dialect; mysql2 is imported when the pool is first needed. */
export function mariadbDialect(options: MariaDbOptions): Dialect {
  const prefix = options.envPrefix ?? 'DB_APP';
  const target = `${options.host}:${options.port}`;
  const envFile = `env/${process.env.APP_ENV || 'dev'}`;
  return {
    name: 'mariadb',
    beginTransactionSql: 'START TRANSACTION',

    createKyselyDialect(kysely) {
      return new kysely.MysqlDialect({
        // Parameters are written into the SQL by each connection, which knows its session's sql_mode (pool.ts).
        pool: async () =>
          bindingPool(await createPool(options), { poolWaitMs: options.poolWaitMs, queryTimeoutMs: options.queryTimeoutMs, size: options.poolSize ?? 5 }),
        // Date-times are kept in UTC, like SQLite's CURRENT_TIMESTAMP and like Date parameters (params.ts).
        onCreateConnection: async (connection) => {
          await connection.executeQuery(kysely.CompiledQuery.raw("SET time_zone = '+00:00'", []));
        },
      });
    },

    translateError(error) {
      const info = driverError(error);
      if (!info) return error;
      if (info.errno === ER_DUP_ENTRY) {
        const key = /for key '([^']*)'/.exec(info.message)?.[1] ?? null;
        const column = key?.includes('.') ? key.slice(key.lastIndexOf('.') + 1) : key;
        return new DuplicateError(key, column && column !== 'PRIMARY' ? [column] : [], { cause: error });
      }
      if (info.errno !== undefined && (ER_ROW_IS_REFERENCED.has(info.errno) || ER_NO_REFERENCED_ROW.has(info.errno))) {
        // "… a foreign key constraint fails (`db`.`contacts`, CONSTRAINT `fk_contacts_ville_id` FOREIGN KEY …)"
        const named = /\(`[^`]*`\.`([^`]*)`, CONSTRAINT `([^`]*)`/.exec(info.message);
        return new ForeignKeyError(ER_ROW_IS_REFERENCED.has(info.errno), named?.[1] ?? null, named?.[2] ?? null, { cause: error });
      }
      const variables = `les variables ${prefix}_HOST et ${prefix}_PORT (${envFile} ou l'environnement du processus)`;
      if (info.code === QUERY_TIMEOUT) {
        return new DatabaseUnavailableError(
          'query-timeout',
          `le serveur MariaDB ${target} n'a pas répondu à la requête en ${seconds(options.queryTimeoutMs)} s.`,
          "vérifiez que le serveur n'est pas bloqué ou surchargé, ou augmentez db_query_timeout_ms pour les requêtes longues.",
          { cause: error },
        );
      }
      if (info.code === POOL_WAIT_TIMEOUT) {
        return new DatabaseUnavailableError(
          'pool-timeout',
          `aucune connexion au serveur MariaDB ${target} ne s'est libérée en ${seconds(options.poolWaitMs)} s.`,
          'vérifiez que le serveur répond, ou augmentez db_pool_size ou db_pool_wait_ms si les requêtes sont simplement nombreuses.',
          { cause: error },
        );
      }
      // A connection found dead when a statement is added to it ("closed state") carries no code, only `fatal`.
      if ((info.code && UNREACHABLE_CODES.has(info.code)) || (info.fatal && info.errno === undefined)) {
        return new DatabaseUnavailableError(
          'unreachable',
          `impossible de joindre le serveur MariaDB ${target} (${info.code ?? 'connexion fermée'}${info.code === 'ETIMEDOUT' ? `, pas de réponse en ${seconds(options.connectTimeoutMs ?? 5000)} s` : ''}).`,
          `vérifiez que le serveur est démarré et ${variables}.`,
          { cause: error },
        );
      }
      if (info.errno === ER_ACCESS_DENIED || info.errno === ER_ACCESS_DENIED_NO_PASSWORD || info.errno === ER_DB_ACCESS_DENIED) {
        return new DatabaseUnavailableError(
          'access-denied',
          `le serveur MariaDB ${target} refuse le compte « ${options.user} »${options.database ? ` sur la base « ${options.database} »` : ''}.`,
          `vérifiez les variables ${prefix}_LOGIN et ${prefix}_PWD (${envFile}), ou lancez « fw db:init » pour créer le compte applicatif.`,
          { cause: error },
        );
      }
      if (info.errno === ER_BAD_DB) {
        return new DatabaseUnavailableError(
          'unknown-database',
          `la base « ${options.database ?? ''} » n'existe pas sur le serveur MariaDB ${target}.`,
          `vérifiez la variable DB_NAME (${envFile}), ou lancez « fw db:init » pour la créer.`,
          { cause: error },
        );
      }
      return error;
    },

    describe() {
      return `MariaDB ${target}${options.database ? `/${options.database}` : ''}`;
    },
  };
}

async function createPool(options: MariaDbOptions): Promise<Pool> {
  const mysql = await import('mysql2');
  const config: PoolOptions = {
    host: options.host,
    port: options.port,
    user: options.user,
    password: options.password,
    connectionLimit: options.poolSize ?? 5,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    dateStrings: true,
    supportBigNumbers: true,
    // A JSON column comes back as the text stored, as SQLite gives it (mysql2 would parse it into an object).
    jsonStrings: true,
    charset: 'UTF8MB4_UNICODE_CI',
    typeCast: readExactDouble,
    waitForConnections: true,
    queueLimit: 0,
  };
  if (options.database) config.database = options.database;
  return mysql.createPool(config);
}

/**
 * mysql2 reads a DOUBLE's text digit by digit, which misses the stored value by one unit in the last place
 * for some 16- and 17-digit values (96.50914982817609 came back as 96.50914982817608): the text goes through
 * `Number.parseFloat`, which gives back the exact double. Other types keep mysql2's reading.
 */
function readExactDouble(field: TypeCastField, next: TypeCastNext): unknown {
  if (field.type !== 'DOUBLE') return next();
  const text = field.string('ascii');
  return text === null ? null : Number.parseFloat(text);
}

interface DriverErrorInfo {
  readonly code: string | undefined;
  readonly errno: number | undefined;
  readonly fatal: boolean;
  readonly message: string;
}

function seconds(ms: number | undefined): string {
  return String((ms ?? 0) / 1000);
}

function driverError(error: unknown): DriverErrorInfo | null {
  if (!(error instanceof Error)) return null;
  const record = error as Error & { code?: unknown; errno?: unknown; fatal?: unknown };
  return {
    code: typeof record.code === 'string' ? record.code : undefined,
    errno: typeof record.errno === 'number' ? record.errno : undefined,
    fatal: record.fatal === true,
    message: error.message,
  };
}

/** The MariaDB driver: the dialect of one server and account, and its options from `db_host`, `db_port`, `db_name`… */
export const mariadbDriver: DialectDriver<MariaDbOptions> = {
  name: 'mariadb',
  connect: mariadbDialect,
  optionsFromConfig: () => ({
    host: get('db_host'),
    port: Number(get('db_port')),
    database: get('db_name'),
    user: get('db_user'),
    password: get('db_password'),
    poolSize: Number(get('db_pool_size')),
    connectTimeoutMs: Number(get('db_connect_timeout_ms')),
    poolWaitMs: Number(get('db_pool_wait_ms')),
    queryTimeoutMs: Number(get('db_query_timeout_ms')),
    envPrefix: 'DB_APP',
  }),
};
