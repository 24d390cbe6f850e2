/**
 * The fixture project of the snapshots and of the emitter tests: the entity and relation JSON files of
 * test/fixtures/project/mvc/entities/ (Contact, Ville with the many-to-one `Contact.ville_id -> Ville.id`, Tag
 * with the many-to-many `contact_tag` and its pivot field `ajoute_le`), compiled by the real compiler.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileProject, findEntity, formatDiagnostics, type EntityNode, type ModelNode } from '../../compiler/index.js';

/** The fixture project's root (it holds only `mvc/entities/`), found from the compiled helper in dist/test/helpers/. */
export const FIXTURE_PROJECT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'project');

/** The fixture compiled as `fw build:model` compiles it; throws with the diagnostics when it does not compile. */
export function fixtureModel(): ModelNode {
  const result = compileProject(FIXTURE_PROJECT);
  if (!result.model) throw new Error(`test/fixtures/project ne compile pas :\n${formatDiagnostics(result.diagnostics)}`);
  return result.model;
}

/** One entity of the compiled fixture. */
export function fixtureEntity(name: string): EntityNode {
  const entity = findEntity(fixtureModel(), name);
  if (!entity) throw new Error(`test/fixtures/project n'a pas d'entité ${name}`);
  return entity;
}

/** Copies the fixture's `mvc/entities/` into a project (the `$schema` paths are the repository's, unused by the compiler). */
export function copyFixtureEntities(root: string): void {
  fs.cpSync(path.join(FIXTURE_PROJECT, 'mvc', 'entities'), path.join(root, 'mvc', 'entities'), { recursive: true });
}
