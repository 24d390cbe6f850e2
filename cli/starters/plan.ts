/**
 * The files of a starter (docs/starters.md), computed with the framework's own generators and read from the project,
 * never written here: make:entity's JSON and make:relation's relations file, the entity files of sync:entity and
 * sync:relations, make:crud's pages and routes, auth:init's SQL files and `registerAuthRoutes`, the account pages,
 * `registerMfaRoutes`, and the home page. `mvc/routes.ts` goes through every routes edit in turn, so it is written
 * once, with all of them. cli/starters/build.ts hands the files to the one writer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ModelNode } from '../../compiler/ir.js';
import type { PlannedFile } from '../../emitters/planned-file.js';
import type { MenuToAdd, RouteToAdd } from '../../emitters/codemods/routes-edit.js';
import { emptyRelations, entityJsonPath, entityJsonText, relationsJsonText, RELATIONS_PATH, type RelationDefinition } from '../definitions.js';
import { CliError } from '../errors.js';
import { packageInfo } from '../package-root.js';
import { starterName, type Starter, type StarterOptions, type StarterPiece } from './starter.js';

export const ROUTES_FILE = 'mvc/routes.ts';
const MODULES_FILE = 'fw_modules.json';
/** Files that several generators create and the user adapts: created when absent, otherwise used as they are. */
const APP_LAYOUT = 'mvc/views/layouts/app.html';
const SHARED_FILES = new Set([APP_LAYOUT]);

export interface StarterPlan {
  readonly starter: Starter;
  /** `fw starter:build <name>`: the command named in the files it writes. */
  readonly command: string;
  readonly files: readonly PlannedFile[];
  /** Definitions the project holds with another content (`path (entité Contact)`): a conflict unless --force. */
  readonly definitionConflicts: readonly string[];
  /** Entities whose existing definition differs (replaced under --force; their table may exist already). */
  readonly replacedEntities: ReadonlyArray<{ readonly name: string; readonly table: string }>;
  readonly routesBefore: string;
  readonly routesAfter: string;
  /** Routes added to registerRoutes (CRUD and account pages), and the module calls added. */
  readonly routesAdded: readonly RouteToAdd[];
  readonly callsAdded: readonly string[];
  /** The menu entries added to routes.ts (docs/starters.md "The menu"). */
  readonly menuAdded: readonly MenuToAdd[];
  /** Notes on existing routes (a public flag that differs, a route the framework also declares). */
  readonly routeNotes: readonly string[];
  /** The login routes are wired once built: users must sign in. */
  readonly login: boolean;
}

function read(root: string, file: string): string | null {
  const absolute = path.join(root, ...file.split('/'));
  return fs.statSync(absolute, { throwIfNoEntry: false })?.isFile() ? fs.readFileSync(absolute, 'utf8') : null;
}

