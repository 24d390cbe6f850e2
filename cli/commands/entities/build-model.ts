/**
 * `fw build:model [--dry-run] [--check]`: regenerates every entity's files and the relations, and the regenerable
 * files of the CRUD pages that exist. `--check` writes nothing and exits 2 when one of them is stale.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { checkOption, existingCrudFiles, generate, generateOptions, readGenerateOptions } from '../../generate.js';
import { compileOrFail, projectRoot } from '../../project.js';

export function configure(command: Command): void {
  checkOption(generateOptions(command));
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const model = await compileOrFail(root);
  const { modelFiles } = await import('../../../emitters/index.js');
  const crudFiles = await existingCrudFiles(root, model, model.entities.map((e) => e.name));
  return generate(root, [...modelFiles(model), ...crudFiles], readGenerateOptions(options), 'fw build:model');
}
