/**
 * `fw migration:lint [--json]`: read-only; the destructive steps of the PENDING migrations, with the rows each one
 * touches read from the database (docs/entities.md "Destructive steps"). Exit 2 when there is any (for CI).
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { databaseFileMissing, findProjectRoot, openHandle, readDbSettings, usingHandle } from '../../db/connection.js';
import { pendingRisks, type PendingRisk } from '../../db/migration-guard.js';
import { describeRisk } from '../../db/migration-risks.js';
import { invalidFilesError, migrationStatuses } from '../../db/migrations.js';

export function configure(command: Command): void {
  command.option('--json', 'écrit un tableau JSON au lieu du tableau texte');
}

/** `RISQUE  MIGRATION  LIGNE  LIGNES  DETAIL`, padded like the other tables of the migration commands. */
export function formatRisks(risks: readonly PendingRisk[]): string {
  const rows = [
    ['RISQUE', 'MIGRATION', 'LIGNE', 'LIGNES', 'DETAIL'],
    ...risks.map((r) => [r.kind, r.migration, String(r.line), String(r.rows), `${describeRisk(r)}${r.blocking ? ' [bloquante]' : ''}`]),
  ];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return `${rows.map((row) => row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join('  ')).join('\n')}\n`;
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = findProjectRoot();
  const settings = readDbSettings(root);
  // Read-only: a SQLite file that does not exist yet is not created (no table, so no row to lose).
  const risks = databaseFileMissing(settings)
    ? []
    : await usingHandle(openHandle(settings, 'schema', { poolSize: 1 }), async (db) => {
        const report = await migrationStatuses(db, root);
        if (report.problems.length > 0) throw invalidFilesError(report.problems);
        return pendingRisks(db, report.statuses);
      });
  const out = process.stdout;
  if (options.json) {
    out.write(
      `${JSON.stringify(
        risks.map((r) => ({
          migration: r.migration,
          line: r.line,
          kind: r.kind,
          table: r.table,
          column: r.column,
          rows: r.rows,
          keys: r.keys,
          blocking: r.blocking,
          detail: r.detail,
        })),
        null,
        2,
      )}\n`,
    );
  } else if (risks.length === 0) {
    out.write('Aucune étape destructive dans les migrations PENDING.\n');
  } else {
    const blocking = risks.filter((r) => r.blocking).length;
    out.write(formatRisks(risks));
    out.write(
      `${risks.length} étape(s) destructive(s), dont ${blocking} bloquante(s) : « fw migration:apply » refuse les bloquantes, et les autres sans « --allow-destructive ».\n`,
    );
  }
  return risks.length > 0 ? 2 : 0;
}
