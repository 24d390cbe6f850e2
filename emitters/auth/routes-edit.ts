/**
 * The runtime modules whose routes `mvc/routes.ts` wires by a call (docs/auth.md): `registerAuthRoutes` and
 * `registerPasswordResetRoutes` from `fw-mvc/auth` (`fw auth:init`, `--password-reset`) and `registerMfaRoutes` from `fw-mvc/mfa` (the `mfa` starter). The edit itself is
 * emitters/codemods/module-routes.ts. Pure functions: text in, text out.
 */
import type { MenuToAdd } from '../codemods/routes-lines.js';
import { addModuleRoutes, moduleImportLine, registeredModules as registered, type ModuleRoutesEdit, type ModuleRoutesSpec } from '../codemods/module-routes.js';

export const AUTH_ROUTES: ModuleRoutesSpec = {
  module: 'fw-mvc/auth',
  function: 'registerAuthRoutes',
  routeKeys: ['GET /login', 'POST /login', 'POST /logout'],
  comment: 'Authentification : GET /login, POST /login, POST /logout (fw auth:init)',
  label: "les routes d'authentification",
};

export const PASSWORD_RESET_ROUTES: ModuleRoutesSpec = {
  module: 'fw-mvc/auth',
  function: 'registerPasswordResetRoutes',
  routeKeys: ['GET /password/forgot', 'POST /password/forgot', 'GET /password/reset/{token}', 'POST /password/reset/{token}'],
  comment: 'Mot de passe oublié : /password/forgot et /password/reset/{token} (fw auth:init --password-reset)',
  label: 'les routes de réinitialisation du mot de passe',
};

export const MFA_ROUTES: ModuleRoutesSpec = {
  module: 'fw-mvc/mfa',
  function: 'registerMfaRoutes',
  routeKeys: [
    'GET /login/mfa',
    'POST /login/mfa',
    'GET /account/mfa',
    'POST /account/mfa/setup',
    'POST /account/mfa/confirm',
    'POST /account/mfa/recovery-codes',
    'POST /account/mfa/disable',
  ],
  comment: 'Second facteur : GET et POST /login/mfa, pages /account/mfa (fw starter:build mfa)',
  label: 'les routes du second facteur',
};

/** The page of `registerMfaRoutes` the menu lists (docs/mfa.md): the enrolment and the recovery codes. */
export const MFA_MENU: readonly MenuToAdd[] = [{ path: '/account/mfa', label: 'Second facteur' }];

export const AUTH_MODULE = AUTH_ROUTES.module;
export const AUTH_ROUTES_FUNCTION = AUTH_ROUTES.function;
export const AUTH_IMPORT_LINE = moduleImportLine(AUTH_ROUTES);
/** The routes `registerAuthRoutes` declares, as `METHOD /path`. */
export const AUTH_ROUTE_KEYS: readonly string[] = AUTH_ROUTES.routeKeys;

export type AuthRoutesEdit = ModuleRoutesEdit;

/** The modules whose routes `text` registers: their function imported from the module and called (none when it does not parse). */
export function registeredModules(text: string): ModuleRoutesSpec[] {
  return registered(text, [AUTH_ROUTES, PASSWORD_RESET_ROUTES, MFA_ROUTES]);
}

/** `fw auth:init`'s edit: `registerAuthRoutes(router)` from `fw-mvc/auth`. */
export function addAuthRoutes(text: string, file: string): AuthRoutesEdit {
  return addModuleRoutes(text, file, AUTH_ROUTES);
}

/** `fw auth:init --password-reset`'s edit: `registerPasswordResetRoutes(router)` from `fw-mvc/auth`. */
export function addPasswordResetRoutes(text: string, file: string): ModuleRoutesEdit {
  return addModuleRoutes(text, file, PASSWORD_RESET_ROUTES);
}

/** The `mfa` starter's edit: `registerMfaRoutes(router)` from `fw-mvc/mfa`. */
export function addMfaRoutes(text: string, file: string): ModuleRoutesEdit {
  return addModuleRoutes(text, file, MFA_ROUTES);
}
