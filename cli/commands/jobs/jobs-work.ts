/**
 * `fw jobs:work [--queue Q…] [--concurrency N]` (docs/jobs.md "Workers"): a process that only runs jobs, until
 * SIGTERM or SIGINT (`workUntilSignal`: the running jobs finish or go back to the queue). It loads the project's
 * definitions from `mvc/jobs/index.ts` (what `fw make:job` fills) through tsx, with the project's configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command
    .option('--queue <Q...>', 'seulement ces files (défaut : toutes celles des tâches définies)')
    .option('--concurrency <N>', 'tâches à la fois par file (défaut : jobs_concurrency de la configuration)');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { JOBS_INDEX, withJobsDatabase } = await import('../../jobs/inspect.js');
  const index = path.join(root, JOBS_INDEX);
  if (!fs.existsSync(index)) throw new CliError(`${JOBS_INDEX} absent : ce projet ne définit aucune tâche.`, 'créez-en une avec « fw make:job <Nom> ».');
  let concurrency: number | undefined;
  if (options.concurrency !== undefined) {
    const text = String(options.concurrency);
    concurrency = Number(text);
    if (!/^\d+$/.test(text) || concurrency < 1 || concurrency > 100)
      throw new CliError(`--concurrency doit être un entier de 1 à 100 (valeur lue : « ${text} »).`, 'par exemple « fw jobs:work --concurrency 4 ».');
  }
  await withJobsDatabase(root, async () => undefined);
  const { register } = await import('tsx/esm/api');
  register();
  // The project's own fw-mvc (its node_modules), so that the definitions its files register are the ones run here.
  let jobsModule: string;
  try {
    jobsModule = pathToFileURL(createRequire(path.join(root, 'package.json')).resolve('fw-mvc/jobs')).href;
  } catch {
    throw new CliError('le paquet fw-mvc est introuvable depuis ce projet.', 'lancez « npm install » dans le projet puis relancez « fw jobs:work ».');
  }
  const jobs = (await import(jobsModule)) as typeof import('../../../runtime/jobs/index.js');
  const { get } = (await import(
    pathToFileURL(createRequire(path.join(root, 'package.json')).resolve('fw-mvc')).href
  )) as typeof import('../../../runtime/index.js');
  try {
    // The project's configuration (env/<APP_ENV>, the database), as its server reads it.
    if (fs.existsSync(path.join(root, 'config.ts'))) await import(pathToFileURL(path.join(root, 'config.ts')).href);
    await import(pathToFileURL(index).href);
  } catch (error) {
    throw new CliError(
      `${JOBS_INDEX} ne se charge pas : ${(error as Error).message}`,
      'corrigez le fichier (« npx tsc --noEmit » montre les erreurs) puis relancez « fw jobs:work ».',
    );
  }
  const known = new Set(jobs.jobDefinitions().map((definition) => definition.queue));
  const queues = options.queue === undefined ? [...known] : (options.queue as string[]);
  const unknown = queues.filter((queue) => !known.has(queue));
  if (unknown.length > 0)
    throw new CliError(
      `file(s) inconnue(s) : ${unknown.join(', ')} (files des tâches définies : ${[...known].join(', ') || 'aucune'}).`,
      "donnez une file d'une tâche de mvc/jobs/, ou aucune --queue.",
    );
  // Ctrl+C stops the worker gracefully here (workUntilSignal), not with the dispatcher's immediate exit 130.
  process.removeAllListeners('SIGINT');
  await jobs.workUntilSignal({ queues: Object.fromEntries(queues.map((queue) => [queue, concurrency ?? Number(get('jobs_concurrency'))])) }, (running) => {
    process.stdout.write(`Travailleur prêt : ${[...running].map(([queue, n]) => `${queue} (${n} à la fois)`).join(', ')}. Ctrl+C ou SIGTERM pour arrêter.\n`);
  });
  process.stdout.write('Travailleur arrêté.\n');
  return 0;
}
