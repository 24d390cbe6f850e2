/**
 * `fw sync:relations`: regenerates `mvc/entities/relations.sql` (and its SQLite twin), and the regenerable files of the
 * CRUD pages that exist (a relation brings a select, a label column or a many-to-many field).
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { existingCrudFiles, generate, generateOptions, readGenerateOptions } from '../../generate.js';
import { compileOrFail, projectRoot } from '../../project.js';

export function configure(command: Command): void {
  generateOptions(command);
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const model = await compileOrFail(root);
  const { relationFiles } = await import('../../../emitters/index.js');
  const crudFiles = await existingCrudFiles(root, model, model.entities.map((e) => e.name));
  return generate(root, [...relationFiles(model), ...crudFiles], readGenerateOptions(options), 'fw sync:relations');
}
