/**
 * The tables of the database that nothing of the project describes (docs/entities.md "Removing an entity"): not an
 * entity's, not a many-to-many pivot, not the framework's own (`fw_*`, authentication, mail log, media). The table of
 * a removed entity stays there with its rows until a migration drops it; `migration:diff --all` names it.
 */
import type { ModelNode } from '../../compiler/ir.js';
import { AUTH_TABLE_NAMES } from '../../runtime/auth/schema.js';
import { quoteIdentifier } from '../../runtime/db/ddl/names.js';
import { MAIL_LOG_TABLE } from '../../runtime/mail/schema.js';
import { MEDIA_TABLE } from '../../runtime/media/schema.js';
import { dialectOf, listTables, type Handle } from './schema.js';

export interface OrphanTable {
  readonly table: string;
  readonly rows: number;
}

export async function orphanTables(handle: Handle, model: ModelNode): Promise<OrphanTable[]> {
  const described = new Set(
    [
      ...model.entities.map((e) => e.table),
      ...model.relations.flatMap((r) => (r.pivotTable ? [r.pivotTable] : [])),
      ...AUTH_TABLE_NAMES,
      MAIL_LOG_TABLE,
      MEDIA_TABLE,
    ].map((t) => t.toLowerCase()),
  );
  const out: OrphanTable[] = [];
  for (const table of await listTables(handle)) {
    if (described.has(table.toLowerCase()) || table.toLowerCase().startsWith('fw_')) continue;
    const count = await handle.fetchOne<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${quoteIdentifier(table, dialectOf(handle))}`);
    out.push({ table, rows: Number(count?.n ?? 0) });
  }
  return out;
}
