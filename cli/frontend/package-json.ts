/** Reading and completing a project's package.json (js:init adds its npm dependencies there). */
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';

export const PACKAGE_JSON = 'package.json';

type PackageData = Record<string, unknown> & { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

/** The project's package.json as text and data; a CliError when it is missing or is not a JSON object. */
export function readPackageJson(root: string): { text: string; data: PackageData } {
  const file = path.join(root, PACKAGE_JSON);
  if (!fs.existsSync(file)) {
    throw new CliError(`package.json introuvable dans ${root}.`, 'lancez la commande à la racine d’un projet créé par « fw new » (ou créez package.json avec « npm init »).');
  }
  const text = fs.readFileSync(file, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CliError(`package.json n'est pas un JSON valide : ${(error as Error).message}`, 'corrigez le fichier, puis relancez la commande ; rien n’a été écrit.');
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new CliError('package.json doit contenir un objet JSON.', 'corrigez le fichier, puis relancez la commande ; rien n’a été écrit.');
  return { text, data: data as PackageData };
}

/**
 * package.json with `wanted` added to `dependencies` (sorted, as npm keeps them), keeping the file's indentation;
 * a package already in `dependencies` or `devDependencies` is left as it is. The same text when nothing is added.
 */
export function addDependencies(text: string, data: PackageData, wanted: ReadonlyArray<readonly [string, string]>): { text: string; added: string[] } {
  const present = (name: string): boolean => Boolean(data.dependencies?.[name] ?? data.devDependencies?.[name]);
  const missing = wanted.filter(([name]) => !present(name));
  if (missing.length === 0) return { text, added: [] };
  const dependencies: Record<string, string> = { ...(data.dependencies ?? {}) };
  for (const [name, range] of missing) dependencies[name] = range;
  const sorted = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)));
  const indent = /^[{]\r?\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  return { text: `${JSON.stringify({ ...data, dependencies: sorted }, null, indent)}\n`, added: missing.map(([name]) => name) };
}

/** The file of an installed package of the project (`node_modules/<name>/<file>`), or null when it is not installed. */
export function installedFile(root: string, packageName: string, file: string): string | null {
  const target = path.join(root, 'node_modules', ...packageName.split('/'), ...file.split('/'));
  return fs.statSync(target, { throwIfNoEntry: false })?.isFile() ? target : null;
}

/** The version of an installed package of the project, or null. */
export function installedVersion(root: string, packageName: string): string | null {
  const manifest = installedFile(root, packageName, 'package.json');
  if (!manifest) return null;
  try {
    const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}
