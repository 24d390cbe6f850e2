/**
 * Family `mfa` (FW-MFA-001, FW-MFA-002): hints that the project uses the second factor (`fw-mvc/mfa` imported,
 * `registerMfaRoutes` in its code, the `auth_mfa_*` SQL files) against the `mfa` module recorded in
 * `fw_modules.json`: hints without the module are a WARN (the starter `mfa` records it; docs/auth.md "Second
 * factor"), the module without its routes is a WARN too. Read-only.
 */
import { result, type CheckDefinition, type CheckFunction } from './check.js';
import { readSource, walkFiles } from './files.js';
import { registryModules } from './mod.js';

function mfa(id: number, label: string): CheckDefinition {
  return { id: `FW-MFA-${String(id).padStart(3, '0')}`, family: 'mfa', label };
}

const D = {
  module: mfa(1, 'Module MFA'),
  routes: mfa(2, 'Routes MFA'),
} as const;

export const MFA_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/** Where the project shows it uses MFA: `file: what`, and whether `registerMfaRoutes` is called. */
function hints(root: string): { found: string[]; routes: boolean } {
  const found: string[] = [];
  let routes = false;
  const code = ['app.ts', ...walkFiles(root, 'mvc').files.filter((file) => file.endsWith('.ts'))];
  for (const file of code) {
    const read = readSource(root, file);
    if (!read.ok) continue;
    if (/['"]fw-mvc\/mfa['"]/.test(read.text)) found.push(`${file} importe fw-mvc/mfa`);
    if (/\bregisterMfaRoutes\s*\(/.test(read.text)) {
      routes = true;
      found.push(`${file} appelle registerMfaRoutes`);
    }
  }
  const sql = walkFiles(root, 'mvc/models/sql').files.filter((file) => /\/auth_mfa_[^/]*\.sql$/.test(file));
  if (sql.length > 0) found.push(`${sql.length} fichier(s) SQL auth_mfa_*`);
  return { found, routes };
}

/** FW-MFA-001 and 002. */
export const mfaCheck: CheckFunction = async ({ root }) => {
  const registry = await registryModules(root);
  const declared = !('id' in registry) && registry.names.includes('mfa');
  const { found, routes } = hints(root);
  if (found.length === 0 && !declared) return [result(D.module, 'OK', 'MFA non utilisé (aucun indice, module absent)')];
  const module = declared
    ? result(D.module, 'OK', 'module mfa enregistré dans fw_modules.json')
    : {
        ...result(
          D.module,
          'WARN',
          `indices MFA sans le module mfa : ${found.join(' ; ')}`,
          '« fw starter:build mfa » installe et enregistre le second facteur',
        ),
        file: 'fw_modules.json',
      };
  const wired = routes
    ? result(D.routes, 'OK', 'registerMfaRoutes appelé')
    : {
        ...result(
          D.routes,
          'WARN',
          "registerMfaRoutes n'est appelé nulle part : les pages /account/mfa ne sont pas servies",
          "« fw starter:build mfa » ajoute l'appel",
        ),
        file: 'mvc/routes.ts',
      };
  return [module, wired];
};

export const MFA_CHECKS: readonly CheckFunction[] = [mfaCheck];
