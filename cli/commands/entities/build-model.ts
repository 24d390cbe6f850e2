/**
 * `fw build:model [--dry-run] [--check]`: regenerates every entity's files and the relations, and the regenerable
 * files of the CRUD pages that exist. `--check` writes nothing and exits 2 when one of them is stale.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { checkOption, existingCrud, generate, generateOptions, readGenerateOptions } from '../../generate.js';
import { compileOrFail, projectRoot } from '../../project.js';
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
  return generate(root, [...modelFiles(model), ...crud.flatMap((c) => c.files)], readGenerateOptions(options), 'fw build:model', legacy);
}
