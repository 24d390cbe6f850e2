/**
 * End-to-end CLI helpers: `node <repo>/bin/fw.js …` run as a real process in a project made by
 * `fw new <Name> --no-install` in a temporary folder, `env/dev` written for SQLite or for a throw-away MariaDB
 * database and application account, and the real schema read back with dialect-specific catalogue queries.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openDatabase, type Database, type DialectName } from '../../runtime/db/index.js';
import { runInRunner } from './cli-bridge.js';

export const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
export const FW = path.join(REPO, 'bin', 'fw.js');
export const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
/** The development MariaDB server (docs/decisions.md#two-database-dialects). */
export const MARIADB_ADMIN = { host: '127.0.0.1', port: 3306, user: 'root', password: '' } as const;

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** Piped to the child's stdin (closed afterwards). */
  readonly input?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Runs `node bin/fw.js` as its own process even where the file's command runner would do. */
  readonly process?: boolean;
}

/**
 * The environment the test process started with: in-process code under test may load a project's env file into
 * process.env (as a command does in its own process), and that must not leak into the next tests' children.
 */
const STARTING_ENV: Readonly<NodeJS.ProcessEnv> = { ...process.env };

/** The test process's starting environment without DB_*, APP_ENV or FW_DEBUG: the child reads only the project's env file. */
export function childEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(STARTING_ENV)) {
    if (!key.startsWith('DB_') && key !== 'APP_ENV' && key !== 'FW_DEBUG') env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * Commands that load the project's own modules (`routes:list` imports mvc/routes.ts through tsx): a module once
 * imported stays in a process, so they always run in a process of their own.
 */
const PROCESS_COMMANDS = new Set(['routes:list']);

/** `FW_TEST_CLI=process` runs every command as its own process, as before the command runner (to compare). */
const ALWAYS_PROCESS = process.env.FW_TEST_CLI === 'process';

/**
 * Runs `fw <args>` in `cwd` and waits for it: in the test file's command runner (one process for the file's
 * commands, docs/testing.md "How `fw` runs in tests"), or as its own process with `process: true`, for the
 * commands above, or when FW_TEST_CLI=process.
 */
export function fw(cwd: string, args: readonly string[], options: RunOptions = {}): Run {
  if (!options.process && !ALWAYS_PROCESS && !PROCESS_COMMANDS.has(args[0] ?? '')) {
    const env = childEnv(options.env) as Record<string, string>;
    return runInRunner(cwd, args, env, options.input ?? '', 120_000);
  }
  return fwProcess(cwd, args, options);
}

/** `fw <args>` in the file's command runner with exactly `env` as its environment (nothing of this process's added). */
export function fwWithEnvironment(cwd: string, args: readonly string[], env: Readonly<Record<string, string>>, input = ''): Run {
  if (ALWAYS_PROCESS) {
    const result = spawnSync(process.execPath, [FW, ...args], { cwd, encoding: 'utf8', env, input, timeout: 120_000 });
    if (result.error) throw result.error;
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }
  return runInRunner(cwd, args, env, input, 120_000);
}

/**
 * The `run(args)` of the module at `file` (a test's stand-in for a command) in the file's command runner, with exactly
 * `env`; with FW_TEST_CLI=process, `node <file> <args>` as a process of its own.
 */
export function inRunner(cwd: string, file: string, args: readonly string[], env: Readonly<Record<string, string>>): Run {
  if (ALWAYS_PROCESS) {
    const result = spawnSync(process.execPath, [file, ...args], { cwd, encoding: 'utf8', env, timeout: 120_000 });
    if (result.error) throw result.error;
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }
  return runInRunner(cwd, args, env, '', 120_000, pathToFileURL(file).href);
}

/** Runs `node bin/fw.js <args>` in `cwd` as a child process and waits for it. */
export function fwProcess(cwd: string, args: readonly string[], options: RunOptions = {}): Run {
  const result = spawnSync(process.execPath, [FW, ...args], {
    cwd,
    encoding: 'utf8',
    env: childEnv(options.env),
    input: options.input ?? '',
    timeout: 120_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The lines of an output, without the empty string after the final newline. */
export function lines(text: string): string[] {
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** A writer line as `formatPlan` prints it: two spaces, the label padded to 10, two spaces, the path. */
export function fateLine(label: string, file: string, reason?: string): string {
  return `  ${label.padEnd(10)}  ${file}${reason ? ` (${reason})` : ''}`;
}

/** Every file under `dir` (posix relative path -> content in base64, so that binary files compare too). */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else if (entry.isSymbolicLink()) out[relative] = `-> ${fs.readlinkSync(path.join(dir, relative))}`;
      else out[relative] = fs.readFileSync(path.join(dir, relative)).toString('base64');
    }
  };
  walk('');
  return out;
}

export interface MariaDbTarget {
  readonly database: string;
  readonly appLogin: string;
  readonly appPassword: string;
}

export interface CliProject {
  readonly root: string;
  /** `fw <args>` inside the project. */
  run(args: readonly string[], options?: RunOptions): Run;
  path(relative: string): string;
  read(relative: string): string;
  exists(relative: string): boolean;
  write(relative: string, content: string): void;
  /** Reads a JSON file, lets `edit` change it, writes it back with 2-space indentation. */
  editJson<T = Record<string, unknown>>(relative: string, edit: (data: T) => void): void;
  /** Every file of the project (see snapshotTree). */
  snapshot(): Record<string, string>;
  /** `env/dev` for SQLite (`DB_FILE=storage/database.sqlite`). */
  useSqlite(): void;
  /** `env/dev` for a unique MariaDB database and application account, dropped by cleanup(). */
  useMariaDb(): MariaDbTarget;
  /** `useSqlite()` or `useMariaDb()`. */
  useDialect(dialect: DialectName): void;
  /** The dialect of the last use*() call. */
  readonly dialect: DialectName | undefined;
  /** A handle on the project's database with the admin account (close it). */
  open(): Database;
  /** SQL run by hand on the project's database (admin account). */
  sql(statements: readonly string[]): Promise<void>;
  /** Drops the MariaDB databases and accounts made for this project, removes the folder. */
  cleanup(): Promise<void>;
}

const SQLITE_FILE = 'storage/database.sqlite';

/** `fw new <name> --no-install [...args]` in a fresh temporary folder; throws when it fails. */
export function newProject(name = 'Demo', args: readonly string[] = []): CliProject {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-pipe-')));
  const made = fw(parent, ['new', name, '--no-install', ...args]);
  if (made.status !== 0) {
    fs.rmSync(parent, { recursive: true, force: true });
    throw new Error(`fw new ${name} a échoué (${made.status}) : ${made.stderr}`);
  }
  const root = path.join(parent, name);
  const targets: MariaDbTarget[] = [];
  let dialect: DialectName | undefined;
  const abs = (relative: string): string => path.join(root, ...relative.split('/'));
  const write = (relative: string, content: string): void => {
    fs.mkdirSync(path.dirname(abs(relative)), { recursive: true });
    fs.writeFileSync(abs(relative), content);
  };
  /** Replaces the DB_* lines of the template's env/dev, keeping its other keys. */
  const writeDbEnv = (settings: string): void => {
    const kept = fs
      .readFileSync(abs('env/dev'), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('DB_'));
    write('env/dev', `${kept.join('\n').trimEnd()}\n\n${settings}`);
  };
  const useSqlite = (): void => {
    writeDbEnv(`DB_DRIVER=sqlite\nDB_FILE=${SQLITE_FILE}\n`);
    dialect = 'sqlite';
  };
  const useMariaDb = (): MariaDbTarget => {
    const id = randomBytes(6).toString('hex');
    const target = { database: `fw_pipe_${id}`, appLogin: `fw_pipe_app_${id}`, appPassword: randomBytes(12).toString('hex') };
    targets.push(target);
    writeDbEnv(
      'DB_DRIVER=mariadb\n' +
        `DB_NAME=${target.database}\n` +
        `DB_APP_HOST=${MARIADB_ADMIN.host}\nDB_APP_PORT=${MARIADB_ADMIN.port}\nDB_APP_LOGIN=${target.appLogin}\nDB_APP_PWD=${target.appPassword}\n` +
        `DB_ADMIN_HOST=${MARIADB_ADMIN.host}\nDB_ADMIN_PORT=${MARIADB_ADMIN.port}\nDB_ADMIN_LOGIN=${MARIADB_ADMIN.user}\nDB_ADMIN_PWD=${MARIADB_ADMIN.password}\n`,
    );
    dialect = 'mariadb';
    return target;
  };
  const open = (): Database => {
    if (dialect === 'sqlite') return openDatabase({ driver: 'sqlite', file: abs(SQLITE_FILE) });
    const target = targets[targets.length - 1];
    if (dialect !== 'mariadb' || !target) throw new Error('aucune base configurée : appelez useSqlite() ou useMariaDb()');
    return openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: target.database, poolSize: 1 });
  };
  return {
    root,
    get dialect() {
      return dialect;
    },
    run: (args, options) => fw(root, args, options),
    path: abs,
    read: (relative) => fs.readFileSync(abs(relative), 'utf8'),
    exists: (relative) => fs.existsSync(abs(relative)),
    write,
    editJson(relative, edit) {
      const data = JSON.parse(fs.readFileSync(abs(relative), 'utf8'));
      edit(data);
      fs.writeFileSync(abs(relative), `${JSON.stringify(data, null, 2)}\n`);
    },
    snapshot: () => snapshotTree(root),
    useSqlite,
    useMariaDb,
    useDialect(which) {
      if (which === 'sqlite') useSqlite();
      else useMariaDb();
    },
    open,
    async sql(statements) {
      const db = open();
      try {
        for (const statement of statements) await db.execute(statement);
      } finally {
        await db.close();
      }
    },
    async cleanup() {
      try {
        if (targets.length > 0) await dropMariaDbTargets(targets);
      } finally {
        fs.rmSync(parent, { recursive: true, force: true });
      }
    },
  };
}

