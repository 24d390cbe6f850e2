/** `fw migration:diff --entity <E> [--check] | --all`: read-only comparison of entities with the real columns, defaults, keys, foreign keys and CHECKs. */
import type { Command } from 'commander';
import { findEntity, type EntityNode } from '../../../compiler/ir.js';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { compileOrFail, projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command
    .option('--entity <Entité>', "l'entité à comparer")
    .option('--all', 'compare toutes les entités')
    .option('--check', 'code de sortie 2 au moindre écart (pour la CI)')
    .option('--json', 'résultat en JSON');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  if (typeof options.entity !== 'string' && options.all !== true) {
    throw new CliError('précisez « --entity <Entité> » ou « --all ».', 'exemple : fw migration:diff --entity Contact --check');
  }
  const model = await compileOrFail(root);
  let entities: readonly EntityNode[];
  if (options.all === true) {
    entities = model.entities;
  } else {
    const entity = findEntity(model, options.entity as string);
    if (!entity) {
      throw new CliError(
        `entité « ${String(options.entity)} » introuvable (entités connues : ${model.entities.map((e) => e.name).join(', ') || 'aucune'}).`,
        'vérifiez le nom (PascalCase) dans mvc/entities/.',
      );
    }
    entities = [entity];
  }
  const { readDbSettings, openHandle, usingHandle } = await import('../../db/connection.js');
  const { dialectOf, readTable } = await import('../../db/schema.js');
  const { diffEntity, formatDiff, hasDrift } = await import('../../db/diff.js');
  const settings = readDbSettings(root);
  const { orphanTables } = await import('../../db/orphan-tables.js');
  let orphans: Awaited<ReturnType<typeof orphanTables>> = [];
  const results = await usingHandle(openHandle(settings, 'app', { poolSize: 1 }), async (db) => {
    const out: Array<{ entity: EntityNode; rows: ReturnType<typeof diffEntity> }> = [];
    for (const entity of entities) out.push({ entity, rows: diffEntity(model, entity, await readTable(db, entity.table), dialectOf(db)) });
    // --all: the tables no entity describes any more (docs/entities.md "Removing an entity").
    if (options.all === true) orphans = await orphanTables(db, model);
    return out;
  });
  const orphanDetail = (rows: number): string => `table sans entité ni relation (${rows} ligne(s)) : supprimez-la par une migration ou recréez son entité`;
  const drift = results.some((r) => hasDrift(r.rows)) || orphans.length > 0;
  if (options.json === true) {
    const json: Array<{ entity: string | null; table: string; rows: Array<{ status: string; column: string; detail: string; from?: string }> }> = results.map(
      (r) => ({
        entity: r.entity.name,
        table: r.entity.table,
        rows: r.rows.map(({ status, column, detail, from }) => ({ status, column, detail, ...(from === undefined ? {} : { from }) })),
      }),
    );
    for (const orphan of orphans) {
      json.push({ entity: null, table: orphan.table, rows: [{ status: 'TABLE_EXTRA', column: orphan.table, detail: orphanDetail(orphan.rows) }] });
    }
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    for (const { entity, rows } of results) {
      if (results.length > 1) process.stdout.write(`\n${entity.name} (${entity.table})\n`);
      process.stdout.write(formatDiff(rows));
    }
    if (orphans.length > 0) {
      process.stdout.write('\nTables sans entité\n');
      process.stdout.write(formatDiff(orphans.map((o) => ({ status: 'TABLE_EXTRA', column: o.table, detail: orphanDetail(o.rows) }))));
    }
    process.stdout.write(drift ? 'Écarts trouvés : « fw migration:make <nom> --from-diff <Entité> » prépare la migration.\n' : 'Aucun écart.\n');
  }
  return drift && options.check === true ? 2 : 0;
}
