/**
 * `migration:apply`'s refusals of destructive steps (docs/entities.md "Destructive steps"), before a file's first
 * statement: a blocking risk (values that do not fit a narrowed type, NULLs under NOT NULL, duplicates under a
 * unique key, rows a new CHECK refuses) always; a dropped table or column or a narrowed type without `--allow-destructive`.
 */
import type { Connection, Database } from '../../runtime/db/index.js';
import { CliError } from '../errors.js';
import { plan } from './migration-plan.js';
import { describeRisk, migrationRisks, type MigrationRisk } from './migration-risks.js';
import type { MigrationFile, MigrationStatus } from './migrations.js';
import type { SqlStatement } from './sql-split.js';

function blockingError(file: MigrationFile, risks: readonly MigrationRisk[], applied: number): CliError {
  const list = risks.map((risk) => `  ${file.filename}, ligne ${risk.line} : ${describeRisk(risk)}`).join('\n');
  const before =
    applied === 0
      ? "aucune migration n'a été appliquée ni enregistrée"
      : `les ${applied} migration(s) précédente(s) restent appliquées, celle-ci n'a rien exécuté ni enregistré`;
  return new CliError(
    `la migration « ${file.filename} » échouerait sur MariaDB ou perdrait des données sur SQLite :\n${list}\n${before}.`,
    'corrigez ces lignes (ou le fichier, encore PENDING), puis relancez « fw migration:apply » ; « fw migration:lint » les liste.',
  );
}

/** The blocking risks of one file on the database as it is now: refused before its first statement. */
export async function risksBefore(connection: Connection, file: MigrationFile, statements: readonly SqlStatement[], applied: number): Promise<MigrationRisk[]> {
  const risks = await migrationRisks(connection, statements);
  const blocking = risks.filter((risk) => risk.blocking);
  if (blocking.length > 0) throw blockingError(file, blocking, applied);
  return risks;
}

/** Before any file runs: the blocking risks of the first one, and the destructive steps of all without the flag. */
export async function refuseRisks(
  connection: Connection,
  pending: ReadonlyArray<{ file: MigrationFile; statements: SqlStatement[] }>,
  allowDestructive: boolean,
): Promise<void> {
  const found: Array<{ file: MigrationFile; risk: MigrationRisk }> = [];
  for (const [position, { file, statements }] of pending.entries()) {
    const risks = await migrationRisks(connection, statements);
    if (position === 0) {
      const blocking = risks.filter((risk) => risk.blocking);
      if (blocking.length > 0) throw blockingError(file, blocking, 0);
    }
    for (const risk of risks) if (!risk.blocking) found.push({ file, risk });
  }
  if (found.length === 0 || allowDestructive) return;
  const list = found.map(({ file, risk }) => `  ${file.filename}, ligne ${risk.line} : ${describeRisk(risk)}`).join('\n');
  throw new CliError(
    `${found.length} étape(s) destructive(s) dans les migrations PENDING :\n${list}\naucune migration n'a été appliquée.`,
    'relisez-les (« fw migration:lint »), sauvegardez la base si elle compte, puis relancez « fw migration:apply --allow-destructive ».',
  );
}

/** A risk of a PENDING file, for `migration:lint` and `migration:status`. */
export interface PendingRisk extends MigrationRisk {
  readonly migration: string;
}

/**
 * The risks of every PENDING file, each read on the database as it is now (a file that a PENDING one before it
 * prepares is read as if that one had not run). Files that do not split for this dialect are left out:
 * `migration:apply` names them.
 */
export async function pendingRisks(db: Database, statuses: readonly MigrationStatus[]): Promise<PendingRisk[]> {
  const files = statuses.filter((status) => status.status === 'PENDING' && status.file).map((status) => status.file!);
  const out: PendingRisk[] = [];
  for (const file of files) {
    let statements: SqlStatement[];
    try {
      statements = plan([file], db.driver)[0]!.statements;
    } catch {
      continue;
    }
    for (const risk of await migrationRisks(db, statements)) out.push({ migration: file.filename, ...risk });
  }
  return out;
}

/** `fichier, ligne L : détail [bloquante]`. */
export function pendingRiskLine(risk: PendingRisk): string {
  return `${risk.migration}, ligne ${risk.line} : ${describeRisk(risk)}${risk.blocking ? ' [bloquante]' : ''}`;
}
