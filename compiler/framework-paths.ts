/**
 * The first path segments the framework answers itself, which no route plural or public page may take
 * (docs/entities.md "Limits and reserved names"): the Application serves `/static/…` and `/media/…` before routing
 * and treats `/api/…` as its API; the auth and mfa modules and the starters register `/login`, `/logout`,
 * `/account/…`, `/password/…`, `/dashboard`, `/profile`. A CRUD under one of them would never be reached, or be
 * answered by the module's handler. `fw make:public-page` refuses the Application's own (APPLICATION_PATHS).
 */

/** Segment → who answers it (a French phrase). */
export const FRAMEWORK_PATHS: Readonly<Record<string, string>> = {
  static: "l'application sert /static/… (fichiers statiques) avant les routes",
  media: "l'application sert /media/… (fichiers envoyés) avant les routes",
  api: "l'application traite /api/… comme son API (réponses JSON)",
  login: 'le module auth répond à /login (et /login/mfa)',
  logout: 'le module auth répond à /logout',
  account: 'les modules auth et mfa répondent à /account/…',
  password: 'le module auth répond à /password/forgot et /password/reset/…',
  dashboard: 'les starters auth et mfa créent /dashboard',
  profile: 'les starters auth et mfa créent /profile',
};

/** The segments the Application answers before any route, whatever the project registers. */
export const APPLICATION_PATHS: readonly string[] = ['static', 'media', 'api'];

/**
 * Who answers `/<segment>` instead of the routes (a French phrase), or undefined when a route may take it. With
 * `applicationOnly`, only the Application's own paths: `fw make:public-page` checks the modules' routes against
 * the project's `mvc/routes.ts` (cli/public/generate.ts), where a page named `login` is refused once the auth
 * routes are registered; a CRUD is refused under every segment, since the module may be added later.
 */
export function frameworkPathOwner(segment: string, applicationOnly = false): string | undefined {
  const key = segment.toLowerCase();
  if (applicationOnly && !APPLICATION_PATHS.includes(key)) return undefined;
  return Object.hasOwn(FRAMEWORK_PATHS, key) ? FRAMEWORK_PATHS[key] : undefined;
}