function printDiagnostics(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

function ofKind<K extends StarterPiece['kind']>(pieces: readonly StarterPiece[], kind: K): Array<Extract<StarterPiece, { kind: K }>> {
  return pieces.filter((piece): piece is Extract<StarterPiece, { kind: K }> => piece.kind === kind);
}

/** The entity and relation files of the starter laid over the project's, compiled together. */
async function definitions(root: string, starter: Starter, pieces: readonly StarterPiece[], command: string) {
  const compiler = await import('../../compiler/index.js');
  const { sources, unreadable } = compiler.readProjectSources(root);
  const current = compiler.compileSources(sources);
  const problems = [...unreadable, ...current.diagnostics];
  if (problems.length > 0 || !current.model) {
    printDiagnostics(compiler.formatDiagnostics(problems));
    throw new CliError(
      `les définitions d'entités du projet ont ${problems.length} erreur(s) : l'application de démarrage « ${starterName(starter)} » n'est pas construite, rien n'a été écrit.`,
      `corrigez les fichiers indiqués (« fw check:model » les vérifie), puis relancez « ${command} ».`,
    );
  }
  const overlay = new Map(sources.map((source) => [source.file, source.text]));
  const files: PlannedFile[] = [];
  const conflicts: string[] = [];
  const replaced: Array<{ name: string; table: string }> = [];
  for (const piece of ofKind(pieces, 'entity')) {
    const file = entityJsonPath(compiler.snakeCase(piece.name));
    const elsewhere = current.model.entities.find((entity) => entity.name === piece.name && entity.file !== file);
    if (elsewhere) {
      throw new CliError(
        `l'entité « ${piece.name} » est déjà définie dans ${elsewhere.file} : l'application de démarrage « ${starterName(starter)} » la définit dans ${file} ; rien n'a été écrit.`,
        `renommez votre entité (ou construisez cette application dans un autre projet : « fw new MonProjet » puis « ${command} »).`,
      );
    }
    const text = entityJsonText(piece.name, piece.table, piece.fields, piece.extras);
    const existing = overlay.get(file);
    if (existing !== undefined && existing !== text) {
      conflicts.push(`${file} (entité ${piece.name}, autre définition)`);
      replaced.push({ name: piece.name, table: piece.table });
    }
    overlay.set(file, text);
    files.push({ path: file, content: text, kind: 'manual' });
  }
  const relations = ofKind(pieces, 'relation').map((piece) => piece.relation);
  if (relations.length > 0) {
    const existingText = overlay.get(RELATIONS_PATH);
    // The project compiled: its relations file, when there is one, is valid JSON with a `relations` array.
    const data = existingText === undefined ? emptyRelations() : (JSON.parse(existingText) as ReturnType<typeof emptyRelations>);
    const added: RelationDefinition[] = [];
    for (const relation of relations) {
      const index = data.relations.findIndex((other) => (other as { name?: unknown }).name === relation.name);
      if (index === -1) added.push(relation);
      else if (!isDeepStrictEqual(data.relations[index], relation)) {
        conflicts.push(`${RELATIONS_PATH} (relation ${relation.name}, autre définition)`);
        data.relations[index] = relation;
      }
    }
    const text = relationsJsonText(data, added);
    overlay.set(RELATIONS_PATH, text);
    files.push({ path: RELATIONS_PATH, content: text, kind: 'canonical' });
  }
  const compiled = compiler.compileSources([...overlay].map(([file, text]) => ({ file, text })));
  if (compiled.diagnostics.length > 0 || !compiled.model) {
    printDiagnostics(compiler.formatDiagnostics(compiled.diagnostics));
    throw new CliError(
      `les entités de l'application de démarrage « ${starterName(starter)} » ne s'accordent pas avec celles du projet (voir ci-dessus) : rien n'a été écrit.`,
      `renommez les entités ou tables du projet qui entrent en conflit, ou construisez cette application dans un nouveau projet (« fw new MonProjet »).`,
    );
  }
  return { model: compiled.model, files, conflicts, replaced };
}

/** Runs one edit of routes.ts; a file that cannot be edited stops everything. */
function edited<T>(edit: () => T, command: string): T {
  try {
    return edit();
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'RoutesEditError') throw error;
    throw new CliError(
      `${error.message} Aucun fichier n'a été écrit.`,
      `corrigez ${ROUTES_FILE} (il doit exporter « function registerRoutes(router: Router) { … } » avec un corps entre accolades), puis relancez « ${command} ».`,
    );
  }
}

/** fw_modules.json with `mfa` among its modules (the file `fw new` writes; created when absent). */
function modulesWithMfa(root: string): string {
  const text = read(root, MODULES_FILE);
  let data: { modules?: unknown } & Record<string, unknown> = {};
  if (text !== null) {
    try {
      data = JSON.parse(text) as typeof data;
    } catch (error) {
      throw new CliError(
        `${MODULES_FILE} n'est pas un JSON valide (${(error as Error).message}) : rien n'a été écrit.`,
        'corrigez le fichier, puis relancez la commande.',
      );
    }
  }
  const modules: unknown[] = Array.isArray(data.modules) ? data.modules : [];
  if (modules.some((module) => (module as { name?: unknown })?.name === 'mfa')) return text ?? '';
  return `${JSON.stringify({ ...data, modules: [...modules, { name: 'mfa' }] }, null, 2)}\n`;
}

