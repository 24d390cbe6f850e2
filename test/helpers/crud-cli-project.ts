// The projects of the `fw make:crud` CLI tests: entity definitions (Ville, Contact and their many-to-one), the
// packages linked as after `npm install` (no network), `fw` runs that must succeed, and the routes make:crud adds.
import fs from 'node:fs';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { REPO, type CliProject } from './cli.js';

export function ok(target: CliProject, args: string[]): string {
  const run = target.run(args);
  assert.is(run.status, 0, `fw ${args.join(' ')} : ${run.stdout}${run.stderr}`);
  return run.stdout;
}

/**
 * `node_modules/fw-mvc` and `node_modules/fw-mvc-cli` → this repository (which holds both packages) and `@types` →
 * ours, as after `npm install` (no network).
 */
export function linkPackages(target: CliProject): void {
  fs.mkdirSync(target.path('node_modules'), { recursive: true });
  fs.symlinkSync(REPO, target.path('node_modules/fw-mvc'), 'dir');
  fs.symlinkSync(REPO, target.path('node_modules/fw-mvc-cli'), 'dir');
  fs.symlinkSync(path.join(REPO, 'node_modules', '@types'), target.path('node_modules/@types'), 'dir');
}

export const ID = { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true };

export const VILLE = {
  format_version: 1,
  entity: 'Ville',
  table: 'villes',
  fields: [ID, { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } }],
};

export const CONTACT = {
  format_version: 1,
  entity: 'Contact',
  table: 'contacts',
  fields: [
    ID,
    { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true }, list: { filter: true } },
    { name: 'prenom', sql_type: 'VARCHAR(100)' },
    { name: 'email', sql_type: 'VARCHAR(190)', unique: true },
    { name: 'telephone', sql_type: 'VARCHAR(30)', nullable: true },
    { name: 'actif', sql_type: 'BOOLEAN', list: { filter: true } },
    { name: 'notes', sql_type: 'TEXT', nullable: true },
    { name: 'ville_id', sql_type: 'INT', nullable: true },
  ],
};

export const CONTACT_VILLE = [
  'make:relation',
  '--name',
  'contact_ville',
  '--type',
  'many_to_one',
  '--from',
  'Contact.ville_id',
  '--to',
  'Ville.id',
  '--on-delete',
  'SET NULL',
  '--on-update',
  'CASCADE',
  '--no-input',
];

export function writeEntity(target: CliProject, definition: { entity: string }): void {
  const snake = definition.entity.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  target.write(`mvc/entities/${snake}/${snake}.json`, `${JSON.stringify(definition, null, 2)}\n`);
}

/** A generated CRUD route (docs/crud.md "Routes"): [method, path suffix, action, name]. */
export type CrudRoute = readonly [method: string, suffix: string, action: string, name: string];

/** The routes make:crud adds for an entity, in its order. */
export const CRUD_ROUTES: readonly CrudRoute[] = [
  ['GET', '', 'index', 'index'],
  ['GET', '/new', 'create', 'new'],
  ['POST', '', 'store', 'store'],
  ['GET', '/export.csv', 'exportCsv', 'export'],
  ['POST', '/bulk-delete', 'bulkDelete', 'bulk_delete'],
  ['POST', '/bulk-delete/confirm', 'bulkDeleteConfirm', 'bulk_delete_confirm'],
  ['GET', '/{id}', 'show', 'show'],
  ['GET', '/{id}/edit', 'edit', 'edit'],
  ['POST', '/{id}', 'update', 'update'],
  ['POST', '/{id}/delete', 'destroy', 'delete'],
];

/** One route line as make:crud writes it into registerRoutes (without its indentation). */
export function crudRouteLine(entity: string, plural: string, [method, suffix, action, name]: CrudRoute, isPublic: boolean): string {
  return `router.add('${method}', '/${plural}${suffix}', ${entity}Controller.${action}, { name: '${plural}.${name}'${isPublic ? ', public: true' : ''} });`;
}
