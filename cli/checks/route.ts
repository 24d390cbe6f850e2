/**
 * The route checks (family `route`, ids FW-ROUTE-001 to FW-ROUTE-010): `mvc/routes.ts` (the local route files it
 * calls, and `mvc/api_routes.ts`) read as syntax trees by route-source.ts, never imported or run. The file, its syntax, `registerRoutes`
 * exported, at least one route, each method and path by the router's own rule (runtime/http/router.ts), duplicate
 * METHOD + path and duplicate names, the controller method each handler names (route-controllers.ts), the calls
 * that cannot be read statically, and the code that would run when the file is imported. See
 * docs/diagnostics.md.
 */
import { METHODS, parseRoutePattern } from '../../runtime/http/router.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult, type CheckStatus } from './check.js';
import type { ProjectContext } from './context.js';
import { HandlerResolver } from './route-controllers.js';
import { analyseRoutes, ROUTES_FILE, typescript, type DeclaredRoute, type FileProblem, type Place, type RoutesAnalysis } from './route-source.js';

function route(id: number, label: string): CheckDefinition {
  return { id: `FW-ROUTE-${String(id).padStart(3, '0')}`, family: 'route', label };
}

const D = {
  file: route(1, 'Fichier des routes'),
  syntax: route(2, 'Syntaxe des fichiers de routes'),
  exported: route(3, 'Fonction registerRoutes exportée'),
  declared: route(4, 'Routes déclarées'),
  paths: route(5, 'Méthodes et chemins des routes'),
  duplicates: route(6, 'Routes en double (méthode et chemin)'),
  names: route(7, 'Noms de routes en double'),
  handlers: route(8, 'Contrôleurs des routes'),
  unverifiable: route(9, 'Routes non vérifiables'),
  sideEffects: route(10, 'Code exécuté au chargement des routes'),
} as const;

/** Every id the family can produce, with its label. */
export const ROUTE_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/** A result about a place of a file. */
function at(definition: CheckDefinition, status: CheckStatus, where: Partial<Place> & { file: string }, detail: string, hint = ''): CheckResult {
  return { ...result(definition, status, detail, hint), file: where.file, ...(where.line ? { line: where.line, column: where.column } : {}) };
}

function analysis(context: ProjectContext): Promise<RoutesAnalysis> {
  return context.once('route.analysis', () => analyseRoutes(context.root));
}

/** Why the routes cannot be checked (mvc/routes.ts missing, unreadable or mis-written), or null when they can. */
function unusable(found: RoutesAnalysis): string | null {
  const own = found.problems.find((problem) => problem.file === ROUTES_FILE);
  if (!own) return null;
  return own.kind === 'syntax'
    ? `${ROUTES_FILE} a des erreurs de syntaxe`
    : own.kind === 'missing'
      ? `${ROUTES_FILE} est introuvable`
      : `${ROUTES_FILE} ne se lit pas`;
}

/** The checks that need the routes: SKIP with the reason when mvc/routes.ts cannot be read. */
function withRoutes(
  definition: CheckDefinition,
  check: (found: RoutesAnalysis, context: ProjectContext) => Promise<CheckResult[]> | CheckResult[],
): CheckFunction {
  return async (context) => {
    const found = await analysis(context);
    const reason = unusable(found);
    if (reason) return [result(definition, 'SKIP', reason)];
    return check(found, context);
  };
}

function syntaxDetail(problem: Extract<FileProblem, { kind: 'syntax' }>): string {
  const { line, column, message, count } = problem.error;
  const others = count > 1 ? ` (et ${count - 1} autre${count > 2 ? 's' : ''} erreur${count > 2 ? 's' : ''})` : '';
  return `${problem.file} ligne ${line}, colonne ${column} : ${message.replace(/\.$/, '')}${others}`;
}

/** FW-ROUTE-001: mvc/routes.ts (and the route files it calls) exist and read as text. */
export const routesFileCheck: CheckFunction = async (context) => {
  const found = await analysis(context);
  const unread = found.problems.filter((problem) => problem.kind !== 'syntax');
  if (unread.length === 0) {
    const others = found.files.length - 1;
    return [at(D.file, 'OK', { file: ROUTES_FILE }, `${ROUTES_FILE} lu${others > 0 ? `, avec ${others} autre(s) fichier(s) de routes` : ''}`)];
  }
  return unread.map((problem) =>
    problem.kind === 'missing'
      ? at(D.file, 'FAIL', { file: problem.file }, problem.reason, 'créez mvc/routes.ts avec « export function registerRoutes(router: Router): void { … } »')
      : at(D.file, 'FAIL', { file: problem.file }, problem.reason, 'remplacez-le par un fichier TypeScript lisible'),
  );
};

