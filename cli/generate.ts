/** Shared steps of the generating commands: plan the files through the writer, apply unless dry-run, print. */
import type { PlannedFile } from '../emitters/index.js';
import type { Command } from 'commander';

export interface GenerateOptions {
  dryRun: boolean;
  force: boolean;
}

/** Declares `--dry-run` and `--force` on a generating command. */
export function generateOptions(command: Command): Command {
  return command
    .option('--dry-run', "affiche ce qui changerait sans rien écrire")
    .option('--force', "réécrit aussi les fichiers générés dont la ligne « generated » a été retirée");
}

export function readGenerateOptions(options: Readonly<Record<string, unknown>>): GenerateOptions {
  return { dryRun: options.dryRun === true, force: options.force === true };
}

/** Plans, applies (atomically) and reports the files; returns the exit code. */
export async function generate(root: string, files: PlannedFile[], options: GenerateOptions): Promise<number> {
  const { planWrites, applyPlan, formatPlan } = await import('./writer.js');
  const plan = planWrites(root, files, { force: options.force });
  if (!options.dryRun) applyPlan(plan);
  process.stdout.write(formatPlan(plan, { dryRun: options.dryRun }));
  return 0;
}
