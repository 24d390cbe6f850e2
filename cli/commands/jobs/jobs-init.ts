/**
 * `fw jobs:init [--dry-run]` (docs/jobs.md "The tables"): writes the SQL files of the jobs tables (`fw_jobs`,
 * `fw_job_ticks`) for both dialects under `mvc/models/sql/jobs/` (regenerable); `fw db:apply` creates the tables.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--dry-run', 'affiche ce qui changerait sans rien écrire');
}

export async function run({ options }: CommandInput): Promise<number> {
  const dryRun = options.dryRun === true;
  const root = projectRoot();
  const { jobsSqlFiles } = await import('../../../emitters/jobs/sql-files.js');
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const plan = planWrites(root, jobsSqlFiles());
  if (!dryRun) applyPlan(plan);
  process.stdout.write(formatPlan(plan, { dryRun }) + (dryRun ? '' : 'Ensuite : « fw db:apply » crée les tables fw_jobs et fw_job_ticks.\n'));
  return 0;
}
