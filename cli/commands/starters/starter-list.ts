/** `fw starter:list`: the starter applications, by id, aliases and description (docs/starters.md). */
import type { Command } from 'commander';

export function configure(_command: Command): void {}

export async function run(): Promise<number> {
  const { starterTable } = await import('../../starters/registry.js');
  process.stdout.write(starterTable());
  process.stdout.write('Construire : « fw starter:build <id ou alias> » dans un projet créé par « fw new » (--dry-run pour voir avant).\n');
  return 0;
}
