/**
 * `fw module:files <name> [--dry-run]` (docs/decisions.md#local-modules; docs/modules.md): copies the files an installed module
 * declares into the project, byte for byte and through the one writer: views to `mvc/views/<name>/`, controllers and
 * entities to `mvc/controllers/` and `mvc/entities/`, static files to `static/modules/<name>/`, migrations to
 * `mvc/migrations/`, docs to `docs/modules/<name>/`. A project file that exists with another content is a conflict:
 * the whole copy is refused and nothing is written. A symbolic link in the module is refused too.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import type { CopiedFile } from '../../../emitters/planned-file.js';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';
import type { WritePlan } from '../../writer.js';

export function configure(command: Command): void {
  command.argument('<nom>', 'nom du module installé').option('--dry-run', 'affiche le sort de chaque fichier sans rien écrire');
}

const CONFLICT = 'existe avec un autre contenu : conflit';
const SHOWN_CONFLICTS = 6;

export async function run({ args, options }: CommandInput): Promise<number> {
  const { absolutePath, checkModuleName, folderInProject, readModule } = await import('../../modules/manifest.js');
  const { moduleFiles } = await import('../../modules/source.js');
  const { installedEntry, readRegistry } = await import('../../modules/registry.js');
  const { applyPlan, formatPlan, planWrites } = await import('../../writer.js');
  const name = checkModuleName(String(args[0]));
  const dryRun = options.dryRun === true;
  const root = projectRoot();
  const entry = installedEntry(readRegistry(root), name, 'module:files');
  const module = readModule(root, folderInProject(root, entry.path, `le dossier enregistré pour « ${name} »`));
  const files = moduleFiles(module);
  const copies: CopiedFile[] = files.map((file) => ({
    path: file.destination,
    content: fs.readFileSync(absolutePath(module.absoluteDir, file.source)),
    kind: 'manual',
  }));
  const written = planWrites(root, copies);
  // The writer calls a differing manual file "skipped"; here it is a conflict, and it stops the copy.
  const plan: WritePlan = { root: written.root, entries: written.entries.map((e) => (e.fate === 'skipped' ? { ...e, reason: CONFLICT } : e)) };
  const conflicts = plan.entries.filter((e) => e.fate === 'skipped').map((e) => e.path);
  const writes = plan.entries.filter((e) => e.fate === 'created').length;
  const out = process.stdout;
  if (entry.version !== module.manifest.version) {
    out.write(
      `Attention : ${module.dir} est en version ${module.manifest.version}, fw_modules.json enregistre ${String(entry.version)} : « fw module:install ${name} » met l'enregistrement à jour.\n`,
    );
  }

  if (dryRun || conflicts.length > 0 || writes === 0) {
    out.write(`Fichiers du module « ${name} » ${module.manifest.version} :\n`);
    out.write(formatPlan(plan, { dryRun }));
  }
  if (conflicts.length > 0) {
    const shown =
      conflicts.slice(0, SHOWN_CONFLICTS).join(', ') + (conflicts.length > SHOWN_CONFLICTS ? ` et ${conflicts.length - SHOWN_CONFLICTS} autre(s)` : '');
    throw new CliError(
      `${conflicts.length} fichier(s) du projet existent avec un autre contenu que celui du module « ${name} » : ${shown} ; rien n'a été écrit.`,
      `comparez-les avec ${module.dir}/ ; pour prendre la version du module, renommez ou supprimez votre fichier, puis relancez « fw module:files ${name} ».`,
    );
  }
  if (dryRun) return 0;
  if (writes === 0) {
    out.write(`Rien à faire : les fichiers du module « ${name} » sont déjà en place.\n`);
    return 0;
  }
  applyPlan(plan);
  out.write(`Fichiers du module « ${name} » ${module.manifest.version} copiés :\n`);
  out.write(formatPlan(plan, { dryRun: false }));
  out.write(
    nextSteps(
      name,
      module.manifest.provides,
      files.map((f) => f.kind),
    ),
  );
  return 0;
}

function nextSteps(name: string, provides: readonly string[], copied: readonly string[]): string {
  const steps = [
    ...(copied.includes('entities') ? ['fw sync:entity <Entité>       # pour chaque entité copiée dans mvc/entities/ : ses fichiers SQL et sa classe'] : []),
    ...(copied.includes('migrations') ? ['fw migration:apply            # applique les migrations copiées dans mvc/migrations/'] : []),
    ...(provides.includes('routes')
      ? [`fw module:routes ${name}${' '.repeat(Math.max(1, 13 - name.length))}# écrit mvc/routes_${name}.ts et affiche les lignes à ajouter`]
      : []),
  ];
  return steps.length === 0 ? '' : `\nEnsuite :\n${steps.map((step) => `  ${step}\n`).join('')}`;
}
