/**
 * `fw project:audit [--json]`: not implemented yet; outside a project it fails like project:check
 * (spec "Diagnostics": exit 1 when run outside a project).
 */
import type { Command } from 'commander';
import { notAvailable } from '../errors.js';
import { assertProjectHere } from '../project.js';

export function configure(command: Command): void {
  command.option('--json', 'sortie JSON');
}

export async function run(): Promise<number> {
  assertProjectHere('project:audit');
  throw notAvailable('project:audit');
}
