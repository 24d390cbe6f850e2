/**
 * The home page of a starter build: a card for each menu entry the visitor may open (docs/starters.md "The home
 * page"), described when it is a starter's page that `mvc/routes.ts` declares once every edit is made (so building a
 * second starter keeps the descriptions of the first), and the sign-in state when the login is wired.
 */
import { AUTH_ROUTES, MFA_ROUTES } from '../../emitters/auth/routes-edit.js';
import { addModuleRoutes, type ModuleRoutesSpec } from '../../emitters/codemods/module-routes.js';
import { declaredRoutes, parse } from '../../emitters/codemods/routes-edit.js';
import type { PlannedFile } from '../../emitters/planned-file.js';
import { emitAppLayout, previousAppLayout, type NavLink } from '../../emitters/crud/app-layout.js';
import { emitStarterHome, HOME_VIEW } from '../../emitters/starters/home.js';

/** A starter's page: its path, its menu label (that of earlier layouts) and the line under it on its home card. */
interface HomeLink {
  readonly href: string;
  readonly label: string;
  readonly description: string;
}

/** The starters' pages, by the route that serves them. */
const PAGES: ReadonlyArray<{ key: string; link: HomeLink; starter: string }> = [
  { key: 'GET /contacts', starter: 'contacts', link: { href: '/contacts', label: 'Contacts', description: 'Liste, recherche, fiches, export CSV.' } },
  { key: 'GET /villes', starter: 'carnet', link: { href: '/villes', label: 'Villes', description: 'Les villes des contacts.' } },
  { key: 'GET /dashboard', starter: 'auth', link: { href: '/dashboard', label: 'Tableau de bord', description: 'Votre compte et vos rôles.' } },
  { key: 'GET /profile', starter: 'auth', link: { href: '/profile', label: 'Mon profil', description: 'Adresse, dernière connexion, mot de passe.' } },
  {
    key: 'GET /observations',
    starter: 'suivi',
    link: { href: '/observations', label: 'Observations', description: 'Le comportement des élèves en cours : participation, bavardage, retard…' },
  },
  { key: 'GET /eleves', starter: 'suivi', link: { href: '/eleves', label: 'Élèves', description: 'Les élèves suivis, par classe.' } },
  { key: 'GET /cours', starter: 'suivi', link: { href: '/cours', label: 'Cours', description: 'Les séances de cours, par matière et par classe.' } },
];

/** With the behaviour record, the dashboard is its own (counts, latest observations, flags per pupil). */
const SUIVI_DASHBOARD: HomeLink = { href: '/dashboard', label: 'Tableau de bord', description: 'Compteurs, dernières observations, comportements par élève.' };

const MFA_LINK: HomeLink = {
  href: '/account/mfa',
  label: 'Second facteur',
  description: 'Codes d\u2019une application d\u2019authentification et codes de secours.',
};

/** True when the file imports and calls the module's routes function. */
function wired(routes: string, spec: ModuleRoutesSpec): boolean {
  try {
    return addModuleRoutes(routes, 'mvc/routes.ts', spec).text === routes;
  } catch {
    return false;
  }
}

export function isLoginWired(routes: string): boolean {
  return wired(routes, AUTH_ROUTES);
}

/**
 * The home page file. `existing` is the project's page, `pristine` the one `fw new` writes: while the project still
 * has that one, it is replaced (kind canonical); otherwise the page is regenerable (rewritten while it keeps its
 * marker line, a conflict once the user removed it).
 */
export function homeFile(routes: string, existing: string | null, pristine: string): PlannedFile {
  const declared = declaredRoutes(parse(routes));
  const pages = PAGES.filter((page) => declared.has(page.key));
  const mfa = wired(routes, MFA_ROUTES);
  const suivi = declared.has('GET /observations');
  const links = [...pages.map((page) => (suivi && page.link.href === '/dashboard' ? SUIVI_DASHBOARD : page.link)), ...(mfa ? [MFA_LINK] : [])];
  // The command in the marker line follows the pages, not the starter being built: any build gives the same file.
  const last = mfa ? 'mfa' : (pages[pages.length - 1]?.starter ?? 'contacts');
  const descriptions = links.map(({ href, description }) => ({ href, description }));
  const content = emitStarterHome({ command: `fw starter:build ${last}`, login: isLoginWired(routes), descriptions });
  return { path: HOME_VIEW, content, kind: existing === null || existing === pristine ? 'canonical' : 'regenerable' };
}

/** The menu of the layouts of earlier releases: the starters' pages that `mvc/routes.ts` declares, the dashboard first, the profile last. */
function previousNavLinks(routes: string): NavLink[] {
  const declared = declaredRoutes(parse(routes));
  const links = PAGES.filter((page) => declared.has(page.key)).map((page) => ({ href: page.link.href, label: page.link.label }));
  const at = (href: string) => links.filter((link) => link.href === href);
  return [...at('/dashboard'), ...links.filter((link) => link.href !== '/dashboard' && link.href !== '/profile'), ...at('/profile')];
}

const LAYOUT_PATH = 'mvc/views/layouts/app.html';

/** A template tag that renders the menu: the include of `components/menu.html`, or a loop over `menu()`. */
const RENDERS_MENU = /\{%-?\s*(include\s+["']components\/menu\.html["']|for\s+\w+\s+in\s+menu\(\))/;

/** The line of `layouts/app.html` that renders the menu. */
const MENU_INCLUDE = '{% include "components/menu.html" %}';

/**
 * `layouts/app.html`, whose `nav` block renders the menu of `mvc/routes.ts` (docs/starters.md "The menu"): created
 * when absent; replaced while it is still one an earlier generator wrote (make:crud's empty menu, or a starter's
 * links for the routes before this build); otherwise the user's, left alone, with a note when it does not render
 * the menu.
 */
export function layoutFile(routesBefore: string, existing: string | null): { file?: PlannedFile; note?: string } {
  const content = emitAppLayout();
  if (existing === null) return { file: { path: LAYOUT_PATH, content, kind: 'manual' } };
  if (existing === content) return {};
  if (existing === previousAppLayout() || existing === previousAppLayout(previousNavLinks(routesBefore))) {
    return { file: { path: LAYOUT_PATH, content, kind: 'canonical' } };
  }
  if (RENDERS_MENU.test(existing)) return {};
  return {
    note: `Attention : ${LAYOUT_PATH} est à vous, il n'est pas modifié ; pour qu'il affiche le menu de mvc/routes.ts, mettez dans son bloc nav : ${MENU_INCLUDE}\n`,
  };
}
