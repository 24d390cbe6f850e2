/** `fw sync:relations`: regenerates `mvc/entities/relations.sql` (and its SQLite twin). */
import type { Command } from 'commander';
import type { CommandInput } from '../command-module.js';
import { generate, generateOptions, readGenerateOptions } from '../generate.js';
import { compileOrFail, projectRoot } from '../project.js';

export function configure(command: Command): void {
  generateOptions(command);
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const model = await compileOrFail(root);
  const { relationFiles } = await import('../../emitters/index.js');
  return generate(root, relationFiles(model), readGenerateOptions(options));
}
