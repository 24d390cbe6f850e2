/**
 * `fw media:init [--dry-run]` (docs/uploads.md "Set-up"): writes the SQL files of the `media` table for both
 * dialects under `mvc/models/sql/media/` (through the project's one writer; a file whose marker line the user
 * removed is never rewritten) and creates the image folders with their variant folders (images, images/medium,
 * images/thumbnail). Applies nothing: `fw db:apply` creates the table. Idempotent.
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
  const { mediaSqlFiles } = await import('../../../emitters/media/sql-files.js');
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const { projectUploadRoot } = await import('../../media/inspect.js');
  const { makeUploadFolders } = await import('../../media/folders.js');
  const plan = planWrites(root, mediaSqlFiles());
  if (!dryRun) applyPlan(plan);
  const { lines, created } = await makeUploadFolders(root, projectUploadRoot(root), ['images', 'images/medium', 'images/thumbnail'], dryRun);
  const out = [formatPlan(plan, { dryRun }), `Dossiers des images et de leurs variantes :\n${lines.join('\n')}\n`];
  const writes = plan.entries.filter((entry) => entry.fate === 'created' || entry.fate === 'updated' || entry.fate === 'forced');
  if (writes.length === 0 && created === 0) out.push('Rien à faire : les fichiers SQL de la table media et les dossiers des variantes sont déjà en place.\n');
  else if (!dryRun && writes.length > 0) out.push("Ensuite : « fw db:apply » crée la table media ; le module s'importe depuis « fw-mvc/media ».\n");
  process.stdout.write(out.join(''));
  return 0;
}