/** Drops the databases and the application accounts (both hosts db:init creates). */
async function dropMariaDbTargets(targets: readonly MariaDbTarget[]): Promise<void> {
  const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
  try {
    for (const target of targets) {
      await server.execute(`DROP DATABASE IF EXISTS \`${target.database}\``);
      for (const host of ['%', 'localhost']) await server.execute('DROP USER IF EXISTS ?@?', [target.appLogin, host]);
    }
  } finally {
    await server.close();
  }
}

export interface SchemaColumn {
  readonly name: string;
  /** Lower-cased as the server reports it (the declared type on SQLite), without MariaDB's integer display width. */
  readonly type: string;
  readonly nullable: boolean;
}

export interface SchemaForeignKey {
  readonly table: string;
  readonly column: string;
  readonly refTable: string;
  readonly refColumn: string;
  readonly onDelete: string;
  readonly onUpdate: string;
}

export interface SchemaIndex {
  readonly table: string;
  readonly name: string;
  readonly unique: boolean;
  readonly columns: readonly string[];
}

export interface Schema {
  /** Table -> columns in declaration order (internal `sqlite_*` tables left out). */
  readonly tables: Record<string, SchemaColumn[]>;
  readonly foreignKeys: SchemaForeignKey[];
  /** Named indexes and unique keys, primary keys left out; sorted by table then name. */
  readonly indexes: SchemaIndex[];
}

