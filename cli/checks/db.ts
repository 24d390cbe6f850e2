/**
 * The database checks (family `db`, ids FW-DB-001 to FW-DB-003): the connection with the application's account
 * within a few seconds (cli/checks/database.ts: one connection per context, a SQLite file never created), the
 * tables and columns the generated code of the project reads that the database lacks (FAIL: its pages answer 500),
 * and the rest of the drift between the entities and the real tables that `migration:diff --all` shows
 * (cli/db/diff.ts, WARN). Read-only. See docs/diagnostics.md.
 */
import type { EntityNode } from '../../compiler/ir.js';
import type { DiffRow } from '../db/diff.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { databaseReads } from './database.js';
import { entryKind, readSource } from './files.js';

function db(id: number, label: string): CheckDefinition {
  return { id: `FW-DB-${String(id).padStart(3, '0')}`, family: 'db', label };
}

const D = {
  connection: db(1, 'Connexion à la base'),
  drift: db(2, 'Écarts entre entités et tables (migration:diff --all)'),
  read: db(3, 'Tables et colonnes lues par le code généré'),
} as const;

/** Every id the family can produce, with its label. */
export const DB_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/**
 * FW-DB-001: the database answers the application's account. FAIL when it is configured and does not answer (the
 * host and port named); SKIP when it is not configured; WARN for a SQLite file that does not exist yet.
 */
export const connectionCheck: CheckFunction = async (context) => {
  const reads = await databaseReads(context);
  // project:check (CI) compares the schema when a database answers, and says why when none does.
  const strict = context.command !== 'project:check';
  switch (reads.state) {
    case 'unconfigured':
      return [result(D.connection, 'SKIP', `base non configurée : ${reads.reason}`)];
    case 'no-file':
      if (!strict) return [result(D.connection, 'SKIP', `le fichier SQLite ${reads.file} n'existe pas encore : le schéma n'est pas comparé`)];
      return [result(D.connection, 'WARN', `le fichier SQLite ${reads.file} n'existe pas encore`, '« fw db:init » ou « fw db:apply » le crée')];
    case 'unavailable':
      if (!strict) return [result(D.connection, 'SKIP', `base injoignable : ${reads.summary} ; le schéma n'est pas comparé`)];
      return [result(D.connection, 'FAIL', reads.summary, reads.advice)];
    default:
      return [result(D.connection, 'OK', `${reads.target} répond (${reads.elapsedMs} ms)`)];
  }
};

/** The regenerable files of an entity that read its table: its base class and, when its CRUD pages exist, their module. */
function generatedReaders(entity: EntityNode): string[] {
  return [`mvc/entities/${entity.snake}/${entity.snake}_base.ts`, `mvc/models/${entity.snake}_crud.ts`];
}

/**
 * The rows of `rows` the generated code on disk reads: a missing table when a generated file of the entity exists,
 * a missing column when one of them names it (`row['nom']`, `t.nom`). A field added to the entity file and not yet
 * generated is not read by anything: it stays a difference (FW-DB-002).
 */
function readByGeneratedCode(root: string, entity: EntityNode, rows: readonly DiffRow[]): DiffRow[] {
  const texts = generatedReaders(entity)
    .filter((file) => entryKind(root, file) === 'file')
    .map((file) => readSource(root, file))
    .flatMap((read) => (read.ok ? [read.text] : []));
  if (texts.length === 0) return [];
  return rows.filter((row) => {
    if (row.status === 'TABLE_MISSING') return true;
    if (row.status !== 'COLUMN_MISSING') return false;
    const name = new RegExp(`(?<![\\w$])${row.column.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`);
    return texts.some((text) => name.test(text));
  });
}

/** `table contact absente`, `colonne Nom absente`, `colonnes Nom, Code absentes`. */
function missingText(rows: readonly DiffRow[]): string {
  if (rows[0]!.status === 'TABLE_MISSING') return `table ${rows[0]!.column} absente`;
  const names = rows.map((row) => row.column).join(', ');
  return rows.length > 1 ? `colonnes ${names} absentes` : `colonne ${names} absente`;
}

const summarize = (rows: readonly DiffRow[]): string => {
  const shown = rows.slice(0, 3).map((row) => `${row.status} ${row.column}`);
  return `${rows.length} écart(s) : ${shown.join(', ')}${rows.length > 3 ? `, et ${rows.length - 3} autre(s)` : ''}`;
};

/**
 * FW-DB-002 and FW-DB-003: each entity's table as `migration:diff --all` compares it. A table or a column the
 * generated code reads that the database lacks is a FAIL (FW-DB-003: the entity's pages answer 500); any other
 * difference (an extra or changed column, an index, a foreign key, a field not generated yet) a WARN (FW-DB-002).
 */
export const driftCheck: CheckFunction = async (context) => {
  const reads = await databaseReads(context);
  if (reads.state !== 'open') {
    const why = reads.state === 'no-file' ? 'pas encore de base' : 'base non lue (voir FW-DB-001)';
    return [result(D.drift, 'SKIP', why), result(D.read, 'SKIP', why)];
  }
  if (!reads.model) {
    const why = 'les entités ne se compilent pas (« fw check:model » dit pourquoi)';
    return [result(D.drift, 'SKIP', why), result(D.read, 'SKIP', why)];
  }
  if (reads.model.entities.length === 0) return [result(D.drift, 'OK', 'aucune entité'), result(D.read, 'OK', 'aucune entité')];
  const { diffEntity } = await import('../db/diff.js');
  const warnings: CheckResult[] = [];
  const failures: CheckResult[] = [];
  for (const entity of reads.model.entities) {
    const rows = diffEntity(reads.model, entity, reads.tables.get(entity.table) ?? null, reads.dialect).filter((row) => row.status !== 'OK');
    if (rows.length === 0) continue;
    const read = readByGeneratedCode(context.root, entity, rows);
    const rest = rows.filter((row) => !read.includes(row));
    if (read.length > 0) {
      const advice =
        read[0]!.status === 'TABLE_MISSING'
          ? '« fw db:apply » crée la table'
          : `remettez la colonne (« fw migration:make <nom> --from-diff ${entity.name} » prépare la migration qui l'ajoute, « fw migration:apply » l'applique), ou retirez le champ de ${entity.file} puis « fw sync:entity ${entity.name} »`;
      failures.push(
        result(
          D.read,
          'FAIL',
          `${entity.name} (${entity.table}) : ${missingText(read)} de ${reads.target}, alors que le code généré ${read.length > 1 ? 'les' : 'la'} lit : ses pages répondent 500`,
          advice,
        ),
      );
    }
    if (rest.length === 0) continue;
    const advice = `« fw migration:diff --entity ${entity.name} » les détaille, « fw migration:make <nom> --from-diff ${entity.name} » prépare la migration`;
    if (rest[0]!.status === 'TABLE_MISSING')
      warnings.push(result(D.drift, 'WARN', `${entity.name} (${entity.table}) : ${summarize(rest)}`, '« fw db:apply » crée la table'));
    else warnings.push(result(D.drift, 'WARN', `${entity.name} (${entity.table}) : ${summarize(rest)}`, advice));
  }
  const count = reads.model.entities.length;
  return [
    ...(warnings.length > 0 ? warnings : [result(D.drift, 'OK', `${count} entité(s) conforme(s) à ${reads.target}`)]),
    ...(failures.length > 0 ? failures : [result(D.read, 'OK', `les tables et colonnes que lit le code généré sont dans ${reads.target}`)]),
  ];
};

/** The database checks in report order. */
export const DB_CHECKS: readonly CheckFunction[] = [connectionCheck, driftCheck];
