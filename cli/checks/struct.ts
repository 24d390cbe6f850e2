/**
 * Family `struct` (FW-STRUCT-001 to FW-STRUCT-007): the MVC structure (`mvc/`, `mvc/controllers/`, `mvc/views/`,
 * `mvc/routes.ts`), the entry point `app.ts`, a walk of `mvc/` that reports symbolic link loops and unreadable
 * folders, and the diagnostics' own configuration `fw.config.json` (its FAIL is produced by the runner,
 * cli/checks/registry.ts, which reads the file). Read-only.
 */
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { entryKind, walkFiles } from './files.js';

function struct(id: number, label: string): CheckDefinition {
  return { id: `FW-STRUCT-${String(id).padStart(3, '0')}`, family: 'struct', label };
}

const D = {
  mvc: struct(1, 'Dossier mvc/'),
  controllers: struct(2, 'Dossier mvc/controllers/'),
  views: struct(3, 'Dossier mvc/views/'),
  routes: struct(4, 'Fichier mvc/routes.ts'),
  entry: struct(5, "Point d'entrée app.ts"),
  tree: struct(6, 'Arborescence de mvc/'),
  config: struct(7, 'Configuration des diagnostics (fw.config.json)'),
} as const;

export const STRUCT_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);
/** The definition of the `fw.config.json` result, which the runner produces. */
export const CONFIG_DEFINITION = D.config;

function expect(definition: CheckDefinition, root: string, relative: string, want: 'file' | 'dir', hint: string): CheckResult {
  const kind = entryKind(root, relative);
  if (kind === want) return result(definition, 'OK', want === 'dir' ? `${relative}/ présent` : `${relative} présent`);
  const found =
    kind === 'absent'
      ? 'absent'
      : typeof kind === 'object'
        ? kind.reason
        : want === 'dir'
          ? "c'est un fichier, pas un dossier"
          : "c'est un dossier, pas un fichier";
  return { ...result(definition, 'FAIL', `${relative}${want === 'dir' ? '/' : ''} : ${found}`, hint), file: relative };
}

/** FW-STRUCT-001 to 005: the folders and files every project has. */
export const structureCheck: CheckFunction = async ({ root }) => [
  expect(D.mvc, root, 'mvc', 'dir', 'lancez la commande à la racine du projet, ou recréez mvc/ (« fw new » le crée)'),
  expect(D.controllers, root, 'mvc/controllers', 'dir', 'créez mvc/controllers/'),
  expect(D.views, root, 'mvc/views', 'dir', 'créez mvc/views/ (les gabarits .html)'),
  expect(D.routes, root, 'mvc/routes.ts', 'file', 'créez mvc/routes.ts qui exporte registerRoutes(router)'),
  expect(D.entry, root, 'app.ts', 'file', "recréez app.ts (le point d'entrée que « fw new » écrit)"),
];

/** FW-STRUCT-006: every folder of `mvc/` can be walked: no symbolic link loop, no dangling link, no unreadable folder. */
export const treeCheck: CheckFunction = async ({ root }) => {
  const walked = walkFiles(root, 'mvc');
  if (walked.problems.length === 0) return [result(D.tree, 'OK', `${walked.files.length} fichier(s) sous mvc/`)];
  return walked.problems.map((found) => ({
    ...result(D.tree, 'FAIL', `${found.file} : ${found.reason}`, 'supprimez ou corrigez ce lien ou ce dossier'),
    file: found.file,
  }));
};

export const STRUCT_CHECKS: readonly CheckFunction[] = [structureCheck, treeCheck];
