/**
 * The migration checks (family `migr`, ids FW-MIGR-001 to FW-MIGR-006): the files of `mvc/migrations/` read by
 * the code of `migration:status` (cli/db/migrations.ts: `readMigrationFiles`, `computeStatuses`): their names,
 * their content, one version per file; and, when the database answers, the migrations not applied yet (WARN), applied
 * and changed since, or applied and gone from the folder (FAIL). See docs/diagnostics.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { computeStatuses, MIGRATIONS_DIR, readMigrationFiles, type MigrationFile, type MigrationFileProblem, type MigrationStatus } from '../db/migrations.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import type { ProjectContext } from './context.js';
import { databaseReads } from './database.js';

function migr(id: number, label: string): CheckDefinition {
  return { id: `FW-MIGR-${String(id).padStart(3, '0')}`, family: 'migr', label };
}

const D = {
  names: migr(1, 'Noms des fichiers de migration'),
  empty: migr(2, 'Fichiers de migration non vides'),
  versions: migr(3, 'Une version par migration'),
  pending: migr(4, 'Migrations en attente'),
  changed: migr(5, 'Migrations modifiées après application'),
  missing: migr(6, 'Migrations appliquées absentes du dossier'),
} as const;

/** Every id the family can produce, with its label. */
export const MIGR_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

const FOLDER = 'mvc/migrations';

type Folder =
  | { readonly ok: true; readonly files: MigrationFile[]; readonly problems: MigrationFileProblem[] }
  | { readonly ok: false; readonly file: string; readonly reason: string };

