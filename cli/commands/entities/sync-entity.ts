/**
 * `fw sync:entity <Entity>`: regenerates the entity's base class and SQL (and creates its manual files once), and the
 * regenerable files of its CRUD pages and of its related entities' pages when they exist. A related entity whose own
 * file changed since its last sync makes it refuse, writing nothing (docs/entities.md "A related entity changed too").
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { existingCrud, generate, generateOptions, readGenerateOptions, refuseHalfSync } from '../../generate.js';
import { compileOrFail, entityOrFail, projectRoot } from '../../current-project.js';
import { legacyRoleMaps } from '../../role-maps.js';

export function configure(command: Command): void {
  generateOptions(command.argument('<Entité>', "nom de l'entité (PascalCase)"));
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const name = String(args[0]);
  const root = projectRoot();
  const model = await compileOrFail(root);
  const entity = await entityOrFail(model, name, 'sync:entity');
  const { entityFiles } = await import('../../../emitters/index.js');
  // The pages of the entities related to it show its label and list its records as choices: theirs follow too.
  const related = model.relations.filter((r) => r.fromEntity === entity.name || r.toEntity === entity.name).flatMap((r) => [r.fromEntity, r.toEntity]);
  const crud = await existingCrud(root, model, [entity.name, ...related]);
  const files = [...entityFiles(model, entity), ...crud.flatMap((c) => c.files)];
  const command = `fw sync:entity ${entity.name}`;
  await refuseHalfSync(
    root,
    model,
    files,
    crud.filter((c) => c.entity.name !== entity.name),
    command,
  );
  const legacy = legacyRoleMaps(
    root,
    crud.map((c) => c.entity),
  );
  return generate(root, files, readGenerateOptions(options), command, legacy);
}
