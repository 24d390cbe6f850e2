/**
 * A generated CRUD application served for real: `fw new --no-install`, entities Ville and Contact (many-to-one
 * Contact.ville_id → Ville.id), `fw make:crud --public` for both, `fw db:init` and `fw db:apply` on SQLite or on
 * a throw-away MariaDB database, then `app.ts` compiled and served on an ephemeral port (serveProject). `fw-mvc` and `tsx` are linked to this
 * repository (no install). A small cookie-keeping HTTP client speaks to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { DialectName } from '../../runtime/db/index.js';
import { REPO, newProject, type CliProject } from './cli.js';
import { projectSources } from './project-sources.js';

export const VILLE_JSON = {
  format_version: 1,
  entity: 'Ville',
  table: 'villes',
  fields: [
    { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true },
    { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } },
  ],
};

export const CONTACT_JSON = {
  format_version: 1,
  entity: 'Contact',
  table: 'contacts',
  fields: [
    { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true },
    { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true }, list: { filter: true } },
    { name: 'prenom', sql_type: 'VARCHAR(100)' },
    { name: 'email', sql_type: 'VARCHAR(190)', unique: true },
    { name: 'telephone', sql_type: 'VARCHAR(30)', nullable: true },
    { name: 'actif', sql_type: 'BOOLEAN', list: { filter: true } },
    { name: 'notes', sql_type: 'TEXT', nullable: true },
    { name: 'ville_id', sql_type: 'INT', nullable: true },
  ],
};

export interface CrudAppOptions {
  /** Load htmx in `layouts/app.html` (copied to static/vendor/htmx/ by `fw js:init htmx`), as a user would. */
  readonly htmx?: boolean;
}

export interface CrudApp {
  readonly project: CliProject;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Everything the server printed. */
  output(): string;
  /** Stops the server (SIGTERM), drops the MariaDB database, removes the folder. */
  stop(): Promise<void>;
}

function ok(project: CliProject, args: string[]): void {
  const run = project.run(args);
  if (run.status !== 0) throw new Error(`fw ${args.join(' ')} a échoué (${run.status}) :\n${run.stdout}${run.stderr}`);
}

/** Links `fw-mvc`, `tsx` and the type packages of this repository into the project. */
export function linkFramework(project: CliProject): void {
  linkPackages(project, ['fw-mvc', 'tsx', '@types']);
}

/**
 * Links packages of this repository into the project's node_modules, as `npm install` would have installed them
 * (`fw-mvc` and `fw-mvc-cli` are this repository itself, which holds both packages).
 */
export function linkPackages(project: CliProject, names: readonly string[]): void {
  for (const name of names) {
    const link = project.path(`node_modules/${name}`);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    if (!fs.existsSync(link)) fs.symlinkSync(name === 'fw-mvc' || name === 'fw-mvc-cli' ? REPO : path.join(REPO, 'node_modules', name), link, 'dir');
  }
}

/** Turns htmx on as the comment in `layouts/app.html` tells the user to: `fw js:init htmx`, then the script line. */
export function enableHtmx(project: CliProject): void {
  linkPackages(project, ['htmx.org']);
  ok(project, ['js:init', 'htmx']);
  const layout = project.read('mvc/views/layouts/app.html');
  const tag = '<script src="/static/vendor/htmx/htmx.min.js" defer></script>';
  const next = layout.replace(/\{#- Partial updates[\s\S]*?-#\}/, tag);
  if (next === layout) throw new Error('layouts/app.html : le commentaire htmx est introuvable');
  project.write('mvc/views/layouts/app.html', next);
}

/** Builds the Contacts application on `dialect` (CLI processes only) without serving it. */
export function buildCrudApp(dialect: DialectName, options: CrudAppOptions = {}): CliProject {
  const project = newProject('Carnet');
  try {
    project.useDialect(dialect);
    project.write('mvc/entities/ville/ville.json', JSON.stringify(VILLE_JSON, null, 2) + '\n');
    project.write('mvc/entities/contact/contact.json', JSON.stringify(CONTACT_JSON, null, 2) + '\n');
    ok(project, [
      'make:relation',
      '--name',
      'contact_ville',
      '--type',
      'many_to_one',
      '--from',
      'Contact.ville_id',
      '--to',
      'Ville.id',
      '--on-delete',
      'SET NULL',
      '--on-update',
      'CASCADE',
      '--no-input',
    ]);
    ok(project, ['make:crud', 'Ville', '--public']);
    ok(project, ['make:crud', 'Contact', '--public']);
    ok(project, ['sync:relations']);
    ok(project, ['db:init']);
    ok(project, ['db:apply']);
    linkFramework(project);
    if (options.htmx) enableHtmx(project);
    return project;
  } catch (err) {
    void project.cleanup();
    throw err;
  }
}

/** Where serveProject() writes the project's TypeScript compiled to JavaScript (one folder below the root, as dist/). */
export const SERVE_DIR = '.fw-test-serve';
/**
 * Serves a built project on an ephemeral port; resolves once it listens. Its TypeScript is first compiled to
 * `.fw-test-serve/` by esbuild, the transform tsx applies to each file (so the JavaScript is tsx's), and Node serves
 * `.fw-test-serve/app.js` as it serves `dist/app.js` in production: without tsx's loader thread and esbuild service,
 * a start costs a third of its CPU (docs/testing.md "How a generated project is served in tests").
 */
export async function serveProject(
  project: CliProject,
  env: Readonly<Record<string, string>> = {},
): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const { buildSync } = await import('esbuild');
  const out = path.join(project.root, SERVE_DIR);
  fs.rmSync(out, { recursive: true, force: true });
  buildSync({
    entryPoints: projectSources(project.root),
    outdir: out,
    outbase: project.root,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    tsconfig: path.join(project.root, 'tsconfig.json'),
    logLevel: 'silent',
  });
  return serveWith(project.root, [path.join(SERVE_DIR, 'app.js')], env);
}

/**
 * Runs `node <args>` in `root` on an ephemeral port, without the shell's DB_* and APP_ENV (the project's env file
 * decides); resolves once the server prints its address. `onSpawn` gets the process at once, so that a caller can
 * stop a server that never starts.
 */
export async function serveWith(
  root: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  onSpawn?: (child: ChildProcess) => void,
): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('DB_') && key !== 'APP_ENV') childEnv[key] = value;
  const child = spawn(process.execPath, [...args], {
    cwd: root,
    env: { ...childEnv, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onSpawn?.(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`le serveur n'a pas démarré en 30 s :\n${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /fw-mvc : (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`le serveur s'est arrêté (code ${code}) :\n${output}`));
    });
  });
  return { url, child, output: () => output };
}

