/** Shared steps of the generating commands: plan the files through the writer, apply unless dry-run, print. */
import fs from 'node:fs';
import path from 'node:path';
import type { ModelNode } from '../compiler/ir.js';
import type { PlannedFile } from '../emitters/index.js';
import type { Command } from 'commander';
import type { WritePlan } from './writer.js';

export interface GenerateOptions {
  dryRun: boolean;
  force: boolean;
  /** `--check`: write nothing, exit 2 when a regenerable file is stale (CI). */
  check: boolean;
}

/** Declares `--dry-run` and `--force` on a generating command. */
export function generateOptions(command: Command): Command {
  return command
    .option('--dry-run', "affiche ce qui changerait sans rien écrire")
    .option('--force', "réécrit aussi les fichiers générés dont la ligne « generated » a été retirée");
}

/** Declares `--check` (build:model, make:crud). */
export function checkOption(command: Command): Command {
  return command.option('--check', 'n’écrit rien ; code 2 et la liste des fichiers générés périmés (CI)');
}

export function readGenerateOptions(options: Readonly<Record<string, unknown>>): GenerateOptions {
  return { dryRun: options.dryRun === true, force: options.force === true, check: options.check === true };
}

/**
 * The regenerable files that differ from what the entities give (absent, or changed while keeping their marker
 * line). Manual files and files the user took over (marker removed) are never stale: they are the user's.
 */
export function staleFiles(plan: WritePlan): string[] {
  return plan.entries.filter((e) => e.kind === 'regenerable' && (e.fate === 'created' || e.fate === 'updated')).map((e) => e.path);
}

/** `--check`'s report and exit code: 0 when every regenerable file is up to date, 2 otherwise. */
export function reportStale(plan: WritePlan, command: string): number {
  const stale = staleFiles(plan);
  if (stale.length === 0) {
    process.stdout.write('Fichiers générés à jour.\n');
    return 0;
  }
  process.stdout.write(`Fichiers générés périmés (${stale.length}) :\n${stale.map((file) => `  ${file}\n`).join('')}Régénérez-les avec « ${command} ».\n`);
  return 2;
}

/** Plans, applies (atomically) and reports the files; returns the exit code. */
export async function generate(root: string, files: PlannedFile[], options: GenerateOptions, command = 'fw build:model'): Promise<number> {
  const { planWrites, applyPlan, formatPlan } = await import('./writer.js');
  const plan = planWrites(root, files, { force: options.force });
  if (options.check) return reportStale(plan, command);
  if (!options.dryRun) applyPlan(plan);
  process.stdout.write(formatPlan(plan, { dryRun: options.dryRun }));
  return 0;
}

/**
 * The regenerable CRUD files of the entities whose CRUD pages exist (their `mvc/models/<snake>_crud.ts` is there),
 * so that sync:entity and build:model bring an entity change into the pages (docs/crud.md "Regenerable files").
 */
export async function existingCrudFiles(root: string, model: ModelNode, entityNames: readonly string[]): Promise<PlannedFile[]> {
  // The files only, not the routes edit: this module does not load ts-morph.
  const crud = await import('../emitters/crud/files.js');
  const withCrud = model.entities.filter(
    (entity) => entityNames.includes(entity.name) && entity.primaryKey.logicalType === 'int' && fs.existsSync(path.join(root, crud.crudModulePath(entity.snake))),
  );
  // The pages handle media when make:crud --media wrote the entity's media module.
  return withCrud.flatMap((entity) =>
    crud.crudRegenerableFiles(crud.planCrud(model, entity.name, { media: fs.existsSync(path.join(root, crud.mediaModulePath(entity.snake))) })),
  );
}
