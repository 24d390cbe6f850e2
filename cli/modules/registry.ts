/**
 * The registry `fw_modules.json` (docs/modules.md "The registry: `fw_modules.json`"): the file `fw new` writes, with
 * the framework reference, the profile and `modules`, a list of `{ "name": … }` entries. A framework module (`mfa`,
 * recorded by the starter) is just its name; a local module installed by `fw module:install` also has its `version` and
 * the `path` of its folder. Unknown keys, of the file or of an entry, are kept as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';
import type { LocalModule } from './manifest.js';

export const REGISTRY_FILE = 'fw_modules.json';

export interface RegistryEntry {
  readonly name: string;
  /** Local modules only: the manifest's version when installed. */
  readonly version?: string;
  /** Local modules only: the module's folder, posix and relative to the project root. */
  readonly path?: string;
  readonly [key: string]: unknown;
}

export interface Registry {
  /** The whole file (an empty object when absent). */
  readonly data: Readonly<Record<string, unknown>>;
  readonly modules: readonly RegistryEntry[];
}

const ADVICE = `corrigez ${REGISTRY_FILE} (un objet avec « modules » : une liste de { "name": … }, voir docs/modules.md), puis relancez la commande.`;

/** Reads the registry at the project root; an absent file is an empty registry, a malformed one a CliError. */
export function readRegistry(root: string): Registry {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, REGISTRY_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { data: {}, modules: [] };
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${REGISTRY_FILE} n'est pas un JSON valide (${(error as Error).message}) : rien n'a été écrit.`, ADVICE);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new CliError(`${REGISTRY_FILE} doit contenir un objet { … } : rien n'a été écrit.`, ADVICE);
  const modules = (data as { modules?: unknown }).modules ?? [];
  if (!Array.isArray(modules)) throw new CliError(`${REGISTRY_FILE}#/modules doit être une liste [ … ] : rien n'a été écrit.`, ADVICE);
  modules.forEach((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null || typeof (entry as { name?: unknown }).name !== 'string') {
      throw new CliError(`${REGISTRY_FILE}#/modules/${index} doit être un objet avec un « name » : rien n'a été écrit.`, ADVICE);
    }
  });
  return { data: data as Record<string, unknown>, modules: modules as RegistryEntry[] };
}

/** The entry of a name, if any. */
export function findEntry(registry: Registry, name: string): RegistryEntry | undefined {
  return registry.modules.find((entry) => entry.name === name);
}

/** True for an entry `fw module:install` wrote (it has the module's folder). */
export function isLocalEntry(entry: RegistryEntry): boolean {
  return typeof entry.path === 'string';
}

/** The registry's text with the module recorded (its entry replaced in place, or appended), other entries kept. */
export function registryWith(registry: Registry, module: LocalModule): string {
  const { name, version } = module.manifest;
  const previous = findEntry(registry, name);
  const entry: RegistryEntry = { ...previous, name, version, path: module.dir };
  const modules = previous ? registry.modules.map((e) => (e === previous ? entry : e)) : [...registry.modules, entry];
  return `${JSON.stringify({ ...registry.data, modules }, null, 2)}\n`;
}

/** The installed local module of that name, or a CliError saying how to install it. */
export function installedEntry(registry: Registry, name: string, command: string): RegistryEntry & { readonly path: string } {
  const entry = findEntry(registry, name);
  if (!entry || !isLocalEntry(entry)) {
    const framework = entry ? ` (« ${name} » y est un module du framework, pas un module local)` : '';
    throw new CliError(
      `le module « ${name} » n'est pas installé : ${REGISTRY_FILE} ne l'enregistre pas${framework} ; rien n'a été écrit.`,
      `« fw module:install ${name} » l'enregistre (« fw module:list » montre les modules du projet), puis relancez « fw ${command} ${name} ».`,
    );
  }
  return entry as RegistryEntry & { path: string };
}