/** FW-ROUTE-002: no syntax error, with the file, line and column of the first one of each file. */
export const routesSyntaxCheck: CheckFunction = async (context) => {
  const found = await analysis(context);
  if (found.problems.some((problem) => problem.file === ROUTES_FILE && problem.kind !== 'syntax')) return [result(D.syntax, 'SKIP', unusable(found)!)];
  const errors = found.problems.filter((problem): problem is Extract<FileProblem, { kind: 'syntax' }> => problem.kind === 'syntax');
  if (errors.length === 0) return [result(D.syntax, 'OK', `${found.files.length} fichier(s) sans erreur de syntaxe`)];
  return errors.map((problem) =>
    at(D.syntax, 'FAIL', problem.error, syntaxDetail(problem), 'corrigez la syntaxe (« npm run typecheck » dans le projet la montre aussi)'),
  );
};

/** FW-ROUTE-003: `registerRoutes` is a named export of mvc/routes.ts (the server calls it). */
export const routesExportedCheck: CheckFunction = withRoutes(D.exported, (found) => [
  found.exported
    ? at(D.exported, 'OK', { file: ROUTES_FILE }, `${ROUTES_FILE} exporte registerRoutes`)
    : at(
        D.exported,
        'FAIL',
        { file: ROUTES_FILE },
        `${ROUTES_FILE} n'exporte pas registerRoutes`,
        'écrivez « export function registerRoutes(router: Router): void { … } »',
      ),
]);

/** FW-ROUTE-004: at least one route (a WARN for project:check and project:audit, a fact for the others). */
export const routesDeclaredCheck: CheckFunction = withRoutes(D.declared, (found, context) => {
  const count = found.routes.length;
  const modules = [...new Set(found.moduleCalls)];
  if (count === 0 && modules.length === 0 && found.unverifiable.length === 0) {
    const status = context.command === 'project:check' || context.command === 'project:audit' ? 'WARN' : 'INFO';
    return [
      at(
        D.declared,
        status,
        { file: ROUTES_FILE },
        'aucune route : chaque adresse répond 404',
        'ajoutez des routes à registerRoutes (« fw make:crud <Entité> » en écrit)',
      ),
    ];
  }
  const parts = [`${count} route(s)`, ...(modules.length > 0 ? [`et celles de ${modules.join(', ')}`] : [])];
  return [at(D.declared, 'OK', { file: ROUTES_FILE }, parts.join(' '))];
});

/** FW-ROUTE-005: each method and path as the router accepts them (`Router.add` refuses the others at start-up). */
export const routePathsCheck: CheckFunction = withRoutes(D.paths, (found) => {
  const out: CheckResult[] = [];
  for (const declared of found.routes) {
    if (!METHODS.has(declared.method.toUpperCase())) {
      out.push(at(D.paths, 'FAIL', declared, `méthode HTTP inconnue « ${declared.method} » pour ${declared.path}`, `utilisez ${[...METHODS].join(', ')}`));
      continue;
    }
    try {
      parseRoutePattern(declared.path);
    } catch (error) {
      const message = (error as Error).message.replace(/\.$/, '');
      out.push(at(D.paths, 'FAIL', declared, `${message.charAt(0).toLowerCase()}${message.slice(1)} : le serveur refuse de démarrer`, 'corrigez le chemin'));
    }
  }
  return out.length > 0 ? out : [result(D.paths, 'OK', `${found.routes.length} chemin(s) valides`)];
});

/** `GET /contacts/{}`: the router tells `{id}` and `{contact_id}` apart by place only (as the codemods key routes). */
function routeKey(declared: DeclaredRoute): string {
  return `${declared.method.toUpperCase()} ${declared.path.replace(/\{[^}]*\}/g, '{}')}`;
}

function where(declared: Place): string {
  return `${declared.file} ligne ${declared.line}`;
}

