/**
 * Family `struct` (FW-STRUCT-001 to FW-STRUCT-008): the MVC structure (`mvc/`, `mvc/controllers/`, `mvc/views/`,
 * `mvc/routes.ts`), the entry point `app.ts`, a walk of `mvc/` that reports symbolic link loops and unreadable
 * folders, the diagnostics' own configuration `fw.config.json` (its FAIL is produced by the runner,
 * cli/checks/registry.ts, which reads the file), and the symbolic links that lead out of the project, which no check
 * reads (cli/checks/files.ts). Read-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { absolute, entryKind, outsideProject, walkFiles } from './files.js';

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
  outside: struct(8, 'Liens symboliques hors du projet'),
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

/** Folders whose links out are the deployment's business, never read by a check (the database file is copied, not read as text). */
const NOT_READ = new Set(['node_modules', '.git', 'dist', 'storage']);
/** Beyond it the walk stops (a project's own files are far fewer; node_modules is left out). */
const MAX_ENTRIES = 50_000;

/** Every symbolic link under the project (links not followed) whose real target lies outside it, sorted. */
export function linksOutOfProject(root: string): string[] {
  const found: string[] = [];
  let entries = 0;
  const walk = (dir: string): void => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir ? absolute(root, dir) : root, { withFileTypes: true });
    } catch {
      return; // An unreadable folder: FW-STRUCT-006 (under mvc/) or the check that needs it says so.
    }
    for (const entry of names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (++entries > MAX_ENTRIES) return;
      const child = dir ? `${dir}/${entry.name}` : entry.name;
      if (!dir && NOT_READ.has(entry.name)) continue;
      if (entry.isSymbolicLink()) {
        if (outsideProject(root, child)) found.push(child);
      } else if (entry.isDirectory() && entry.name !== 'node_modules') walk(child);
    }
  };
  walk('');
  return found;
}

/**
 * FW-STRUCT-008: a symbolic link whose target lies outside the project (a template, an entity, `fw_modules.json`,
 * an env file pointing elsewhere). The checks never read it, so that nothing of the target reaches the report.
 */
export const outsideLinksCheck: CheckFunction = async ({ root }) => {
  const found = linksOutOfProject(root);
  if (found.length === 0) return [result(D.outside, 'OK', 'aucun lien ne sort du projet')];
  return found.map((file) => ({
    ...result(
      D.outside,
      'WARN',
      `${file} : lien symbolique qui mène hors du projet (${path.posix.basename(file)} n'est pas lu par les diagnostics)`,
      'remplacez le lien par le fichier ou le dossier lui-même, dans le projet',
    ),
    file,
  }));
};

export const STRUCT_CHECKS: readonly CheckFunction[] = [structureCheck, treeCheck, outsideLinksCheck];
