/**
 * Family `audit` (FW-AUDIT-001 to FW-AUDIT-004), run by `project:audit` only: a README, a tests folder holding
 * test files, the local modules found under `modules/` that `fw_modules.json` does not record, and an inventory of
 * the project (INFO). Read-only.
 */
import fs from 'node:fs';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { absolute, entryKind, walkFiles } from './files.js';
import { registryModules } from './mod.js';

function audit(id: number, label: string): CheckDefinition {
  return { id: `FW-AUDIT-${String(id).padStart(3, '0')}`, family: 'audit', label };
}

const D = {
  readme: audit(1, 'README'),
  tests: audit(2, 'Tests'),
  undeclared: audit(3, 'Modules non déclarés'),
  inventory: audit(4, 'Inventaire'),
} as const;

export const AUDIT_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;
const TEST_FOLDERS = ['test', 'tests', '__tests__'];

/** FW-AUDIT-001: a README at the root. */
export const readmeCheck: CheckFunction = async ({ root }) => {
  const names = ['README.md', 'README', 'README.txt', 'readme.md'];
  const found = names.find((name) => entryKind(root, name) === 'file');
  return [
    found ? result(D.readme, 'OK', found) : result(D.readme, 'WARN', 'aucun README à la racine', 'écrivez un README.md (installation, lancement, déploiement)'),
  ];
};

/** FW-AUDIT-002: a tests folder (`test/`, `tests/`) holding at least one `*.test.*` or `*.spec.*` file. */
export const testsCheck: CheckFunction = async ({ root }) => {
  const folders = TEST_FOLDERS.filter((name) => entryKind(root, name) === 'dir');
  if (folders.length === 0) return [result(D.tests, 'WARN', 'aucun dossier test/ ni tests/', 'ajoutez des tests (fichiers *.test.ts) dans test/')];
  const files = folders.flatMap((folder) => walkFiles(root, folder, new Set(['node_modules'])).files.filter((file) => TEST_FILE.test(file)));
  if (files.length === 0) return [result(D.tests, 'WARN', `${folders.join(', ')} sans fichier *.test.* ni *.spec.*`, 'ajoutez des tests (fichiers *.test.ts)')];
  return [result(D.tests, 'OK', `${files.length} fichier(s) de test dans ${folders.join(', ')}`)];
};

/** FW-AUDIT-003: every `modules/<name>/module.json` is recorded in fw_modules.json (WARN for the others). */
export const undeclaredCheck: CheckFunction = async ({ root }) => {
  if (entryKind(root, 'modules') !== 'dir') return [result(D.undeclared, 'OK', 'aucun dossier modules/')];
  const registry = await registryModules(root);
  if ('id' in registry) return [result(D.undeclared, 'SKIP', 'fw_modules.json illisible')];
  let names: string[];
  try {
    names = fs.readdirSync(absolute(root, 'modules')).sort();
  } catch {
    names = [];
  }
  const recorded = new Set([...registry.names, ...registry.local.map((entry) => entry.path.replace(/\/+$/, '').split('/').pop() ?? '')]);
  const undeclared = names.filter((name) => entryKind(root, `modules/${name}/module.json`) === 'file' && !recorded.has(name));
  if (undeclared.length === 0) return [result(D.undeclared, 'OK', 'tous les modules de modules/ sont enregistrés')];
  return undeclared.map((name): CheckResult => ({
    ...result(
      D.undeclared,
      'WARN',
      `modules/${name} n'est pas enregistré dans fw_modules.json`,
      `« fw module:install ${name} » l'enregistre, ou retirez le dossier`,
    ),
    file: `modules/${name}/module.json`,
  }));
};

/** FW-AUDIT-004: what the project holds (INFO). */
export const inventoryCheck: CheckFunction = async ({ root }) => {
  const count = (folder: string, pattern: RegExp): number => walkFiles(root, folder).files.filter((file) => pattern.test(file)).length;
  // An entity is `mvc/entities/<entite>/<entite>.json`; `mvc/entities/relations.json` is not one.
  const entities = count('mvc/entities', /^mvc\/entities\/[^/]+\/[^/]+\.json$/);
  const controllers = count('mvc/controllers', /\.ts$/);
  const views = count('mvc/views', /\.html$/);
  const migrations = count('mvc/migrations', /\.sql$/);
  return [result(D.inventory, 'INFO', `${entities} entité(s), ${controllers} contrôleur(s), ${views} gabarit(s), ${migrations} migration(s)`)];
};

export const AUDIT_CHECKS: readonly CheckFunction[] = [readmeCheck, testsCheck, undeclaredCheck, inventoryCheck];
