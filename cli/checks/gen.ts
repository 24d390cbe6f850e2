/**
 * Family `gen` (FW-GEN-001): the regenerable files of the project (first line `fw-mvc: generated file, do not edit`)
 * compared with what the entities give, by the code of `fw build:model --check` (the writer's plan,
 * cli/generate.ts `staleFiles`): the entities' base classes and SQL, the relation files, and the regenerable files
 * of the CRUD pages that exist. A file that differs while keeping its marker line (edited by hand, or an entity
 * changed since) is a WARN naming it and both ways out: the edit moved into the manual file beside it, or the file
 * regenerated (which drops the edit). A file whose marker line was removed is the user's, never reported. A generated
 * file reached by a link that leads out of the project is left out (FW-STRUCT-008 reports the link). Read-only.
 */
import path from 'node:path';
import type { EntityNode } from '../../compiler/ir.js';
import { CliError } from '../errors.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { compiledModel } from './database.js';
import { outsideProject } from './files.js';

function gen(id: number, label: string): CheckDefinition {
  return { id: `FW-GEN-${String(id).padStart(3, '0')}`, family: 'gen', label };
}

const D = {
  stale: gen(1, 'Fichiers générés à jour (build:model --check)'),
} as const;

export const GEN_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/** The views partials and the manual view that includes them (same folder). */
const VIEW_OWNERS: Readonly<Record<string, string>> = {
  '_fields.html': 'form.html',
  '_media_fields.html': 'form.html',
  '_filters.html': 'index.html',
  '_list_head.html': '_table.html',
  '_list_cells.html': '_table.html',
  '_media_show.html': 'show.html',
};

/** Where an edit of the regenerable `file` belongs: the manual file (or the entity file) that the generator never rewrites. */
export function manualHome(file: string, entity: EntityNode | null): string {
  const base = path.posix.basename(file);
  const folder = path.posix.dirname(file);
  if (entity) {
    if (base === `${entity.snake}_base.ts`) return `${folder}/${entity.snake}.ts`;
    if (base.endsWith('.sql')) return entity.file;
    if (file === `mvc/models/${entity.snake}_crud.ts`) return `mvc/models/${entity.snake}_model.ts`;
    if (file === `mvc/models/${entity.snake}_media.ts`) return `mvc/controllers/${entity.snake}_controller.ts`;
    if (file === `mvc/forms/${entity.snake}_fields.ts`) return `mvc/forms/${entity.snake}_form.ts`;
  }
  if (base.startsWith('relations') && base.endsWith('.sql')) return 'mvc/entities/relations.json';
  const view = VIEW_OWNERS[base];
  if (view) return `${folder}/${view}`;
  return entity ? entity.file : 'le fichier manuel voisin';
}

/** FW-GEN-001: every regenerable file is what the entities give, as `fw build:model --check` judges it. */
export const generatedFilesCheck: CheckFunction = async (context) => {
  const { root } = context;
  const model = await compiledModel(context);
  if (!model) return [result(D.stale, 'SKIP', 'les entités ne se compilent pas (voir FW-ENTITY-002)')];
  if (model.entities.length === 0) return [result(D.stale, 'OK', 'aucune entité')];
  const { entityFiles, modelFiles } = await import('../../emitters/index.js');
  const { existingCrud, staleFiles } = await import('../generate.js');
  const crud = await existingCrud(
    root,
    model,
    model.entities.map((entity) => entity.name),
  );
  const owner = new Map<string, EntityNode>();
  for (const entity of model.entities) for (const file of entityFiles(model, entity)) if (!owner.has(file.path)) owner.set(file.path, entity);
  for (const { entity, files } of crud) for (const file of files) owner.set(file.path, entity);
  const files = [...modelFiles(model), ...crud.flatMap((c) => c.files)].filter((file) => file.kind === 'regenerable' && !outsideProject(root, file.path));
  const { planWrites } = await import('../writer.js');
  let plan: ReturnType<typeof planWrites>;
  try {
    plan = planWrites(root, files);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return [result(D.stale, 'SKIP', error.message.replace(/[.]$/, ''))];
  }
  const stale = new Set(staleFiles(plan));
  const out: CheckResult[] = [];
  for (const entry of plan.entries) {
    if (!stale.has(entry.path)) continue;
    const entity = owner.get(entry.path) ?? null;
    const regenerate = entity ? `« fw sync:entity ${entity.name} »` : '« fw sync:relations »';
    if (entry.fate === 'created') {
      out.push({ ...result(D.stale, 'WARN', `${entry.path} : fichier généré absent`, `${regenerate} le crée`), file: entry.path });
      continue;
    }
    out.push({
      ...result(
        D.stale,
        'WARN',
        `${entry.path} : fichier généré qui diffère de ce que donnent les entités (modifié à la main, ou entité changée depuis), « fw build:model --check » le refuse`,
        `pour garder une modification faite à la main, reportez-la dans ${manualHome(entry.path, entity)} (jamais réécrit) ; ensuite, ou si rien n'est à garder, ${regenerate} le régénère (et efface ce qui a été écrit à la main)`,
      ),
      file: entry.path,
    });
  }
  return out.length > 0 ? out : [result(D.stale, 'OK', `${plan.entries.length} fichier(s) généré(s) à jour`)];
};

export const GEN_CHECKS: readonly CheckFunction[] = [generatedFilesCheck];
