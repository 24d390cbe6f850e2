/**
 * The whole chain from definition files to served pages, driven by a table of cases (docs/entities.md "Limits and
 * reserved names"): if `fw check:model` accepts a definition, the generated project type-checks, applies on SQLite
 * and on MariaDB and serves every page of each entity (list, new, create, show, edit, update, CSV); otherwise
 * `check:model` refuses it with `Erreur :`, the file and the JSON pointer, and neither `build:model` nor
 * `make:crud` writes anything.
 *
 * A case is one row: definition files in, an expected outcome out. Accepted cases are grouped into one project
 * (their entity names, tables and plurals must therefore differ from one row to another), so that `tsc` runs once;
 * each refused case runs alone in one shared project whose `mvc/entities/` is emptied between cases.
 */
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import * as assert from 'uvu/assert';
import { newProject, type CliProject, type Run } from './cli.js';
import { HttpClient, linkFramework, serveProject } from './crud-app.js';
import { inputValue, rowIds } from './crud-html.js';
import type { DialectName } from './dialects.js';
import { runTsc } from './typecheck.js';

/** A definition file's content: a JSON value (written with 2-space indentation), text, or raw bytes. */
export type DefinitionContent = string | Buffer | Record<string, unknown> | unknown[];

/** What `check:model` must say of a refused case. */
export interface Refusal {
  /** The file named in the diagnostic line (project-relative), e.g. `mvc/entities/produit/produit.json`. */
  readonly file: string;
  /** The JSON pointer after the file name, e.g. `#/fields/1/name`. */
  readonly pointer: string;
  /** What the message of that line must contain (or match). */
  readonly message: string | RegExp;
}

/** What a served, accepted entity must show. */
export interface PageChecks {
  /** Texts the entity's pages (list, new, show, edit), together, must contain, compared after HTML decoding. */
  readonly contains?: readonly string[];
  /** Texts none of the entity's pages may contain, compared after HTML decoding. */
  readonly absent?: readonly string[];
}

/** Everything a case's own check may use on an accepted, served project. */
export interface ChainContext {
  readonly project: CliProject;
  readonly client: HttpClient;
  readonly dialect: DialectName;
}

export interface ChainCase {
  /** What the row shows, used in the test's name (e.g. `item 1: entity named Request`). */
  readonly name: string;
  /** Project-relative path (`mvc/entities/<snake>/<snake>.json`, `mvc/entities/relations.json`) → content. */
  readonly files: Readonly<Record<string, DefinitionContent>>;
  /** `'passes'`, or the refusal check:model must print. */
  readonly expect: 'passes' | Refusal;
  /**
   * Accepted cases: the entities whose CRUD is generated and served, each with the form values posted to create
   * and to update one record (field name → value; absent fields get a value derived from their SQL type).
   * Default: every entity of the case's files, values derived. Give the value of a foreign key (an id of an entity
   * served before, `'1'`: the first record each entity gets).
   */
  readonly entities?: ReadonlyArray<{ readonly name: string; readonly values?: Readonly<Record<string, string>>; readonly flags?: readonly string[] }>;
  /** Accepted cases: `fw` commands run once after the CRUDs are generated (e.g. `['upload:init']`, `['media:init']`). */
  readonly commands?: ReadonlyArray<readonly string[]>;
  /** Accepted cases: what the entity pages must (not) show. */
  readonly pages?: PageChecks;
  /** Accepted cases: a check of its own, run on each dialect once the pages were served. */
  readonly check?: (context: ChainContext) => Promise<void>;
}

interface EntityFile {
  readonly entity: string;
  readonly plural?: string;
  readonly fields?: ReadonlyArray<{ name: string; sql_type: string; primary_key?: boolean; nullable?: boolean }>;
  readonly media?: readonly unknown[];
  readonly primary_key?: { name: string; sql_type: string };
}

export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** The canonical path of an entity's file. */
export function entityPath(entity: string): string {
  return `mvc/entities/${snake(entity)}/${snake(entity)}.json`;
}

