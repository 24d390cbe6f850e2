/**
 * The jobs checks of `fw doctor` (family `jobs`, FW-JOBS-001 and FW-JOBS-002; docs/diagnostics.md): the dead jobs
 * (their last attempt failed) and the stuck ones (running past their lease, their process gone). Read with the
 * application account through `jobTroubles`; SKIP when the project has no jobs or its tables are not created.
 */
import fs from 'node:fs';
import path from 'node:path';
import { jobsSqlPath } from '../../emitters/jobs/sql-files.js';
import { DIALECT_NAMES } from '../../runtime/db/dialect.js';
import { jobTroubles } from '../../runtime/jobs/admin.js';
import { JOBS_TABLE } from '../../runtime/jobs/schema.js';
import { describeTarget } from '../auth/database.js';
import { databaseFileMissing, openHandle } from '../db/connection.js';
import { tableExists } from '../db/schema.js';
import { CliError } from '../errors.js';
import { JOBS_INDEX } from '../jobs/inspect.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';

const D = {
  dead: { id: 'FW-JOBS-001', family: 'jobs', label: 'Tâches mortes' },
  stuck: { id: 'FW-JOBS-002', family: 'jobs', label: 'Tâches bloquées (en cours après leur bail)' },
} as const satisfies Record<string, CheckDefinition>;

export const JOBS_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

function skipped(detail: string, hint = ''): CheckResult[] {
  return [result(D.dead, 'SKIP', detail, hint), result(D.stuck, 'SKIP', detail, hint)];
}

/** FW-JOBS-001 and FW-JOBS-002 from one read of the queue. */
export const troublesCheck: CheckFunction = async (context) => {
  const root = context.root;
  const used = fs.existsSync(path.join(root, JOBS_INDEX)) || DIALECT_NAMES.some((dialect) => fs.existsSync(path.join(root, jobsSqlPath(dialect))));
  if (!used) return skipped('aucune tâche de fond dans ce projet (« fw make:job <Nom> » en crée une)');
  const settings = context.settings;
  if (!settings) return skipped(`base non lue : ${context.settingsError?.message ?? 'réglages illisibles'}`);
  if (databaseFileMissing(settings)) return skipped(`la base ${describeTarget(settings)} n'existe pas encore`, '« fw db:apply » la crée avec les tables');
  let db;
  try {
    db = openHandle(settings, 'app', { poolSize: 1 });
  } catch (error) {
    if (error instanceof CliError) return skipped(error.message.replace(/\.$/, ''), error.advice ?? '');
    throw error;
  }
  try {
    if (!(await tableExists(db, JOBS_TABLE)))
      return skipped(`table ${JOBS_TABLE} absente (${describeTarget(settings)})`, '« fw jobs:init » puis « fw db:apply »');
    const { dead, stuck } = await jobTroubles(db);
    return [
      dead > 0
        ? result(
            D.dead,
            'WARN',
            `${dead} tâche(s) morte(s) après leur dernier essai`,
            '« fw jobs:list --status dead » montre leur erreur ; « fw jobs:retry <id…> » ou « fw jobs:discard <id…> »',
          )
        : result(D.dead, 'OK', 'aucune tâche morte'),
      stuck > 0
        ? result(
            D.stuck,
            'WARN',
            `${stuck} tâche(s) en cours plus d'une minute après la fin de leur bail`,
            'un processus de tâches les reprend en démarrant (« fw jobs:work », ou serve()) ; « fw jobs:list --status running »',
          )
        : result(D.stuck, 'OK', 'aucune tâche bloquée'),
    ];
  } catch (error) {
    return skipped(`base injoignable : ${String((error as Error).message ?? error).split('\n')[0]}`);
  } finally {
    await db.close().catch(() => {});
  }
};

export const JOBS_CHECKS: readonly CheckFunction[] = [troublesCheck];