/** The real schema of the project's database, read from the catalogue (no fw code involved). */
export async function readSchema(project: CliProject): Promise<Schema> {
  const db = project.open();
  try {
    return project.dialect === 'mariadb' ? await readMariaDbSchema(db) : await readSqliteSchema(db);
  } finally {
    await db.close();
  }
}

async function readMariaDbSchema(db: Database): Promise<Schema> {
  const tables: Record<string, SchemaColumn[]> = {};
  const columns = await db.fetchAll<{ t: string; c: string; ty: string; n: string }>(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLUMN_TYPE AS ty, IS_NULLABLE AS n FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  );
  for (const row of columns) {
    const type = row.ty.toLowerCase().replace(/^(smallint|mediumint|int|bigint)\(\d+\)/, '$1');
    (tables[row.t] ??= []).push({ name: row.c, type, nullable: row.n === 'YES' });
  }
  const foreignKeys = await db.fetchAll<SchemaForeignKey>(
    `SELECT k.TABLE_NAME AS \`table\`, k.COLUMN_NAME AS \`column\`, k.REFERENCED_TABLE_NAME AS refTable,
            k.REFERENCED_COLUMN_NAME AS refColumn, r.DELETE_RULE AS onDelete, r.UPDATE_RULE AS onUpdate
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
      WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY k.TABLE_NAME, k.COLUMN_NAME`,
  );
  const stats = await db.fetchAll<{ t: string; i: string; nu: number; c: string }>(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS i, NON_UNIQUE AS nu, COLUMN_NAME AS c FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME <> 'PRIMARY' ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
  );
  const indexes = new Map<string, { table: string; name: string; unique: boolean; columns: string[] }>();
  for (const row of stats) {
    const key = `${row.t}.${row.i}`;
    if (!indexes.has(key)) indexes.set(key, { table: row.t, name: row.i, unique: Number(row.nu) === 0, columns: [] });
    indexes.get(key)!.columns.push(row.c);
  }
  return { tables, foreignKeys: foreignKeys.map((fk) => ({ ...fk })), indexes: [...indexes.values()] };
}

async function readSqliteSchema(db: Database): Promise<Schema> {
  const tables: Record<string, SchemaColumn[]> = {};
  const foreignKeys: SchemaForeignKey[] = [];
  const indexes: SchemaIndex[] = [];
  const names = await db.fetchAll<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
  );
  for (const { name } of names) {
    const columns = await db.fetchAll<{ name: string; type: string; not_null: number; pk: number }>(
      'SELECT name, type, "notnull" AS not_null, pk FROM pragma_table_info(?) ORDER BY cid',
      [name],
    );
    tables[name] = columns.map((c) => ({ name: c.name, type: c.type.toLowerCase(), nullable: c.not_null === 0 && c.pk === 0 }));
    const fks = await db.fetchAll<{ table: string; from: string; to: string; on_delete: string; on_update: string }>(
      'SELECT "table", "from", "to", on_delete, on_update FROM pragma_foreign_key_list(?) ORDER BY "from"',
      [name],
    );
    for (const fk of fks)
      foreignKeys.push({ table: name, column: fk.from, refTable: fk.table, refColumn: fk.to, onDelete: fk.on_delete, onUpdate: fk.on_update });
    const list = await db.fetchAll<{ name: string; unique: number; origin: string }>(
      'SELECT name, "unique" AS "unique", origin FROM pragma_index_list(?) ORDER BY name',
      [name],
    );
    for (const index of list.filter((i) => i.origin !== 'pk')) {
      const parts = await db.fetchAll<{ name: string }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [index.name]);
      indexes.push({ table: name, name: index.name, unique: index.unique === 1, columns: parts.map((p) => p.name) });
    }
  }
  return { tables, foreignKeys, indexes };
}
