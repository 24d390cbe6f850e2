/**
 * `fw module:install <name> [--path modules] [--dry-run]` (docs/decisions.md#local-modules; docs/modules.md): checks the module's
 * manifest and files, then records it in `fw_modules.json` (name, version, folder) through the one writer, the
 * other entries kept. Copying its files and writing its routes are `fw module:files` and `fw module:routes`.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command
    .argument('<nom>', 'nom du module (son dossier dans modules/)')
    .option('--path <dossier>', 'dossier des modules, relatif à la racine du projet', 'modules')
    .option('--dry-run', 'affiche ce qui changerait sans rien écrire');
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const { absolutePath, checkModuleName, folderInProject, readModule } = await import('../../modules/manifest.js');
  const { moduleFiles } = await import('../../modules/source.js');
  const { findEntry, isLocalEntry, readRegistry, registryWith, REGISTRY_FILE } = await import('../../modules/registry.js');
  const name = checkModuleName(String(args[0]));
  const dryRun = options.dryRun === true;
  const root = projectRoot();
  const dir = `${folderInProject(root, String(options.path), '--path')}/${name}`;
  if (!fs.existsSync(absolutePath(root, dir))) {
    throw new CliError(
      `module « ${name} » introuvable : le dossier ${dir}/ n'existe pas ; rien n'a été écrit.`,
      `« fw module:list${options.path === 'modules' ? '' : ` --path ${String(options.path)}`} » montre les modules disponibles ; un module est un dossier avec un manifeste module.json (docs/modules.md).`,
    );
  }
  const module = readModule(root, dir);
  moduleFiles(module);
  const registry = readRegistry(root);
  const previous = findEntry(registry, name);
  if (previous && !isLocalEntry(previous)) {
    throw new CliError(
      `« ${name} » est déjà enregistré dans ${REGISTRY_FILE} comme module du framework : un module local ne peut pas prendre ce nom ; rien n'a été écrit.`,
      `renommez le module (son dossier et le « name » de son manifeste), puis relancez « fw module:install <nouveau nom> ».`,
    );
  }
  const { applyPlan, formatPlan, planWrites } = await import('../../writer.js');
  const plan = planWrites(root, [{ path: REGISTRY_FILE, content: registryWith(registry, module), kind: 'canonical' }]);
  const { manifest } = module;
  const out = process.stdout;
  if (!dryRun) applyPlan(plan);
  out.write(`Module « ${name} » ${manifest.version} (${manifest.label}) : ${manifest.description}\n`);
  out.write(formatPlan(plan, { dryRun }));
  if (previous && previous.version !== manifest.version) out.write(`Version enregistrée : ${String(previous.version)} → ${manifest.version}.\n`);
  const steps = [
    ...(manifest.provides.some((kind) => kind !== 'routes') ? [`fw module:files ${name}     # copie ses fichiers dans le projet`] : []),
    ...(manifest.provides.includes('routes') ? [`fw module:routes ${name}    # écrit mvc/routes_${name}.ts`] : []),
  ];
  if (!dryRun && steps.length > 0) out.write(`\nEnsuite :\n${steps.map((step) => `  ${step}\n`).join('')}`);
  return 0;
}
