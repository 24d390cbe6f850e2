/**
 * `fw make:job <Name>` (docs/jobs.md "Commands"): writes `mvc/jobs/<snake>_job.ts`, a file the user owns (a
 * `defineJob` with its payload type and a handler to fill), adds its import to the jobs index `mvc/jobs/index.ts`
 * (what `fw jobs:work` loads), adds the import of that index to `app.ts` when it lacks one (so that `serve()` runs
 * the jobs too; emitters/codemods/app-jobs-import.ts, the rest of the file untouched), and writes the SQL files of
 * the jobs tables when they are absent (`fw db:apply` creates the tables). Refuses an existing job.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.argument('<Nom>', 'nom de la tâche en PascalCase (SendReport → mvc/jobs/send_report_job.ts)');
}

/** The job file: its payload type, its definition and a handler that type-checks as written. */
export function jobFileContent(pascal: string, snake: string): string {
  const camel = pascal[0]!.toLowerCase() + pascal.slice(1);
  return `// Tâche « ${snake} » (fw make:job ${pascal}) : ce fichier est à vous (docs/jobs.md de fw-mvc).
import { getLogger } from 'fw-mvc';
import { defineJob } from 'fw-mvc/jobs';

const log = getLogger('jobs.${snake}');

/** Ce que reçoit la tâche : une valeur JSON, enregistrée avec elle dans fw_jobs. */
export interface ${pascal}Payload {
  readonly id: number;
}

/**
 * Mise en file : \`await ${camel}Job.enqueue({ id: 1 })\`, ou \`{ tx }\` dans la transaction de l'écriture qui la cause.
 * Au moins une fois : une tâche reprise après un processus arrêté net recommence ; \`attempt\` compte les essais.
 */
export const ${camel}Job = defineJob<${pascal}Payload>(
  '${snake}',
  async (payload, { attempt, signal }) => {
    // Le travail de la tâche ici (signal : interrompu au délai timeoutMs ou à l'arrêt du processus) ;
    // une exception la fait réessayer plus tard, puis la marque dead après le dernier essai (attempts).
    signal.throwIfAborted();
    log.info(\`${snake} n° \${payload.id} : essai \${attempt}.\`);
  },
  { attempts: 5, timeoutMs: 60_000 },
);
`;
}

export async function run({ args }: CommandInput): Promise<number> {
  const name = String(args[0] ?? '');
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name))
    throw new CliError(
      `nom de tâche « ${name} » invalide : PascalCase attendu (lettres et chiffres, une majuscule d'abord).`,
      'par exemple « fw make:job SendReport ».',
    );
  const root = projectRoot();
  const { snakeCase } = await import('../../../compiler/naming.js');
  const { JOBS_INDEX } = await import('../../jobs/inspect.js');
  const { JOBS_INDEX_HEADER } = await import('../../jobs/media-variants.js');
  const { JOB_LIMITS } = await import('../../../runtime/jobs/schema.js');
  const snake = snakeCase(name);
  if (snake.length > JOB_LIMITS.name)
    throw new CliError(`nom de tâche « ${snake} » trop long (${JOB_LIMITS.name} caractères au plus).`, 'choisissez un nom plus court.');
  const file = `mvc/jobs/${snake}_job.ts`;
  const indexPath = path.join(root, JOBS_INDEX);
  const importLine = `import './${snake}_job.js';`;
  const index = fs.existsSync(indexPath) ? fs.readFileSync(indexPath, 'utf8') : JOBS_INDEX_HEADER;
  if (fs.existsSync(path.join(root, file)) || index.split('\n').includes(importLine))
    throw new CliError(`la tâche « ${name} » existe déjà (${file}).`, 'choisissez un autre nom, ou modifiez ce fichier : il est à vous.');
  const { jobsSqlFiles } = await import('../../../emitters/jobs/sql-files.js');
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const { APP_FILE, JOBS_IMPORT_SPECIFIER, withJobsImport } = await import('../../../emitters/codemods/app-jobs-import.js');
  const sql = jobsSqlFiles().filter((planned) => !fs.existsSync(path.join(root, planned.path)));
  const appPath = path.join(root, APP_FILE);
  const app = fs.existsSync(appPath) ? withJobsImport(fs.readFileSync(appPath, 'utf8')) : null;
  const plan = planWrites(root, [
    { path: file, content: jobFileContent(name, snake), kind: 'manual' as const },
    { path: JOBS_INDEX, content: `${index.trimEnd()}\n${importLine}\n`, kind: 'canonical' as const },
    ...(app === null ? [] : [{ path: APP_FILE, content: app, kind: 'canonical' as const }]),
    ...sql,
  ]);
  applyPlan(plan);
  const noApp = fs.existsSync(appPath)
    ? ''
    : `Pas de ${APP_FILE} : importez « ${JOBS_IMPORT_SPECIFIER} » depuis le point d'entrée de l'application pour que serve() traite les tâches.\n`;
  process.stdout.write(
    formatPlan(plan, { dryRun: false }) +
      noApp +
      `Ensuite : remplissez ${file} ; « fw db:apply » crée les tables des tâches si besoin ; « fw jobs:work » traite la file hors du serveur.\n`,
  );
  return 0;
}