/** `{ [entityPath(def.entity)]: def }` for each definition: the files of a case made of entity files only. */
export function entityFiles(...definitions: ReadonlyArray<{ entity: string } & Record<string, unknown>>): Record<string, DefinitionContent> {
  return Object.fromEntries(definitions.map((d) => [entityPath(d.entity), d]));
}

function contentBytes(content: DefinitionContent): Buffer | string {
  if (typeof content === 'string' || Buffer.isBuffer(content)) return content;
  return `${JSON.stringify(content, null, 2)}\n`;
}

/** The relations file; accepted rows that give one share it (their relations are put together). */
export const RELATIONS_FILE = 'mvc/entities/relations.json';

function writeFiles(project: CliProject, files: Readonly<Record<string, DefinitionContent>>): void {
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(project.path(relative.split('/').slice(0, -1).join('/')), { recursive: true });
    fs.writeFileSync(project.path(relative), contentBytes(content));
  }
}

function mustRun(project: CliProject, args: string[]): Run {
  const run = project.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} :\n${run.stdout}${run.stderr}`);
  return run;
}

// ---------------------------------------------------------------------------------------------------------------
// Refused cases

let refusing: CliProject | undefined;

/** The project refused cases run in (made on first use; removed by cleanupChain()). */
function refusalProject(): CliProject {
  refusing ??= newProject('Refus');
  return refusing;
}

/**
 * Runs one refused case: check:model exits 1 with `Erreur :` and the line `[ERREUR] <file><pointer> : …<message>…`;
 * then build:model and make:crud of each entity exit 1 and leave every file of the project as it was.
 */
export function runRefusedCase(row: ChainCase): void {
  const refusal = row.expect;
  if (refusal === 'passes') throw new Error(`${row.name} : ce cas est accepté`);
  const project = refusalProject();
  fs.rmSync(project.path('mvc/entities'), { recursive: true, force: true });
  fs.mkdirSync(project.path('mvc/entities'), { recursive: true });
  writeFiles(project, row.files);
  const before = project.snapshot();

  const checked = project.run(['check:model']);
  const said = `${checked.stdout}${checked.stderr}`;
  assert.is(checked.status, 1, `${row.name} : check:model a accepté :\n${said}`);
  assert.match(checked.stderr, /^Erreur : /m, said);
  const prefix = `[ERREUR] ${refusal.file}${refusal.pointer} : `;
  const line = checked.stderr.split('\n').find((l) => l.startsWith(prefix) && matches(l.slice(prefix.length), refusal.message));
  assert.ok(line, `${row.name} : attendu « ${prefix}${String(refusal.message)} » dans :\n${checked.stderr}`);

  const built = project.run(['build:model']);
  assert.is(built.status, 1, `${row.name} : build:model a accepté :\n${built.stdout}${built.stderr}`);
  for (const entity of entitiesOf(row)) {
    const crud = project.run(['make:crud', entity.name, '--public']);
    assert.is(crud.status, 1, `${row.name} : make:crud ${entity.name} a accepté :\n${crud.stdout}${crud.stderr}`);
  }
  assert.equal(project.snapshot(), before, `${row.name} : des fichiers ont été écrits`);
}

function matches(text: string, expected: string | RegExp): boolean {
  return typeof expected === 'string' ? text.includes(expected) : expected.test(text);
}

function entitiesOf(row: ChainCase): Array<{ name: string; values?: Readonly<Record<string, string>>; flags?: readonly string[] }> {
  if (row.entities) return [...row.entities];
  const names: string[] = [];
  for (const [relative, content] of Object.entries(row.files)) {
    if (relative.endsWith('/relations.json') || typeof content === 'string' || Buffer.isBuffer(content) || Array.isArray(content)) continue;
    const name = (content as Partial<EntityFile>).entity;
    if (typeof name === 'string') names.push(name);
  }
  return names.map((name) => ({ name }));
}

// ---------------------------------------------------------------------------------------------------------------
// Accepted cases

/** A value the generated form accepts for a field of this SQL type (docs/crud.md "Forms"). */
export function sampleValue(sqlType: string, variant: 0 | 1): string {
  const type = sqlType.trim().toUpperCase();
  if (/^(TINYINT\(1\)|BOOL|BOOLEAN)\b/.test(type)) return '1';
  if (/^(TINYINT|SMALLINT|MEDIUMINT|INT|INTEGER|BIGINT)\b/.test(type)) return String(3 + variant);
  if (/^(DECIMAL|NUMERIC|DEC|FIXED)\b/.test(type)) return `${4 + variant}.5`;
  if (/^(FLOAT|DOUBLE|REAL)\b/.test(type)) return `${1 + variant}.25`;
  if (/^DATETIME\b|^TIMESTAMP\b/.test(type)) return `2024-0${1 + variant}-02T10:30`;
  if (/^DATE\b/.test(type)) return `2024-0${1 + variant}-02`;
  if (/^TIME\b/.test(type)) return `1${variant}:30`;
  if (/^YEAR\b/.test(type)) return String(2020 + variant);
  const length = /\((\d+)\)/.exec(type);
  const text = variant === 0 ? 'abc' : 'xyz';
  return length ? text.slice(0, Number(length[1])) : text;
}

function formValues(definition: EntityFile, given: Readonly<Record<string, string>> | undefined, variant: 0 | 1): Array<[string, string]> {
  const form: Array<[string, string]> = [];
  for (const field of definition.fields ?? []) {
    if (field.primary_key) continue;
    form.push([field.name, given?.[field.name] ?? sampleValue(field.sql_type, variant)]);
  }
  return form;
}

export interface AcceptedProject {
  readonly project: CliProject;
  /** The entities served, with their definitions. */
  readonly entities: ReadonlyArray<{
    readonly row: ChainCase;
    readonly name: string;
    readonly definition: EntityFile;
    readonly values?: Readonly<Record<string, string>>;
  }>;
}

let accepting: CliProject | undefined;
let server: ChildProcess | undefined;

/**
 * Writes every accepted case into one project, then check:model, build:model, make:crud --public of each entity,
 * sync:relations and `tsc --noEmit` (once for all of them). The database steps are runAcceptedOn()'s.
 */
export function buildAccepted(rows: readonly ChainCase[]): AcceptedProject {
  accepting = newProject('Accepte');
  const project = accepting;
  const entities: Array<AcceptedProject['entities'][number]> = [];
  const relations: unknown[] = [];
  for (const row of rows) {
    if (row.expect !== 'passes') throw new Error(`${row.name} : ce cas est refusé`);
    const { [RELATIONS_FILE]: own, ...files } = row.files;
    writeFiles(project, files);
    if (own !== undefined) relations.push(...((own as { relations?: unknown[] }).relations ?? []));
  }
  // The project has one relations file: the rows' relations are put together.
  if (relations.length > 0) writeFiles(project, { [RELATIONS_FILE]: { format_version: 1, relations } });
  const checked = mustRun(project, ['check:model']);
  assert.match(checked.stdout, /^OK : /m);
  mustRun(project, ['build:model']);
  for (const row of rows) {
    for (const entity of entitiesOf(row)) {
      const definition = JSON.parse(project.read(entityPath(entity.name))) as EntityFile;
      mustRun(project, ['make:crud', entity.name, '--public', ...(entity.flags ?? [])]);
      entities.push({ row, name: entity.name, definition, ...(entity.values ? { values: entity.values } : {}) });
    }
  }
  for (const row of rows) for (const command of row.commands ?? []) mustRun(project, [...command]);
  mustRun(project, ['sync:relations']);
  linkFramework(project);
  const tsc = runTsc(project.root, ['--noEmit', '-p', 'tsconfig.json']);
  const output = `${tsc.stdout}${tsc.stderr}`;
  assert.is(
    output
      .split('\n')
      .filter((l) => / error TS\d+/.test(l))
      .slice(0, 20)
      .join('\n'),
    '',
    'tsc',
  );
  assert.is(tsc.status, 0, output.slice(0, 4000));
  return { project, entities };
}

/** The entity's route plural, as the compiler derives it (docs/entities.md "Entity files"). */
function pluralOf(definition: EntityFile): string {
  if (definition.plural) return definition.plural;
  const base = snake(definition.entity);
  return /[sxz]$/.test(base) ? base : `${base}s`;
}

async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function pageText(html: string): string {
  return html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&#x0*27;/gi, "'")
    .replace(/&#0*123;/g, '{')
    .replace(/&#0*125;/g, '}')
    .replace(/&amp;/g, '&');
}

/**
 * On `dialect`: db:init, db:apply, then serves the project and, for each entity, GETs the list and the new page,
 * POSTs a record, GETs its show and edit pages, POSTs an update, GETs the CSV; every answer below 400, the pages'
 * checks of its row, the row's own check; the server still answers `/` at the end.
 */
export async function runAcceptedOn(accepted: AcceptedProject, dialect: DialectName): Promise<void> {
  const { project } = accepted;
  await stopServer();
  project.useDialect(dialect);
  mustRun(project, ['db:init']);
  mustRun(project, ['db:apply']);
  const served = await serveProject(project);
  server = served.child;
  const client = new HttpClient(served.url);
  const where = (entity: string, what: string): string => `${dialect} ${entity} ${what} :\n${served.output().slice(-3000)}`;
  for (const { row, name, definition, values } of accepted.entities) {
    const plural = pluralOf(definition);
    const pages: string[] = [];
    const get = async (url: string): Promise<string> => {
      const answer = await client.get(url);
      assert.is(answer.status, 200, where(name, `GET ${url} ${answer.text.slice(0, 500)}`));
      return answer.text;
    };
    pages.push(await get(`/${plural}`));
    const blank = await get(`/${plural}/new`);
    pages.push(blank);
    const token = inputValue(blank, 'csrf_token') ?? '';
    // A form with media is sent as the browser sends it, multipart (no file chosen).
    const send = (url: string, form: Array<[string, string]>) => (definition.media?.length ? client.postMultipart(url, form) : client.post(url, form));
    const created = await send(`/${plural}`, [['csrf_token', token], ...formValues(definition, values, 0)]);
    const location = created.headers.get('location') ?? '';
    assert.ok([302, 303].includes(created.status), where(name, `POST /${plural} ${created.status} ${created.text.slice(0, 2000)}`));
    assert.match(location, new RegExp(`^/${plural}(/\\d+)?$`), where(name, `POST /${plural} → ${location}`));
    const listed = await get(`/${plural}`);
    const id = String(Math.max(0, ...rowIds(listed)));
    assert.ok(id !== '0', where(name, `aucune ligne dans /${plural} après la création`));
    pages.push(await get(`/${plural}/${id}`));
    const edit = await get(`/${plural}/${id}/edit`);
    pages.push(edit);
    const updated = await send(`/${plural}/${id}`, [['csrf_token', inputValue(edit, 'csrf_token') ?? token], ...formValues(definition, values, 1)]);
    assert.ok([302, 303].includes(updated.status), where(name, `POST /${plural}/${id} ${updated.status} ${updated.text.slice(0, 2000)}`));
    assert.match(updated.headers.get('location') ?? '', new RegExp(`^/${plural}(/${id})?$`), where(name, `POST /${plural}/${id}`));
    pages.push(await get(`/${plural}`));
    await get(`/${plural}/export.csv`);
    const texts = pages.map(pageText);
    for (const text of row.pages?.contains ?? [])
      assert.ok(
        texts.some((html) => html.includes(text)),
        where(name, `« ${text} » absent des pages`),
      );
    for (const text of row.pages?.absent ?? [])
      assert.not.ok(
        texts.some((html) => html.includes(text)),
        where(name, `« ${text} » présent dans une page`),
      );
    if (row.check) await row.check({ project, client, dialect });
  }
  const home = await client.get('/');
  assert.ok(home.status < 500, where('/', `GET / ${home.status}`));
  assert.is(served.child.exitCode, null, where('/', 'le serveur s’est arrêté'));
}

/** Stops the server, drops the MariaDB databases and removes both projects. */
export async function cleanupChain(): Promise<void> {
  await stopServer();
  for (const project of [accepting, refusing]) await project?.cleanup();
  accepting = undefined;
  refusing = undefined;
}
