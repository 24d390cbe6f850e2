/**
 * `fw jobs:discard <id…> | --status S [--name N] [--queue Q]` (docs/jobs.md "Commands"): a job that is not running is deleted. By ids or by a
 * filter, not both; a running job is never touched. An unknown id is an error and nothing is done.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command
    .argument('[ids...]', 'numéros des tâches (fw jobs:list)')
    .option('--status <S>', 'toutes les tâches de ce statut (dead, failed : en attente après une erreur, queued, done)')
    .option('--name <N>', 'avec --status : seulement ce nom de tâche')
    .option('--queue <Q>', 'avec --status : seulement cette file');
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const { failedJobIds, idArguments, statusOption, withJobsDatabase } = await import('../../jobs/inspect.js');
  const ids = idArguments((args[0] as unknown[] | undefined) ?? [], 'jobs:discard');
  const status = await statusOption(options.status, 'jobs:discard', true);
  if (ids.length > 0 === (status !== undefined))
    throw new CliError(
      ids.length > 0 ? 'donnez des numéros ou --status, pas les deux.' : 'quelles tâches ? Aucun numéro ni --status.',
      'par exemple « fw jobs:discard 12 13 » ou « fw jobs:discard --status dead --name send_report ».',
    );
  if (ids.length === 0 && status === 'running')
    throw new CliError(
      'une tâche en cours appartient à son processus : elle ne se touche pas.',
      'attendez sa fin ou son bail ; « fw jobs:list --status running » les montre.',
    );
  const { countJobs, discardJobs } = await import('../../../runtime/jobs/admin.js');
  const byFilter = { ...(options.name ? { name: String(options.name) } : {}), ...(options.queue ? { queue: String(options.queue) } : {}) };
  const changed = await withJobsDatabase(projectRoot(), async (db) => {
    if (ids.length > 0) {
      const found = new Set(
        (await db.fetchAll<{ id: number | string }>(`SELECT id FROM fw_jobs WHERE id IN (${ids.map(() => '?').join(', ')})`, ids)).map((row) => Number(row.id)),
      );
      const unknown = ids.filter((id) => !found.has(id));
      if (unknown.length > 0)
        throw new CliError(`tâche(s) inconnue(s) : ${unknown.join(', ')}. Rien n'a été fait.`, 'les numéros existants sont dans « fw jobs:list ».');
      const running = await countJobs(db, { ids, status: 'running' });
      if (running > 0)
        throw new CliError(`${running} de ces tâches sont en cours : rien n'a été fait.`, 'attendez leur fin ; « fw jobs:list --status running » les montre.');
    }
    if (ids.length > 0) return discardJobs(db, { ids });
    if (status === 'failed') return discardJobs(db, { ids: await failedJobIds(db, byFilter.name, byFilter.queue) });
    return discardJobs(db, { status: status!, ...byFilter });
  });
  process.stdout.write(`${changed} tâche(s) supprimée(s).\n`);
  return 0;
}
