/**
 * The user's files of an entity's CRUD pages (manual: created once, never overwritten): the controller, the model and
 * the form class, and the views `index.html`, `show.html`, `form.html`, `_table.html`, `_pagination.html`,
 * `_results.html`. Each is a few lines on the framework's (fw-mvc/crud, runtime/views/crud/): its text is a stub of
 * `stubs/` with the entity's names in place (docs/decisions.md "The CRUD in the runtime").
 */
import type { PlannedFile } from '../planned-file.js';
import { withManualMarker } from '../marker.js';
import { renderStub, type StubValues } from '../stub.js';
import { descriptionNames } from './description.js';
import type { FieldNode } from '../../compiler/ir.js';
import type { CrudPlan } from './plan.js';

/** The stub files, by name (`controller.ts`, `index.html`…: the file they give, `stubs/<name>.stub`). */
export const CRUD_STUBS = [
  'controller.ts',
  'model.ts',
  'form.ts',
  'index.html',
  'show.html',
  'form.html',
  '_table.html',
  '_pagination.html',
  '_results.html',
] as const;
export type CrudStubName = (typeof CRUD_STUBS)[number];
/** The text of each stub, as the command read it (cli/stubs.ts). */
export type CrudStubs = Readonly<Record<CrudStubName, string>>;

function pascal(snake: string): string {
  return snake
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The names the stubs write, for this entity (`example`, `media`: another field for the comments, other media: upgrade's bases). */
export function stubValues(plan: CrudPlan, example = exampleField(plan), media = plan.media !== null): StubValues {
  const { constant, rowType } = descriptionNames(plan);
  return {
    Entity: plan.entityClass,
    snake: plan.entity.snake,
    views: plan.viewDir,
    constant,
    rowType,
    Controller: plan.controllerClass,
    Model: plan.modelClass,
    Form: plan.formClass,
    fieldsConst: plan.fieldsConst,
    field: example.name,
    Field: pascal(example.name),
    column: `t.${example.column}`,
    media,
  };
}

/** The field the comments take as an example: the one that names a record on the pages, else the key. */
function exampleField(plan: CrudPlan): FieldNode {
  return plan.listFields.find((f) => f.input === 'text' || f.input === 'email')?.field ?? plan.primaryKey;
}

/** The manual files, from their stubs. */
export function manualCrudFiles(plan: CrudPlan, stubs: CrudStubs, values = stubValues(plan)): PlannedFile[] {
  const snake = plan.entity.snake;
  const views = `mvc/views/${plan.viewDir}`;
  const paths: Record<CrudStubName, string> = {
    'controller.ts': `mvc/controllers/${snake}_controller.ts`,
    'model.ts': `mvc/models/${snake}_model.ts`,
    'form.ts': `mvc/forms/${snake}_form.ts`,
    'index.html': `${views}/index.html`,
    'show.html': `${views}/show.html`,
    'form.html': `${views}/form.html`,
    '_table.html': `${views}/_table.html`,
    '_pagination.html': `${views}/_pagination.html`,
    '_results.html': `${views}/_results.html`,
  };
  // Each starts with the line that records what was written (docs/decisions.md "Upgrading an entity's files").
  const command = `make:crud ${plan.entityClass}`;
  return CRUD_STUBS.map((name) => ({
    path: paths[name],
    content: withManualMarker(command, renderStub(name, stubs[name], values), name.endsWith('.ts') ? 'ts' : 'template'),
    kind: 'manual' as const,
  }));
}

/**
 * What the stubs would have written for the entity as it may have been when they wrote: each field as the comments'
 * example, with and without media. `make:crud --upgrade` looks there for the text whose hash a file records, when the
 * entity changed since (docs/decisions.md "Upgrading an entity's files").
 */
export function manualCrudVariants(plan: CrudPlan, stubs: CrudStubs): PlannedFile[] {
  const fields = [plan.primaryKey, ...plan.entity.fields.filter((f) => f !== plan.primaryKey)];
  return fields.flatMap((field) => [true, false].flatMap((media) => manualCrudFiles(plan, stubs, stubValues(plan, field, media))));
}
