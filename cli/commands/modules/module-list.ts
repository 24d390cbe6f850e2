/**
 * `fw module:list [--path modules]` (docs/decisions.md#local-modules; docs/modules.md): the local modules found in the folder, one
 * row each with its version, whether `fw_modules.json` records it, and its label. Read-only.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--path <dossier>', 'dossier des modules, relatif à la racine du projet', 'modules');
}

export async function run({ options }: CommandInput): Promise<number> {
  const { absolutePath, checkModule, folderInProject, MANIFEST_FILE } = await import('../../modules/manifest.js');
  const { findEntry, isLocalEntry, readRegistry, REGISTRY_FILE } = await import('../../modules/registry.js');
  const { formatTable } = await import('../../auth/format.js');
  const root = projectRoot();
  const dir = folderInProject(root, String(options.path), '--path');
  const registry = readRegistry(root);
  const out = process.stdout;
  const folders = fs.statSync(absolutePath(root, dir), { throwIfNoEntry: false })?.isDirectory()
    ? fs
        .readdirSync(absolutePath(root, dir), { withFileTypes: true })
        .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith('.'))
        .map((entry) => entry.name)
        .sort()
    : null;

  if (folders === null) {
    out.write(`Aucun module local : le dossier ${dir}/ n'existe pas.\n`);
  } else if (folders.length === 0) {
    out.write(`Aucun module local : le dossier ${dir}/ est vide.\n`);
  } else {
    const rows = [['NOM', 'VERSION', 'INSTALLÉ', 'LIBELLÉ']];
    const invalid: string[] = [];
    for (const folder of folders) {
      const check = checkModule(root, `${dir}/${folder}`);
      const entry = findEntry(registry, folder);
      const installed = entry && isLocalEntry(entry) ? `oui (${String(entry.version)})` : 'non';
      if (check.module) {
        rows.push([folder, check.module.manifest.version, installed, check.module.manifest.label]);
      } else {
        rows.push([
          folder,
          '?',
          installed,
          `manifeste invalide : ${check.problems[0]!.file}${check.problems[0]!.pointer === '#' ? '' : check.problems[0]!.pointer} : ${check.problems[0]!.message}`,
        ]);
        invalid.push(folder);
      }
    }
    out.write(`Modules locaux dans ${dir}/ :\n${formatTable(rows)}\n`);
    if (invalid.length > 0) out.write(`« fw module:install ${invalid[0]} » détaille les problèmes d'un manifeste (${dir}/<nom>/${MANIFEST_FILE}).\n`);
  }
  const framework = registry.modules.filter((entry) => !isLocalEntry(entry)).map((entry) => entry.name);
  if (framework.length > 0) out.write(`Modules du framework enregistrés dans ${REGISTRY_FILE} : ${framework.join(', ')}.\n`);
  const elsewhere = registry.modules.filter((entry) => isLocalEntry(entry) && !(folders ?? []).some((folder) => `${dir}/${folder}` === entry.path));
  for (const entry of elsewhere) out.write(`Installé hors de ${dir}/ : ${entry.name} (${String(entry.version)}, dossier ${String(entry.path)}).\n`);
  if (folders === null || folders.length === 0) {
    out.write(`Un module est un dossier ${dir}/<nom>/ avec un manifeste ${MANIFEST_FILE} : docs/modules.md décrit son format.\n`);
  }
  return 0;
}