/** The folder as `migration:status` reads it; a file or folder it cannot read is named, never thrown. */
function folder(context: ProjectContext): Promise<Folder> {
  return context.once('migr.folder', async () => {
    try {
      const dir = path.join(context.root, MIGRATIONS_DIR);
      // A symlink loop (or a file) in place of the folder: readMigrationFiles would take it for no folder at all.
      if (fs.lstatSync(dir, { throwIfNoEntry: false }) && !fs.statSync(dir).isDirectory())
        return { ok: false, file: FOLDER, reason: `${FOLDER} n'est pas un dossier` };
      return { ok: true, ...readMigrationFiles(context.root) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const where = (error as NodeJS.ErrnoException).path;
      const file = where ? path.relative(context.root, where).split(path.sep).join('/') : FOLDER;
      const why = code === 'ELOOP' ? 'boucle de liens symboliques' : (code ?? (error as Error).message);
      return { ok: false, file, reason: `${file} ne se lit pas (${why})` };
    }
  });
}

function fileResult(definition: CheckDefinition, problem: MigrationFileProblem, hint: string): CheckResult {
  return { ...result(definition, 'FAIL', `${FOLDER}/${problem.filename} : ${problem.reason}`, hint), file: `${FOLDER}/${problem.filename}` };
}

const isEmpty = (problem: MigrationFileProblem): boolean => problem.reason === 'fichier vide';
const isDuplicate = (problem: MigrationFileProblem): boolean => problem.reason.startsWith('même version que');

/** FW-MIGR-001: each `.sql` file of mvc/migrations/ is named `YYYYMMDDHHMMSS_<nom>.sql` (a valid timestamp) and is a file. */
export const migrationNamesCheck: CheckFunction = async (context) => {
  const found = await folder(context);
  if (!found.ok) return [{ ...result(D.names, 'FAIL', found.reason, 'rendez le dossier et ses fichiers lisibles'), file: found.file }];
  const named = found.problems.filter((problem) => !isEmpty(problem) && !isDuplicate(problem));
  if (named.length > 0) {
    return named.map((problem) =>
      fileResult(D.names, problem, 'renommez-le en YYYYMMDDHHMMSS_<nom>.sql ou sortez-le du dossier ; « fw migration:apply » refuse le dossier'),
    );
  }
  if (!fs.existsSync(path.join(context.root, MIGRATIONS_DIR))) return [result(D.names, 'OK', `pas de dossier ${FOLDER} : aucune migration`)];
  return [result(D.names, 'OK', `${found.files.length} migration(s) bien nommée(s)`)];
};

/** FW-MIGR-002: no migration file is empty (or only blank). */
export const migrationContentCheck: CheckFunction = async (context) => {
  const found = await folder(context);
  if (!found.ok) return [result(D.empty, 'SKIP', found.reason)];
  const empty = found.problems.filter(isEmpty);
  if (empty.length === 0) return [result(D.empty, 'OK', `${found.files.length} migration(s) non vide(s)`)];
  return empty.map((problem) => fileResult(D.empty, problem, 'écrivez-y ses instructions SQL ou supprimez-le ; « fw migration:apply » refuse le dossier'));
};

/**
 * FW-MIGR-003: two files with the same version (timestamp). `migration:status` and `migration:apply` refuse the
 * folder then (the version is the key of fw_migrations), hence a FAIL.
 */
export const migrationVersionsCheck: CheckFunction = async (context) => {
  const found = await folder(context);
  if (!found.ok) return [result(D.versions, 'SKIP', found.reason)];
  const duplicates = found.problems.filter(isDuplicate);
  if (duplicates.length === 0) return [result(D.versions, 'OK', 'aucune version en double')];
  return duplicates.map((problem) => fileResult(D.versions, problem, "changez l'horodatage du plus récent (une version par fichier)"));
};

/** The statuses `migration:status` would print, or why they cannot be read (a SKIP). */
async function statuses(context: ProjectContext): Promise<{ statuses: MigrationStatus[]; target: string } | { skip: string }> {
  const found = await folder(context);
  if (!found.ok) return { skip: found.reason };
  // A version two files claim has no reliable state (which file was applied?): FW-MIGR-003 reports it alone.
  const doubled = new Set(found.problems.filter(isDuplicate).map((problem) => problem.filename.slice(0, 14)));
  const files = found.files.filter((file) => !doubled.has(file.version));
  const reads = await databaseReads(context);
  switch (reads.state) {
    case 'unconfigured':
      return { skip: `base non configurée : ${reads.reason}` };
    case 'unavailable':
      return { skip: `base injoignable : ${reads.summary}` };
    case 'no-file':
      // As `migration:status` says it: the file does not exist yet, so nothing is applied.
      return { statuses: computeStatuses(files, []), target: `SQLite ${reads.file}, pas encore créé` };
    default:
      return {
        statuses: computeStatuses(
          files,
          (reads.migrations ?? []).filter((record) => !doubled.has(record.version)),
        ),
        target: reads.target,
      };
  }
}

function stateCheck(
  definition: CheckDefinition,
  state: MigrationStatus['status'],
  build: (found: MigrationStatus[], target: string) => CheckResult[],
): CheckFunction {
  return async (context) => {
    const read = await statuses(context);
    if ('skip' in read) return [result(definition, 'SKIP', read.skip)];
    const found = read.statuses.filter((status) => status.status === state);
    return found.length === 0 ? [result(definition, 'OK', `aucune (${read.target})`)] : build(found, read.target);
  };
}

const list = (found: readonly MigrationStatus[]): string => found.map((status) => status.filename).join(', ');

/** FW-MIGR-004: migrations not applied yet to the database (PENDING). */
export const pendingMigrationsCheck: CheckFunction = stateCheck(D.pending, 'PENDING', (found, target) => [
  result(D.pending, 'WARN', `${found.length} non appliquée(s) à ${target} : ${list(found)}`, '« fw migration:apply » les applique'),
]);

/** FW-MIGR-005: applied migrations whose file changed since (CHANGED): the database did not run what the file says. */
export const changedMigrationsCheck: CheckFunction = stateCheck(D.changed, 'CHANGED', (found, target) =>
  found.map((status) => ({
    ...result(
      D.changed,
      'FAIL',
      `${FOLDER}/${status.filename} a changé depuis son application à ${target}`,
      "remettez le fichier tel qu'il a été appliqué et écrivez le changement dans une nouvelle migration",
    ),
    file: `${FOLDER}/${status.filename}`,
  })),
);

/** FW-MIGR-006: migrations recorded as applied whose file is gone from the folder (MISSING). */
export const missingMigrationsCheck: CheckFunction = stateCheck(D.missing, 'MISSING', (found, target) =>
  found.map((status) =>
    result(
      D.missing,
      'FAIL',
      `${status.filename} est appliquée à ${target} mais absente de ${FOLDER}`,
      'restaurez le fichier (depuis git) : il décrit le schéma de la base',
    ),
  ),
);

/** The migration checks in report order. */
export const MIGR_CHECKS: readonly CheckFunction[] = [
  migrationNamesCheck,
  migrationContentCheck,
  migrationVersionsCheck,
  pendingMigrationsCheck,
  changedMigrationsCheck,
  missingMigrationsCheck,
];
