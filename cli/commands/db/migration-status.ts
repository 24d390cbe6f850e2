/** `fw migration:status [--json]`: read-only; APPLIED, PENDING, CHANGED, MISSING (docs/entities.md "Migration files"). */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { databaseFileMissing, findProjectRoot, openHandle, readDbSettings, usingHandle } from '../../db/connection.js';
import { pendingRiskLine, pendingRisks, type PendingRisk } from '../../db/migration-guard.js';
import { computeStatuses, migrationStatuses, readMigrationFiles, type MigrationStatus, type StatusReport } from '../../db/migrations.js';

export function configure(command: Command): void {
  command.option('--json', 'écrit un tableau JSON au lieu du tableau texte');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = findProjectRoot();
  const settings = readDbSettings(root);
  let risks: PendingRisk[] = [];
  const report: StatusReport = databaseFileMissing(settings)
    ? noDatabaseYet(root) // read-only: opening the file would create it
    : await usingHandle(openHandle(settings, 'schema', { poolSize: 1 }), async (db) => {
        const read = await migrationStatuses(db, root);
        if (read.tableExists) risks = await pendingRisks(db, read.statuses);
        return read;
      });
  // A folder migration:apply refuses has no reliable state: the problems alone, never a table that would count
  // those files out (« 0 APPLIED… » over a broken folder).
  if (report.problems.length > 0) {
    for (const problem of report.problems) {
      process.stderr.write(`Erreur : mvc/migrations/${problem.filename} : ${problem.reason}.\n`);
    }
    process.stderr.write('Conseil : renommez ces fichiers en YYYYMMDDHHMMSS_<nom>.sql (contenu non vide, une version par fichier) ou sortez-les du dossier.\n');
    return 1;
  }
  const out = process.stdout;
  if (options.json) {
    out.write(
      `${JSON.stringify(
        report.statuses.map((status) => toJson(status, risks)),
        null,
        2,
      )}\n`,
    );
  } else {
    out.write(formatStatusTable(report.statuses));
    if (!report.tableExists) {
      out.write("(la table fw_migrations n'existe pas encore : « fw db:init » ou « fw migration:apply » la crée.)\n");
    }
    // docs/entities.md "Destructive steps": what migration:apply would refuse, before the summary line.
    for (const risk of risks) out.write(`Étape destructive : ${pendingRiskLine(risk)}\n`);
    out.write(`${summary(report.statuses)}\n`);
  }
  return 0;
}

function noDatabaseYet(root: string): StatusReport {
  const { files, problems } = readMigrationFiles(root);
  return { statuses: computeStatuses(files, []), problems, tableExists: false };
}

/** `STATUT  VERSION  FICHIER`, each column padded to its widest cell, two spaces between columns. */
export function formatStatusTable(statuses: readonly MigrationStatus[]): string {
  const rows = [['STATUT', 'VERSION', 'FICHIER'], ...statuses.map((status) => [status.status, status.version, status.filename])];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`);
  if (statuses.length === 0) lines.push('(aucune migration dans mvc/migrations/)');
  return `${lines.join('\n')}\n`;
}

function summary(statuses: readonly MigrationStatus[]): string {
  const count = (name: MigrationStatus['status']): number => statuses.filter((status) => status.status === name).length;
  return `${count('APPLIED')} APPLIED, ${count('PENDING')} PENDING, ${count('CHANGED')} CHANGED, ${count('MISSING')} MISSING.`;
}

function toJson(status: MigrationStatus, risks: readonly PendingRisk[]) {
  return {
    status: status.status,
    version: status.version,
    name: status.name,
    filename: status.filename,
    checksum: status.file?.checksum ?? null,
    appliedChecksum: status.record?.checksum ?? null,
    appliedAt: status.record?.appliedAt ?? null,
    executionMs: status.record?.executionMs ?? null,
    risks: risks
      .filter((risk) => risk.migration === status.filename)
      .map((r) => ({ line: r.line, kind: r.kind, table: r.table, column: r.column, rows: r.rows, keys: r.keys, blocking: r.blocking, detail: r.detail })),
  };
}