/** Computes every file of the starter for the project at `root`; reads the project, writes nothing. */
export async function planStarter(root: string, starter: Starter, options: StarterOptions): Promise<StarterPlan> {
  const command = `fw starter:build ${starterName(starter)}`;
  const pieces = starter.pieces(options);
  const routesText = read(root, ROUTES_FILE);
  if (routesText === null) {
    throw new CliError(
      `${ROUTES_FILE} est introuvable : les routes de l'application de démarrage ne peuvent pas être ajoutées (aucun fichier n'a été écrit).`,
      `créez ${ROUTES_FILE} avec une fonction « export function registerRoutes(router: Router) », ou partez d'un projet neuf (« fw new MonProjet »), puis relancez « ${command} ».`,
    );
  }
  const defs = await definitions(root, starter, pieces, command);
  const files: PlannedFile[] = [...defs.files];
  const emitters = await import('../../emitters/index.js');
  const crud = await import('../../emitters/crud/index.js');
  const modules = await import('../../emitters/auth/routes-edit.js');
  const { addModuleRoutes } = await import('../../emitters/codemods/module-routes.js');
  const { existingRoutesReport } = await import('../../emitters/crud/routes-report.js');
  const model: ModelNode = defs.model;
  for (const piece of ofKind(pieces, 'entity'))
    files.push(
      ...emitters.entityFiles(
        model,
        model.entities.find((e) => e.name === piece.name)!,
      ),
    );
  if (ofKind(pieces, 'relation').length > 0) files.push(...emitters.relationFiles(model));

  let routes = routesText;
  const routesAdded: RouteToAdd[] = [];
  const callsAdded: string[] = [];
  const menuAdded: MenuToAdd[] = [];
  const routeNotes: string[] = [];
  const addRoutes = (
    imp: { name: string; from: string },
    list: readonly RouteToAdd[],
    comment: string,
    isPublic: boolean,
    menu: readonly MenuToAdd[],
  ): void => {
    const edit = edited(() => crud.addRoutes(routes, ROUTES_FILE, imp, list, comment, menu), command);
    routes = edit.text;
    routesAdded.push(...edit.added);
    menuAdded.push(...edit.menuAdded);
    if (edit.mismatched.length > 0) routeNotes.push(existingRoutesReport(ROUTES_FILE, edit.existing.length, edit.mismatched, isPublic));
  };
  const addModule = (spec: (typeof modules)['AUTH_ROUTES']): void => {
    const edit = edited(() => addModuleRoutes(routes, ROUTES_FILE, spec), command);
    routes = edit.text;
    if (edit.callAdded) callsAdded.push(spec.function);
    if (edit.conflicts.length > 0) {
      routeNotes.push(
        `Attention : ${ROUTES_FILE} déclare déjà ${edit.conflicts.join(', ')} : ces routes passent avant celles de ${spec.function} si elles sont déclarées avant son appel.\n`,
      );
    }
  };

  const { readCrudStubs } = await import('../stubs.js');
  let stubs: ReturnType<typeof readCrudStubs> | undefined;
  for (const piece of ofKind(pieces, 'crud')) {
    const plan = crud.planCrud(model, piece.entity, { isPublic: options.isPublic });
    stubs ??= readCrudStubs();
    files.push(...crud.crudFiles(plan, stubs));
    const { import: imp, routes: list, menu } = crud.crudRoutes(plan);
    addRoutes(imp, list, `${piece.entity} (fw make:crud ${piece.entity})`, plan.isPublic, menu);
  }
  if (ofKind(pieces, 'auth').length > 0) {
    const { authSqlFiles } = await import('../../emitters/auth/sql-files.js');
    files.push(...authSqlFiles());
    addModule(modules.AUTH_ROUTES);
  }
  const [accountPiece] = ofKind(pieces, 'account');
  if (accountPiece) {
    const account = await import('./account.js');
    const dashboard = await account.dashboardOf(accountPiece.dashboard, model, routes);
    files.push(...(await account.accountFiles(model, dashboard)));
    for (const group of account.accountRoutes(dashboard)) addRoutes(group.import, group.routes, group.comment, false, group.menu);
  }
  if (ofKind(pieces, 'mfa').length > 0) {
    const { MFA_CARD_VIEW, emitMfaCardView } = await import('../../emitters/starters/account-views.js');
    files.push({ path: `mvc/views/${MFA_CARD_VIEW}`, content: emitMfaCardView('fw starter:build mfa'), kind: 'manual' });
    files.push({ path: MODULES_FILE, content: modulesWithMfa(root), kind: 'canonical' });
    addModule(modules.MFA_ROUTES);
    const { addMenu } = await import('../../emitters/codemods/routes-menu.js');
    const menuEdit = edited(() => addMenu(routes, ROUTES_FILE, modules.MFA_MENU, 'Menu : second facteur (fw starter:build mfa)'), command);
    routes = menuEdit.text;
    menuAdded.push(...menuEdit.added);
  }
  const { homeFile, isLoginWired, layoutFile } = await import('./home.js');
  files.push(homeFile(routes, read(root, 'mvc/views/home/index.html'), pristineHome()));
  files.push({ path: ROUTES_FILE, content: routes, kind: 'canonical' });
  // One layout, whose nav block is the application's one menu: the starters' pages are its links.
  if (files.some((file) => file.path === APP_LAYOUT)) {
    const layout = layoutFile(routesText, read(root, APP_LAYOUT));
    files.splice(0, files.length, ...files.filter((file) => file.path !== APP_LAYOUT));
    if (layout.file) files.push(layout.file);
    if (layout.note) routeNotes.push(layout.note);
  }

  // A shared file the project already has is the user's: the starter's pages use it as it is (the layout is
  // rewritten above only while it is the one a generator wrote).
  const kept = files.filter((file) => !(SHARED_FILES.has(file.path) && file.kind !== 'canonical' && read(root, file.path) !== null));
  return {
    starter,
    command,
    files: kept,
    definitionConflicts: defs.conflicts,
    replacedEntities: defs.replaced,
    routesBefore: routesText,
    routesAfter: routes,
    routesAdded,
    menuAdded,
    callsAdded,
    routeNotes,
    login: isLoginWired(routes),
  };
}

/** The home page `fw new` writes: the starters may replace it while the user has not changed it. */
function pristineHome(): string {
  return fs.readFileSync(path.join(packageInfo().root, 'cli', 'templates', 'project', 'mvc', 'views', 'home', 'index.html'), 'utf8');
}
