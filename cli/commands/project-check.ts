/**
 * `fw project:check [--json]`: not implemented yet, but outside a project it already fails the way the spec
 * says ("Diagnostics", "Errors" §2-3): a message saying the folder is not a project, and advice.
 */
import type { Command } from 'commander';
import { notAvailable } from '../errors.js';
import { assertProjectHere } from '../project.js';

export function configure(command: Command): void {
  command.option('--json', 'sortie JSON');
}

export async function run(): Promise<number> {
  assertProjectHere('project:check');
  throw notAvailable('project:check');
}
