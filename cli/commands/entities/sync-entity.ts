/**
 * `fw sync:entity <Entity>`: regenerates the entity's base class and SQL (and creates its manual files once), and the
 * regenerable files of its CRUD pages when they exist.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { existingCrudFiles, generate, generateOptions, readGenerateOptions } from '../../generate.js';
import { compileOrFail, entityOrFail, projectRoot } from '../../project.js';

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
  const crudFiles = await existingCrudFiles(root, model, [entity.name, ...related]);
  return generate(root, [...entityFiles(model, entity), ...crudFiles], readGenerateOptions(options), `fw sync:entity ${entity.name}`);
}