/** FW-ROUTE-006: two routes with the same method and path: the first answers, the second never does. */
export const routeDuplicatesCheck: CheckFunction = withRoutes(D.duplicates, (found) => {
  const first = new Map<string, DeclaredRoute>();
  const out: CheckResult[] = [];
  for (const declared of found.routes) {
    const key = routeKey(declared);
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, declared);
      continue;
    }
    out.push(
      at(
        D.duplicates,
        'FAIL',
        declared,
        `${declared.method.toUpperCase()} ${declared.path} déjà déclarée (${where(earlier)}) : cette route ne répond jamais`,
        'supprimez-la ou changez son chemin',
      ),
    );
  }
  return out.length > 0 ? out : [result(D.duplicates, 'OK', 'aucune route en double')];
});

/** FW-ROUTE-007: two routes with the same name (`Router.add` refuses the second at start-up). */
export const routeNamesCheck: CheckFunction = withRoutes(D.names, (found) => {
  const first = new Map<string, DeclaredRoute>();
  const out: CheckResult[] = [];
  for (const declared of found.routes) {
    if (!declared.name) continue;
    const earlier = first.get(declared.name);
    if (!earlier) {
      first.set(declared.name, declared);
      continue;
    }
    out.push(
      at(
        D.names,
        'FAIL',
        declared,
        `le nom « ${declared.name} » est déjà celui d'une route (${where(earlier)}) : le serveur refuse de démarrer`,
        'donnez-lui un autre nom',
      ),
    );
  }
  return out.length > 0 ? out : [result(D.names, 'OK', `${first.size} nom(s) distinct(s)`)];
});

/** FW-ROUTE-008: each `Controller.method` handler exists as a static method of the controller the file imports. */
export const routeHandlersCheck: CheckFunction = withRoutes(D.handlers, async (found, context) => {
  const resolver = new HandlerResolver(await typescript(), context.root);
  const out: CheckResult[] = [];
  const reportedFiles = new Set<string>();
  let checked = 0;
  for (const declared of found.routes) {
    if (!declared.handler) continue;
    checked++;
    const problem = resolver.check(declared);
    if (!problem) continue;
    if (problem.kind === 'handler') {
      out.push(at(D.handlers, 'FAIL', declared, problem.reason, problem.hint));
      continue;
    }
    const file = problem.problem;
    if (file.kind === 'missing') {
      out.push(at(D.handlers, 'FAIL', declared, file.reason, 'corrigez le chemin importé'));
      continue;
    }
    if (reportedFiles.has(file.file)) continue;
    reportedFiles.add(file.file);
    out.push(
      file.kind === 'syntax'
        ? at(D.handlers, 'FAIL', file.error, syntaxDetail(file), 'corrigez la syntaxe du contrôleur')
        : at(D.handlers, 'FAIL', { file: file.file }, file.reason, 'remplacez-le par un fichier TypeScript lisible'),
    );
  }
  return out.length > 0 ? out : [result(D.handlers, 'OK', `${checked} méthode(s) de contrôleur trouvée(s)`)];
});

/** FW-ROUTE-009: the route calls that cannot be read without running the file (a computed path, spread arguments). */
export const routeUnverifiableCheck: CheckFunction = withRoutes(D.unverifiable, (found) => {
  if (found.unverifiable.length === 0) return [result(D.unverifiable, 'OK', 'toutes les routes se lisent sans exécuter le fichier')];
  return found.unverifiable.map((call) => at(D.unverifiable, 'INFO', call, `non vérifiable : ${call.reason}`));
});

/** FW-ROUTE-010: statements that run when the file is imported (the server imports it; so does `fw routes:list`). */
export const routeSideEffectsCheck: CheckFunction = withRoutes(D.sideEffects, (found) => {
  if (found.sideEffects.length === 0) return [result(D.sideEffects, 'OK', 'seulement des imports et des déclarations')];
  return found.sideEffects.map((statement) =>
    at(D.sideEffects, 'WARN', statement, `instruction exécutée à l'import du fichier : ${statement.reason}`, 'déplacez-la dans registerRoutes ou dans app.ts'),
  );
});

/** The route checks in report order. */
export const ROUTE_CHECKS: readonly CheckFunction[] = [
  routesFileCheck,
  routesSyntaxCheck,
  routesExportedCheck,
  routesDeclaredCheck,
  routePathsCheck,
  routeDuplicatesCheck,
  routeNamesCheck,
  routeHandlersCheck,
  routeUnverifiableCheck,
  routeSideEffectsCheck,
];