/** Serves a built project (serveProject) as a CrudApp; the folder is removed when the start fails or on stop(). */
export async function serveBuiltApp(project: CliProject): Promise<CrudApp> {
  let served;
  try {
    served = await serveProject(project);
  } catch (err) {
    await project.cleanup();
    throw err;
  }
  const { url, child, output } = served;
  return {
    project,
    url,
    output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await project.cleanup();
    },
  };
}

/** Builds and serves the Contacts application. */
export function startCrudApp(dialect: DialectName, options: CrudAppOptions = {}): Promise<CrudApp> {
  return serveBuiltApp(buildCrudApp(dialect, options));
}

export interface HttpResult {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/**
 * A client that keeps the session cookie and the anonymous CSRF cookie, and reads the CSRF token from pages, like
 * a browser without script.
 */
export class HttpClient {
  private readonly cookies = new Map<string, string>();
  private get cookie(): string {
    return [...this.cookies.values()].join('; ');
  }
  constructor(readonly base: string) {}

  async request(
    method: string,
    url: string,
    options: { form?: Array<[string, string]>; multipart?: FormData; headers?: Record<string, string> } = {},
  ): Promise<HttpResult> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers['cookie'] = this.cookie;
    let body: string | FormData | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.multipart) {
      body = options.multipart; // fetch writes the multipart/form-data Content-Type and its boundary
    }
    const response = await fetch(this.base + url, { method, headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const pair = /^(session_id)=([^;]*)/.exec(cookie);
      if (!pair) continue;
      if (/Max-Age=0/i.test(cookie) || pair[2] === '') this.cookies.delete(pair[1]!);
      else this.cookies.set(pair[1]!, `${pair[1]}=${pair[2]}`);
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  get(url: string, headers: Record<string, string> = {}): Promise<HttpResult> {
    return this.request('GET', url, { headers });
  }

  /** POSTs a form; the CSRF token is added unless the form has one. */
  async post(url: string, form: Array<[string, string]> = [], headers: Record<string, string> = {}): Promise<HttpResult> {
    const fields = form.some(([name]) => name === 'csrf_token') ? form : [['csrf_token', await this.csrfToken()] as [string, string], ...form];
    return this.request('POST', url, { form: fields, headers });
  }

  /**
   * POSTs a multipart form, as a form with `enctype="multipart/form-data"` does: the fields (the CSRF token first
   * unless given), then the files, each [field, file name, bytes, Content-Type].
   */
  async postMultipart(
    url: string,
    fields: Array<[string, string]>,
    files: ReadonlyArray<readonly [string, string, Buffer, string]> = [],
    tokenPage?: string,
  ): Promise<HttpResult> {
    const data = new FormData();
    if (!fields.some(([name]) => name === 'csrf_token')) data.append('csrf_token', await this.csrfToken(tokenPage));
    for (const [name, value] of fields) data.append(name, value);
    for (const [name, filename, bytes, type] of files) data.append(name, new Blob([bytes], { type }), filename);
    return this.request('POST', url, { multipart: data });
  }

  private token = '';
  /** The session's CSRF token, read once from a page that has a form. */
  async csrfToken(page = '/contacts/new'): Promise<string> {
    if (this.token) return this.token;
    const result = await this.get(page);
    const match = /name="csrf_token" value="([^"]+)"/.exec(result.text);
    if (!match) throw new Error(`aucun jeton CSRF sur ${page} (${result.status})`);
    this.token = match[1]!;
    return this.token;
  }
}
