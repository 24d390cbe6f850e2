/**
 * The database checks (family `db`, ids FW-DB-001 and FW-DB-002): the connection with the application's account
 * within a few seconds (cli/checks/database.ts: one connection per context, a SQLite file never created), and the
 * drift between the entities and the real tables that `migration:diff --all` shows (cli/db/diff.ts). Read-only.
 * See docs/diagnostics.md.
 */
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { databaseReads } from './database.js';

function db(id: number, label: string): CheckDefinition {
  return { id: `FW-DB-${String(id).padStart(3, '0')}`, family: 'db', label };
}

const D = {
  connection: db(1, 'Connexion à la base'),
  drift: db(2, 'Écarts entre entités et tables (migration:diff --all)'),
} as const;

/** Every id the family can produce, with its label. */
export const DB_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/**
 * FW-DB-001: the database answers the application's account. FAIL when it is configured and does not answer (the
 * host and port named); SKIP when it is not configured; WARN for a SQLite file that does not exist yet.
 */
export const connectionCheck: CheckFunction = async (context) => {
  const reads = await databaseReads(context);
  switch (reads.state) {
    case 'unconfigured':
      return [result(D.connection, 'SKIP', `base non configurée : ${reads.reason}`)];
    case 'no-file':
      return [result(D.connection, 'WARN', `le fichier SQLite ${reads.file} n'existe pas encore`, '« fw db:init » ou « fw db:apply » le crée')];
    case 'unavailable':
      return [result(D.connection, 'FAIL', reads.summary, reads.advice)];
    default:
      return [result(D.connection, 'OK', `${reads.target} répond (${reads.elapsedMs} ms)`)];
  }
};

/** FW-DB-002: each entity's table as `migration:diff --all` compares it; a WARN per entity that differs. */
export const driftCheck: CheckFunction = async (context) => {
  const reads = await databaseReads(context);
  if (reads.state !== 'open') return [result(D.drift, 'SKIP', reads.state === 'no-file' ? 'pas encore de base' : 'base non lue (voir FW-DB-001)')];
  if (!reads.model) return [result(D.drift, 'SKIP', 'les entités ne se compilent pas (« fw check:model » dit pourquoi)')];
  if (reads.model.entities.length === 0) return [result(D.drift, 'OK', 'aucune entité')];
  const { diffEntity } = await import('../db/diff.js');
  const out: CheckResult[] = [];
  for (const entity of reads.model.entities) {
    const rows = diffEntity(reads.model, entity, reads.tables.get(entity.table) ?? null, reads.dialect).filter((row) => row.status !== 'OK');
    if (rows.length === 0) continue;
    const shown = rows.slice(0, 3).map((row) => `${row.status} ${row.column}`);
    const more = rows.length > 3 ? `, et ${rows.length - 3} autre(s)` : '';
    const advice =
      rows[0]!.status === 'TABLE_MISSING'
        ? '« fw db:apply » crée la table'
        : `« fw migration:diff --entity ${entity.name} » les détaille, « fw migration:make <nom> --from-diff ${entity.name} » prépare la migration`;
    out.push(result(D.drift, 'WARN', `${entity.name} (${entity.table}) : ${rows.length} écart(s) : ${shown.join(', ')}${more}`, advice));
  }
  return out.length > 0 ? out : [result(D.drift, 'OK', `${reads.model.entities.length} entité(s) conforme(s) à ${reads.target}`)];
};

/** The database checks in report order. */
export const DB_CHECKS: readonly CheckFunction[] = [connectionCheck, driftCheck];
