/**
 * The stub files of the generators, read from the installed package (`emitters/<family>/stubs/`, shipped in its
 * "files") and passed to the emitters, which never read the disk (docs/decisions.md "The CRUD in the runtime").
 */
import fs from 'node:fs';
import path from 'node:path';
import { CRUD_STUBS, type CrudStubs } from '../emitters/crud/manual.js';
import { packageInfo } from './package-root.js';

/** The folder of the CRUD stubs in the package. */
export function crudStubsDir(root = packageInfo().root): string {
  return path.join(root, 'emitters', 'crud', 'stubs');
}

/** The CRUD stubs (`controller.ts`, `index.html`…), each `stubs/<name>.stub`, read once per call. */
export function readCrudStubs(root = packageInfo().root): CrudStubs {
  const dir = crudStubsDir(root);
  return Object.fromEntries(CRUD_STUBS.map((name) => [name, fs.readFileSync(path.join(dir, `${name}.stub`), 'utf8')])) as CrudStubs;
}
