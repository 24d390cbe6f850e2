/**
 * Controllers written by an earlier `fw make:crud` that keep their own role map (`const ROLES` and `function
 * allowed`): the role block now lives in the regenerable `mvc/models/<snake>_crud.ts`, which such a controller does
 * not read, so that a block added or changed in the entity file would never reach its pages. sync:entity, build:model
 * and sync:relations warn about them; `--check` counts one whose map differs from the entity's block as stale
 * (docs/crud.md "Permissions": moving an older controller to `crud.allowed`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EntityNode } from '../compiler/ir.js';
import { tsString } from '../emitters/text.js';

export interface LegacyRoleMap {
  readonly entity: EntityNode;
  /** The controller, relative to the project. */
  readonly controller: string;
  /** Its role map is not the entity's role block (a block added, changed or removed since make:crud). */
  readonly differs: boolean;
}

/** The old helper: `function allowed(request: Request, permission: string)` in the controller itself. */
const OWN_HELPER = /^function allowed\(/m;
const OWN_MAP = /^const ROLES: [^=]*= \{\n([\s\S]*?)\n?\};/m;

/** The role map as the older make:crud wrote it, whitespace aside. */
function expectedMap(entity: EntityNode): string {
  if (!entity.rbac) return '';
  return Object.entries(entity.rbac.permissions)
    .map(([permission, list]) => `${permission}:[${list.map(tsString).join(',')}],`)
    .join('');
}

/** The controllers of `entities` that still hold their own role map. */
export function legacyRoleMaps(root: string, entities: readonly EntityNode[]): LegacyRoleMap[] {
  const found: LegacyRoleMap[] = [];
  for (const entity of entities) {
    const controller = `mvc/controllers/${entity.snake}_controller.ts`;
    const file = path.join(root, controller);
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    if (!OWN_HELPER.test(text)) continue;
    const map = (OWN_MAP.exec(text)?.[1] ?? '').replace(/\s+/g, '');
    found.push({ entity, controller, differs: map !== expectedMap(entity) });
  }
  return found;
}

/** The warning printed after a generation: one line per controller, then the way out. */
export function formatLegacyRoleMaps(maps: readonly LegacyRoleMap[]): string {
  if (maps.length === 0) return '';
  const lines = maps.map((m) => `  ${m.controller}${m.differs ? ` (ne suit pas le bloc « rbac » de ${m.entity.file})` : ''}\n`);
  return (
    `Attention : ${maps.length === 1 ? 'ce contrôleur garde sa propre' : 'ces contrôleurs gardent leur propre'} table des rôles (ROLES), que fw ne met pas à jour :\n${lines.join('')}` +
    'Remplacez ROLES et la fonction allowed par « const allowed = crud.allowed; » et passez « allowed: crud.allowedActions(request) » aux vues (docs/crud.md « Permissions »).\n'
  );
}
