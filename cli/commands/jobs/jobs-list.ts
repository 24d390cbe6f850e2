/**
 * `fw jobs:list [--status S] [--queue Q] [--name N] [--limit N] [--json]` (docs/jobs.md "Commands"): the jobs of
 * `fw_jobs`, the most recent first, as a table (id, name, queue, status, attempts, run at, last error) or JSON.
 * Never the payload. Read with the application account.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command
    .option('--status <S>', 'queued, running, done ou dead')
    .option('--queue <Q>', 'une file')
    .option('--name <N>', 'un nom de tâche')
    .option('--limit <N>', 'nombre de lignes, de 1 à 1000 (défaut 50)')
    .option('--json', 'sortie JSON (une entrée par tâche)');
}

const HEADERS = ['ID', 'NAME', 'QUEUE', 'STATUS', 'ATTEMPTS', 'RUN AT', 'LAST ERROR'];

export async function run({ options }: CommandInput): Promise<number> {
  const { statusOption, withJobsDatabase } = await import('../../jobs/inspect.js');
  const status = (await statusOption(options.status, 'jobs:list')) as 'queued' | 'running' | 'done' | 'dead' | undefined;
  const limitText = options.limit === undefined ? '50' : String(options.limit);
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || limit < 1 || limit > 1000)
    throw new CliError(`--limit doit être un entier de 1 à 1000 (valeur lue : « ${limitText} »).`, 'par exemple « fw jobs:list --limit 100 ».');
  const { listJobs } = await import('../../../runtime/jobs/admin.js');
  const filter = {
    ...(status ? { status } : {}),
    ...(options.queue ? { queue: String(options.queue) } : {}),
    ...(options.name ? { name: String(options.name) } : {}),
  };
  const rows = await withJobsDatabase(projectRoot(), (db) => listJobs(db, filter, limit));
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write('Aucune tâche ne correspond.\n');
    return 0;
  }
  const cells = rows.map((row) => [
    String(row.id),
    row.name,
    row.queue,
    row.status,
    `${row.attempts}/${row.maxAttempts}`,
    row.runAt,
    (row.lastError ?? '').replace(/[\r\n\t]+/g, ' ').slice(0, 120),
  ]);
  const all = [HEADERS, ...cells];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const lines = all.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
