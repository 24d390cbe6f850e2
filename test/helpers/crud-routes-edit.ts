// Shared by the crud-routes-edit-*.test.ts files: `addRoutes` on `mvc/routes.ts` for the Contact of the fixture
// project (test/fixtures/project), the route lines it writes, its refusals, and the edited text run against the real Router.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';
import * as assert from 'uvu/assert';
import { addRoutes, crudRoutes, planCrud, RoutesEditError, type RoutesEdit } from '../../emitters/crud/index.js';
import type { RouteMismatch } from '../../emitters/codemods/routes-edit.js';
import { Router } from '../../runtime/http/router.js';
import { fixtureModel } from './fixture-project.js';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
export const TEMPLATE = fs.readFileSync(path.join(REPO, 'cli', 'templates', 'project', 'mvc', 'routes.ts'), 'utf8');
const FILE = 'mvc/routes.ts';
export const COMMENT = 'Contact (fw make:crud Contact)';
export const { import: IMPORT, routes: ROUTES } = crudRoutes(planCrud(fixtureModel(), 'Contact'));
export const IMPORT_LINE = "import { ContactController } from './controllers/contact_controller.js';";

/** The route lines `addRoutes` writes for a receiver, in the plan's order. */
export function routeLines(receiver = 'router', indent = '  '): string[] {
  return ROUTES.map((r) => `${indent}${receiver}.add('${r.method}', '${r.path}', ${r.handler}, ${r.options});`);
}

export function edit(text: string): RoutesEdit {
  return addRoutes(text, FILE, IMPORT, ROUTES, COMMENT);
}

export function keys(routes: RoutesEdit['added']): string[] {
  return routes.map((r) => `${r.method} ${r.path}`);
}

export function editError(text: string): RoutesEditError {
  try {
    edit(text);
  } catch (err) {
    if (err instanceof RoutesEditError) return err;
    throw err;
  }
  throw new Error('addRoutes should have thrown RoutesEditError');
}

/**
 * Runs a routes.ts text against the real Router: transpiled to CommonJS, every import a proxy whose members are
 * controllers whose members are handlers. Returns the router's routes as `METHOD pattern` (parameters written `{}`)
 * with where each handler comes from, `module#Export.method` (a route wired to a same-named class shows).
 */
function registered(text: string): Array<{ key: string; origin: string; isPublic: boolean }> {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const handlers = (origin: string): unknown =>
    new Proxy({}, { get: (_c, method) => Object.assign(() => undefined, { origin: `${origin}.${String(method)}` }) });
  const fakeRequire = (specifier: string): unknown => new Proxy({}, { get: (_m, exported) => handlers(`${specifier}#${String(exported)}`) });
  const exports: { registerRoutes?: (router: Router) => void } = {};
  new Function('require', 'exports', js)(fakeRequire, exports);
  const router = new Router();
  exports.registerRoutes!(router);
  return router.iterRoutes().map((r) => ({
    key: `${r.method} ${r.pattern.replace(/\{[^}]*\}/g, '{}')}`,
    origin: (r.handler as unknown as { origin?: string }).origin ?? '?',
    isPublic: r.public,
  }));
}

export function registeredRoutes(text: string): string[] {
  return registered(text).map((r) => r.key);
}

export function handlerOrigins(text: string): Map<string, string> {
  return new Map(registered(text).map((r) => [r.key, r.origin]));
}

/** Every route of the plan is registered exactly once. */
export function assertEachRouteOnce(text: string): void {
  const registered = registeredRoutes(text);
  for (const route of ROUTES) {
    const key = `${route.method} ${route.path.replace(/\{[^}]*\}/g, '{}')}`;
    assert.is(registered.filter((r) => r === key).length, 1, `${key} in ${JSON.stringify(registered)}`);
  }
}

/** The router's public flag of every route of a routes.ts text, by `METHOD pattern` (parameters written `{}`). */
export function publicFlags(text: string): Map<string, boolean> {
  return new Map(registered(text).map((r) => [r.key, r.isPublic]));
}

/** The text with each reported route replaced by the line(s) make:crud says it should become, as a user would paste them. */
export function applyFixes(text: string, mismatched: readonly RouteMismatch[]): string {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const out = text.split(/\r?\n/);
  // From the last route up, so that the line numbers of the earlier ones still hold.
  for (const m of [...mismatched].sort((a, b) => b.line - a.line)) {
    const before = m.before.split(/\r?\n/);
    assert.equal(out.slice(m.line - 1, m.line - 1 + before.length), before, `line ${m.line} is the reported one`);
    out.splice(m.line - 1, before.length, ...m.after.split(/\r?\n/));
  }
  return out.join(newline);
}
