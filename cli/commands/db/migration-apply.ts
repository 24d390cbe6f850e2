/** `fw migration:apply`: applies the PENDING migrations in version order, under a lock (see cli/db/migrations.ts). */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { findProjectRoot, openHandle, readDbSettings, usingHandle } from '../../db/connection.js';
import { applyMigrations } from '../../db/migration-apply.js';

/** How long a second run waits for the first one's lock: MariaDB GET_LOCK and SQLite busy timeout. */
const LOCK_WAIT_SECONDS = 60;

export function configure(command: Command): void {
  command.option('--allow-destructive', 'applique aussi les suppressions de tables et de colonnes et les types rétrécis (« fw migration:lint » les liste)');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = findProjectRoot();
  const settings = readDbSettings(root);
  const out = process.stdout;
  const handle = openHandle(settings, 'schema', { poolSize: 1, busyTimeoutMs: LOCK_WAIT_SECONDS * 1000 });
  const applied = await usingHandle(handle, (db) =>
    applyMigrations(db, root, {
      lockTimeoutSeconds: LOCK_WAIT_SECONDS,
      allowDestructive: options.allowDestructive === true,
      onApplied: (migration) => out.write(`  appliquée  ${migration.filename}  (${migration.executionMs} ms)\n`),
    }),
  );
  out.write(applied.length === 0 ? 'Rien à appliquer : aucune migration PENDING.\n' : `${applied.length} migration(s) appliquée(s).\n`);
  return 0;
}
