/**
 * `fw migration:make <name> [--from-entity <E> | --from-entities | --from-diff <E> | --framework]`: writes a
 * migration, never applies it. `--framework` compares the framework's own tables with their description
 * (cli/db/framework-diff.ts, docs/upgrading.md "The framework's tables").
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { findEntity, type EntityNode, type ModelNode } from '../../../compiler/ir.js';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { compileOrFail, projectRoot } from '../../current-project.js';

const EXAMPLE = 'fw migration:make ajout_contacts --from-entity Contact';

export function configure(command: Command): void {
  command
    .argument('<nom>', 'nom de la migration (snake_case)')
    .option('--from-entity <Entité>', "création de la table d'une entité")
    .option('--from-entities', 'création de toutes les tables et des relations')
    .option('--from-diff <Entité>', 'écart entre une entité et sa table réelle (connexion à la base)')
    .option('--framework', 'écart entre les tables du framework (auth, media, mail, jobs, sessions) et leur description (connexion à la base)');
}

/** `YYYYMMDDHHMMSS` in UTC. */
export function versionOf(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function requireEntity(model: ModelNode, name: string): EntityNode {
  const entity = findEntity(model, name);
  if (!entity)
    throw new CliError(
      `entité « ${name} » introuvable (entités connues : ${model.entities.map((e) => e.name).join(', ') || 'aucune'}).`,
      'vérifiez le nom (PascalCase) dans mvc/entities/.',
    );
  return entity;
}

/** The `--framework` migration, or null (after saying why) when the framework's tables match their description. */
async function frameworkMigration(root: string, name: string, emitters: typeof import('../../../emitters/index.js')): Promise<string | null> {
  const { databaseFileMissing, readDbSettings, openHandle, usingHandle } = await import('../../db/connection.js');
  const { diffFrameworkTables } = await import('../../db/framework-diff.js');
  const settings = readDbSettings(root);
  if (databaseFileMissing(settings)) {
    const { describeTarget } = await import('../../auth/database.js');
    throw new CliError(`la base ${describeTarget(settings)} n'existe pas encore : rien à comparer.`, 'lancez « fw db:init » (puis « fw db:apply »).');
  }
  const { modules, diffs } = await usingHandle(openHandle(settings, 'app', { poolSize: 1 }), (db) => diffFrameworkTables(db));
  if (modules.length === 0) {
    process.stdout.write('Aucune table du framework dans la base (auth, media, mail, jobs, sessions) : aucune migration écrite.\n');
    return null;
  }
  if (diffs.length === 0) {
    process.stdout.write(`Les tables du framework (${modules.join(', ')}) sont conformes à leur description : aucune migration écrite.\n`);
    return null;
  }
  for (const diff of diffs) {
    for (const change of diff.changes) process.stdout.write(`${diff.spec.table} : ${emitters.describeFrameworkChange(change)}\n`);
  }
  return emitters.emitFrameworkMigration(name, diffs);
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const name = String(args[0]);
  if (!/^[a-z][a-z0-9_]{0,100}$/.test(name)) {
    throw new CliError(`nom de migration invalide « ${name} » : snake_case attendu (minuscules, chiffres, « _ »).`, `exemple : ${EXAMPLE}`);
  }
  const sources = ['fromEntity', 'fromEntities', 'fromDiff', 'framework'].filter((key) => options[key] !== undefined && options[key] !== false);
  if (sources.length > 1)
    throw new CliError('choisissez une seule source parmi --from-entity, --from-entities, --from-diff et --framework.', `exemple : ${EXAMPLE}`);
  const root = projectRoot();
  const emitters = await import('../../../emitters/index.js');
  let content: string;
  if (sources.length === 0) {
    content = emitters.emitEmptyMigration(name);
  } else if (options.framework === true) {
    const found = await frameworkMigration(root, name, emitters);
    if (found === null) return 0;
    content = found;
  } else {
    const model = await compileOrFail(root);
    if (options.fromEntities === true) {
      const { dependencyOrder } = await import('../../../compiler/dependency-order.js');
      content = emitters.emitCreateMigration(name, model, dependencyOrder(model), true);
    } else if (typeof options.fromEntity === 'string') {
      content = emitters.emitCreateMigration(name, model, [requireEntity(model, options.fromEntity)], false);
    } else {
      const entity = requireEntity(model, String(options.fromDiff));
      const { readDbSettings, openHandle, usingHandle } = await import('../../db/connection.js');
      const { dialectOf, readTable } = await import('../../db/schema.js');
      const { changesOf, diffEntity } = await import('../../db/diff.js');
      const settings = readDbSettings(root);
      const rows = await usingHandle(openHandle(settings, 'app', { poolSize: 1 }), async (db) =>
        diffEntity(model, entity, await readTable(db, entity.table), dialectOf(db)),
      );
      const changes = changesOf(rows);
      if (changes.length === 0) {
        process.stdout.write(`Aucun écart entre ${entity.name} et la table ${entity.table} : aucune migration écrite.\n`);
        return 0;
      }
      content = emitters.emitDiffMigration(name, model, entity, changes);
    }
  }
  const dir = path.join(root, 'mvc', 'migrations');
  const taken = new Set(fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => f.slice(0, 14)) : []);
  let time = Date.now();
  while (taken.has(versionOf(new Date(time)))) time += 1000;
  const file = `mvc/migrations/${versionOf(new Date(time))}_${name}.sql`;
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const plan = planWrites(root, [{ path: file, content, kind: 'manual' }], {});
  applyPlan(plan);
  process.stdout.write(formatPlan(plan, { dryRun: false }));
  process.stdout.write("Relisez le fichier, puis « fw migration:apply » l'appliquera (« fw migration:status » montre l'état).\n");
  await warnEmptySections(file, content);
  return 0;
}

/**
 * A dialect section without any statement (a hand-written template, or one emptied by hand) is
 * refused by migration:apply on that dialect: said now, while the file is fresh.
 */
async function warnEmptySections(file: string, content: string): Promise<void> {
  const { dialectSection, splitSqlStatements } = await import('../../db/sql-split.js');
  const { DIALECT_NAMES } = await import('../../../runtime/db/dialect.js');
  const empty = DIALECT_NAMES.filter((dialect) => splitSqlStatements(dialectSection(content, dialect, file), dialect, file).length === 0);
  for (const dialect of empty) {
    process.stderr.write(
      `Attention : ${file} n'a encore aucune instruction pour ${dialect} : « fw migration:apply » la refusera sur ${dialect} tant que sa section « -- fw:dialect ${dialect} » est vide.\n`,
    );
  }
}
