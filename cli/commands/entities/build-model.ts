/**
 * `fw build:model [--dry-run] [--check]`: regenerates every entity's files and the relations, and the regenerable
 * files of the CRUD pages that exist. `--check` writes nothing and exits 2 when one of them is stale, or when a
 * removed entity left files or routes behind (docs/entities.md "Removing an entity"); otherwise the regenerable
 * files of a removed entity are deleted and its manual files and routes reported.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { checkOption, existingCrud, generate, generateOptions, readGenerateOptions, reportStale, staleFiles } from '../../generate.js';
import { compileOrFail, projectRoot } from '../../current-project.js';
import { describeRemoved, removedEntities, type RemovedEntity } from '../../entities/removed-entities.js';
import { legacyRoleMaps } from '../../role-maps.js';

export function configure(command: Command): void {
  checkOption(generateOptions(command));
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const model = await compileOrFail(root);
  const { modelFiles } = await import('../../../emitters/index.js');
  const crud = await existingCrud(
    root,
    model,
    model.entities.map((e) => e.name),
  );
  const legacy = legacyRoleMaps(
    root,
    crud.map((c) => c.entity),
  );
  const generateWith = readGenerateOptions(options);
  const removed = removedEntities(
    root,
    model.entities.map((e) => e.name),
  );
  const files = [...modelFiles(model), ...crud.flatMap((c) => c.files)];
  const left = removed.filter((r) => describeRemoved(r, true).length > 0);
  if (generateWith.check && left.length > 0) {
    // Not « à jour » while a removed entity left files behind: the stale files, if any, then what is left.
    const { planWrites } = await import('../../writer.js');
    const plan = planWrites(root, files, { force: generateWith.force });
    if (staleFiles(plan).length > 0 || legacy.some((m) => m.differs)) reportStale(plan, 'fw build:model', legacy);
  }
  const code = generateWith.check && left.length > 0 ? 2 : await generate(root, files, generateWith, 'fw build:model', legacy);
  if (generateWith.check) {
    for (const entity of left) {
      process.stdout.write(
        `Entité supprimée « ${entity.name} » : ces fichiers et ces routes la référencent encore :\n${describeRemoved(entity, true).join('\n')}\n`,
      );
    }
    if (left.length > 0)
      process.stdout.write('« fw build:model » supprime ses fichiers générés ; les fichiers manuels et les routes sont à retirer par vous.\n');
    return left.length > 0 ? 2 : code;
  }
  for (const entity of removed) removeRegenerable(root, entity, generateWith.dryRun);
  for (const entity of removed) reportLeftovers(entity);
  return code;
}

/** Deletes (or, in a dry run, lists) the regenerable files of a removed entity, then the folders they leave empty. */
function removeRegenerable(root: string, entity: RemovedEntity, dryRun: boolean): void {
  for (const file of entity.regenerable) {
    process.stdout.write(`  ${dryRun ? 'à supprimer' : 'supprimé'}   ${file} (entité « ${entity.name} » supprimée)\n`);
    if (dryRun) continue;
    fs.rmSync(path.join(root, file), { force: true });
    let dir = path.dirname(path.join(root, file));
    while (dir.startsWith(path.join(root, 'mvc') + path.sep) && fs.existsSync(dir) && fs.readdirSync(dir).length === 0) {
      fs.rmdirSync(dir);
      dir = path.dirname(dir);
    }
  }
}

function reportLeftovers(entity: RemovedEntity): void {
  const lines = describeRemoved(entity, false);
  if (lines.length === 0) return;
  process.stderr.write(
    `Attention : l'entité « ${entity.name} » n'existe plus, mais ces fichiers et ces routes la référencent encore (le projet ne compile pas tant qu'ils sont là) :\n${lines.join('\n')}\n` +
      `Conseil : supprimez-les (ou recréez l'entité), puis « fw migration:diff --all » nomme sa table, à supprimer par une migration.\n`,
  );
}
