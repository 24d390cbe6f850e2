/**
 * `fw upload:init [--dry-run]` (docs/uploads.md "Set-up"): creates the upload root (`UPLOAD_ROOT`, default
 * `storage/uploads`) and its folders images, images/medium, images/thumbnail, documents and tmp (mode 0750).
 * Idempotent: a second run creates nothing and says so.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--dry-run', 'affiche les dossiers qui seraient créés sans rien créer');
}

export async function run({ options }: CommandInput): Promise<number> {
  const dryRun = options.dryRun === true;
  const root = projectRoot();
  const { projectUploadRoot } = await import('../../media/inspect.js');
  const { makeUploadFolders } = await import('../../media/folders.js');
  const { UPLOAD_DIRS } = await import('../../../runtime/uploads/paths.js');
  const uploadRoot = projectUploadRoot(root);
  const { lines, created } = await makeUploadFolders(root, uploadRoot, UPLOAD_DIRS, dryRun);
  const out = [dryRun ? "Simulation (--dry-run) : aucun dossier n'est créé." : '', 'Dossiers de dépôt :', ...lines].filter(Boolean);
  if (created === 0) out.push('Rien à faire : les dossiers de dépôt existent déjà.');
  else if (!dryRun)
    out.push(`${created} dossier(s) créé(s). Les images publiques sont servies par /media/images/… ; les autres catégories demandent une session connectée.`);
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
