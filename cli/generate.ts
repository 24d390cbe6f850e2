/** Shared steps of the generating commands: plan the files through the writer, apply unless dry-run, print. */
import fs from 'node:fs';
import path from 'node:path';
import type { EntityNode, ModelNode } from '../compiler/ir.js';
import type { PlannedFile } from '../emitters/index.js';
import type { Command } from 'commander';
import { CliError } from './errors.js';
import type { WritePlan } from './writer.js';
import { formatLegacyRoleMaps, type LegacyRoleMap } from './role-maps.js';

export interface GenerateOptions {
  dryRun: boolean;
  force: boolean;
  /** `--check`: write nothing, exit 2 when a regenerable file is stale (CI). */
  check: boolean;
}

/** Declares `--dry-run` and `--force` on a generating command. */
export function generateOptions(command: Command): Command {
  return command
    .option('--dry-run', 'affiche ce qui changerait sans rien écrire')
    .option('--force', 'réécrit aussi les fichiers générés dont la ligne « generated » a été retirée');
}

/** Declares `--check` (build:model, make:crud). */
export function checkOption(command: Command): Command {
  return command.option('--check', "n'écrit rien ; code 2 et la liste des fichiers générés périmés (CI)");
}

export function readGenerateOptions(options: Readonly<Record<string, unknown>>): GenerateOptions {
  return { dryRun: options.dryRun === true, force: options.force === true, check: options.check === true };
}

/**
 * The regenerable files that differ from what the entities give (absent, or changed while keeping their marker
 * line). Manual files and files the user took over (marker removed) are never stale: they are the user's.
 */
export function staleFiles(plan: WritePlan): string[] {
  return plan.entries.filter((e) => e.kind === 'regenerable' && (e.fate === 'updated' || (e.fate === 'created' && !sqlWithoutStatement(e)))).map((e) => e.path);
}

/**
 * A SQL file that does not exist yet and would hold only comments (the relation files of a model without
 * relations): nothing is missing from the database's point of view, so a new project passes `--check` before its
 * first `fw build:model`.
 */
function sqlWithoutStatement(entry: WritePlan['entries'][number]): boolean {
  if (!entry.path.endsWith('.sql') || typeof entry.content !== 'string') return false;
  return entry.content.split('\n').every((line) => line.trim() === '' || line.trimStart().startsWith('--'));
}

/**
 * `--check`'s report and exit code: 0 when every regenerable file is up to date, 2 otherwise. A controller that keeps
 * its own role map differing from the entity's role block counts too: its pages do not follow the entity file.
 */
export function reportStale(plan: WritePlan, command: string, legacy: readonly LegacyRoleMap[] = []): number {
  const stale = staleFiles(plan);
  const roleDrift = legacy.filter((m) => m.differs);
  const notes = formatLegacyRoleMaps(legacy);
  if (stale.length === 0 && roleDrift.length === 0) {
    process.stdout.write(`Fichiers générés à jour.\n${notes}`);
    return 0;
  }
  if (stale.length > 0) {
    process.stdout.write(
      `Fichiers générés périmés (${stale.length}) :\n${stale.map((file) => `  ${file}\n`).join('')}Régénérez-les avec « ${command} » ; une modification faite à la main y serait perdue : déplacez-la d'abord dans le fichier manuel (docs/diagnostics.md, FW-GEN-001).\n`,
    );
  }
  process.stdout.write(notes);
  return 2;
}

/** Plans, applies (atomically) and reports the files; returns the exit code. */
export async function generate(
  root: string,
  files: PlannedFile[],
  options: GenerateOptions,
  command = 'fw build:model',
  legacy: readonly LegacyRoleMap[] = [],
): Promise<number> {
  const { planWrites, applyPlan, formatPlan } = await import('./writer.js');
  const plan = planWrites(root, files, { force: options.force });
  if (options.check) return reportStale(plan, command, legacy);
  if (!options.dryRun) applyPlan(plan);
  process.stdout.write(formatPlan(plan, { dryRun: options.dryRun }) + formatLegacyRoleMaps(legacy));
  return 0;
}

/** The regenerable CRUD files of one entity. */
export interface EntityCrudFiles {
  readonly entity: EntityNode;
  readonly files: PlannedFile[];
}

/**
 * The regenerable CRUD files of the entities whose CRUD pages exist (their `mvc/models/<snake>_crud.ts` is there), so
 * that sync:entity and build:model bring an entity change into the pages (docs/crud.md "Regenerable files: an entity
 * change reaches the pages").
 */
export async function existingCrud(root: string, model: ModelNode, entityNames: readonly string[]): Promise<EntityCrudFiles[]> {
  // The files only, not the routes edit: this module does not load ts-morph.
  const crud = await import('../emitters/crud/files.js');
  const withCrud = model.entities.filter(
    (entity) =>
      entityNames.includes(entity.name) && entity.primaryKey.logicalType === 'int' && fs.existsSync(path.join(root, crud.crudModulePath(entity.snake))),
  );
  // The pages handle media when make:crud --media wrote the entity's media module; an older project's crud_media.ts
  // becomes a re-export of fw-mvc/media (docs/upgrading.md).
  const legacyCrudMedia = fs.existsSync(path.join(root, crud.CRUD_MEDIA_PATH));
  const { importsLegacyCrudNames } = await import('./crud-names.js');
  return withCrud.map((entity) => {
    const plan = crud.planCrud(model, entity.name, { media: fs.existsSync(path.join(root, crud.mediaModulePath(entity.snake))) });
    const legacyCrudNames = importsLegacyCrudNames(root, entity.snake, Object.values(crud.descriptionNames(plan)));
    return { entity, files: crud.crudRegenerableFiles(plan, { legacyCrudMedia, legacyCrudNames }) };
  });
}

/**
 * Refuses, before anything is written, a run that would bring another entity's CRUD pages to its entity file while
 * its base class and SQL stay as its last `fw sync:entity` left them: its pages would use
 * fields that its base class lacks, and the project would no longer type-check. `others` are those entities, with the
 * files of the run that belong to them (docs/entities.md "A related entity changed too").
 */
export async function refuseHalfSync(
  root: string,
  model: ModelNode,
  files: readonly PlannedFile[],
  others: readonly EntityCrudFiles[],
  command: string,
): Promise<void> {
  const { planWrites } = await import('./writer.js');
  const { entityFiles } = await import('../emitters/index.js');
  const inRun = new Set(files.map((f) => f.path));
  const changed = new Set(staleFiles(planWrites(root, [...files])));
  const behind: EntityNode[] = [];
  for (const { entity, files: own } of others) {
    if (!own.some((f) => changed.has(f.path))) continue;
    const left = entityFiles(model, entity).filter((f) => f.kind === 'regenerable' && !inRun.has(f.path));
    if (staleFiles(planWrites(root, left)).length > 0) behind.push(entity);
  }
  if (behind.length === 0) return;
  const names = behind.map((e) => e.name);
  const one = behind.length === 1;
  throw new CliError(
    `${names.join(', ')} ${one ? 'a' : 'ont'} changé (${behind.map((e) => e.file).join(', ')}) depuis ${one ? 'son' : 'leur'} dernier « fw sync:entity » : « ${command} » réécrirait ${one ? 'ses' : 'leurs'} pages sans ${one ? 'sa' : 'leur'} classe de base ni ${one ? 'son' : 'leur'} SQL, et le projet ne compilerait plus. Aucun fichier n'a été écrit.`,
    `lancez ${names.map((n) => `« fw sync:entity ${n} »`).join(', ')} puis relancez « ${command} », ou « fw build:model », qui régénère toutes les entités d'un coup.`,
  );
}
