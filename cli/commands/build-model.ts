/** `fw build:model [--dry-run]`: regenerates every entity's files and the relations. */
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
  const { modelFiles } = await import('../../emitters/index.js');
  return generate(root, modelFiles(model), readGenerateOptions(options));
}
