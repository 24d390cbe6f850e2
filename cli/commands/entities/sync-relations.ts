/**
 * `fw sync:relations`: regenerates `mvc/entities/relations.sql` (and its SQLite twin), and the regenerable files of the
 * CRUD pages that exist (a relation brings a select, a label column or a many-to-many field). An entity with pages
 * whose file changed since its last sync makes it refuse, writing nothing (docs/entities.md "A related entity changed too").
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { existingCrud, generate, generateOptions, readGenerateOptions, refuseHalfSync } from '../../generate.js';
import { compileOrFail, projectRoot } from '../../current-project.js';
import { legacyRoleMaps } from '../../role-maps.js';

export function configure(command: Command): void {
  generateOptions(command);
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const model = await compileOrFail(root);
  const { relationFiles } = await import('../../../emitters/index.js');
  const crud = await existingCrud(
    root,
    model,
    model.entities.map((e) => e.name),
  );
  const files = [...relationFiles(model), ...crud.flatMap((c) => c.files)];
  // The CRUD pages of every entity are rewritten from its file: not its base class.
  await refuseHalfSync(root, model, files, crud, 'fw sync:relations');
  return generate(
    root,
    files,
    readGenerateOptions(options),
    'fw sync:relations',
    legacyRoleMaps(
      root,
      crud.map((c) => c.entity),
    ),
  );
}
