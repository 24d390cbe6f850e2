// A generated CRUD application with media served for real: `fw new --no-install`, the entity Produit of
// helpers/crud-media.ts (a photo, a gallery, a notice, attachments), `fw make:crud Produit --media --public`,
// `fw upload:init`, `fw media:init`, `fw db:init`, `fw db:apply` on SQLite or a throw-away MariaDB database, then
// `tsx app.ts` on an ephemeral port (restartable: the upload limit lives in the process's memory).
import type { ChildProcess } from 'node:child_process';
import { openDatabase, type Database, type DialectName } from '../../runtime/db/index.js';
import { newProject, type CliProject } from './cli.js';
import { HttpClient, linkFramework, serveProject } from './crud-app.js';
import { PRODUIT, filesUnder } from './crud-media.js';
import { ok, writeEntity } from './crud-cli-project.js';

export interface MediaApp {
  readonly project: CliProject;
  readonly url: string;
  /** A client holding its own session. */
  client(): HttpClient;
  /** The files under storage/uploads (relative paths, sorted). */
  uploads(): string[];
  /** Rows of the project's database (the server's own connection stays untouched). */
  query<T extends object>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Stops the server and starts it again on the same project (a fresh upload limit). */
  restart(): Promise<void>;
  output(): string;
  stop(): Promise<void>;
}

/** Builds the Produit application on `dialect` (CLI processes only). */
export function buildMediaApp(dialect: DialectName): CliProject {
  const project = newProject('Boutique');
  try {
    project.useDialect(dialect);
    writeEntity(project, PRODUIT);
    for (const args of [['make:crud', 'Produit', '--media', '--public'], ['upload:init'], ['media:init'], ['db:init'], ['db:apply']]) ok(project, args);
    linkFramework(project);
    return project;
  } catch (err) {
    void project.cleanup();
    throw err;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function startMediaApp(dialect: DialectName): Promise<MediaApp> {
  const project = buildMediaApp(dialect);
  let served: Awaited<ReturnType<typeof serveProject>>;
  try {
    served = await serveProject(project);
  } catch (err) {
    await project.cleanup();
    throw err;
  }
  let db: Database | null = null;
  const database = (): Database => {
    if (db) return db;
    if (dialect === 'sqlite') db = openDatabase({ driver: 'sqlite', file: project.path('storage/database.sqlite') });
    else db = project.open();
    return db;
  };
  let log = '';
  return {
    project,
    get url() {
      return served.url;
    },
    client: () => new HttpClient(served.url),
    uploads: () => filesUnder(project.path('storage/uploads')),
    query: <T extends object>(sql: string, params: unknown[] = []) => database().fetchAll<T>(sql, params),
    async restart() {
      log += served.output();
      await stopChild(served.child);
      served = await serveProject(project);
    },
    output: () => log + served.output(),
    async stop() {
      await stopChild(served.child);
      await db?.close();
      await project.cleanup();
    },
  };
}
