/**
 * Family `mod` (FW-MOD-001, FW-MOD-002): the module registry `fw_modules.json` read as `fw module:install` reads it
 * (cli/modules/registry.ts), and every local module it records checked as `fw module:list` checks it
 * (cli/modules/manifest.ts `checkModule`: the folder, `module.json` against its schema, the declared folders), one
 * FAIL per problem with its file. Read-only.
 */
import { CliError } from '../errors.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { entryKind, fsReason, OUTSIDE_REASON, outsideProject } from './files.js';

function mod(id: number, label: string): CheckDefinition {
  return { id: `FW-MOD-${String(id).padStart(3, '0')}`, family: 'mod', label };
}

const D = {
  registry: mod(1, 'Registre des modules (fw_modules.json)'),
  modules: mod(2, 'Modules locaux'),
} as const;

export const MOD_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/** The registry's modules, or the FAIL that says why it cannot be read; shared with the audit family. */
export async function registryModules(root: string): Promise<{ names: string[]; local: Array<{ name: string; path: string }> } | CheckResult> {
  const { readRegistry, isLocalEntry, REGISTRY_FILE } = await import('../modules/registry.js');
  const kind = entryKind(root, REGISTRY_FILE);
  if (kind !== 'absent' && kind !== 'file') {
    const reason = typeof kind === 'object' ? kind.reason : "ce n'est pas un fichier";
    return { ...result(D.registry, 'FAIL', `${REGISTRY_FILE} : ${reason}`), file: REGISTRY_FILE };
  }
  // A registry reached by a link out of the project is not read: its parse error would quote the target (FW-STRUCT-008).
  if (outsideProject(root, REGISTRY_FILE)) return { ...result(D.registry, 'FAIL', `${REGISTRY_FILE} : ${OUTSIDE_REASON}`), file: REGISTRY_FILE };
  try {
    const registry = readRegistry(root);
    return {
      names: registry.modules.map((entry) => entry.name),
      local: registry.modules.filter(isLocalEntry).map((entry) => ({ name: entry.name, path: String(entry.path) })),
    };
  } catch (error) {
    const detail =
      error instanceof CliError ? error.message.replace(/ : rien n'a été écrit\.$/, '').replace(/[.]$/, '') : `${REGISTRY_FILE} : ${fsReason(error)}`;
    return { ...result(D.registry, 'FAIL', detail, error instanceof CliError ? (error.advice ?? '') : ''), file: REGISTRY_FILE };
  }
}

/** FW-MOD-001 and 002: the registry, then each local module it records. */
export const modulesCheck: CheckFunction = async ({ root }) => {
  const registry = await registryModules(root);
  if ('id' in registry) return [registry, result(D.modules, 'SKIP', 'registre illisible')];
  const out: CheckResult[] = [result(D.registry, 'OK', registry.names.length > 0 ? `modules : ${registry.names.join(', ')}` : 'aucun module enregistré')];
  if (registry.local.length === 0) return [...out, result(D.modules, 'OK', 'aucun module local')];
  const { checkModule } = await import('../modules/manifest.js');
  const problems: CheckResult[] = [];
  for (const entry of registry.local) {
    const folder = entry.path.replace(/\/+$/, '');
    const out = [folder, `${folder}/module.json`].find((file) => outsideProject(root, file));
    if (out) {
      problems.push({ ...result(D.modules, 'FAIL', `${out} : ${OUTSIDE_REASON}`, 'gardez le module dans le projet (docs/modules.md)'), file: out });
      continue;
    }
    let found: ReturnType<typeof checkModule>;
    try {
      found = checkModule(root, entry.path.replace(/\/+$/, ''));
    } catch (error) {
      problems.push({ ...result(D.modules, 'FAIL', `${entry.path} : ${fsReason(error)}`), file: entry.path });
      continue;
    }
    for (const problem of found.problems) {
      const pointer = problem.pointer && problem.pointer !== '#' ? ` (${problem.pointer})` : '';
      problems.push({
        ...result(D.modules, 'FAIL', `${problem.file}${pointer} : ${problem.message}`, `corrigez le module « ${entry.name} » (docs/modules.md)`),
        file: problem.file,
      });
    }
  }
  return [...out, ...(problems.length > 0 ? problems : [result(D.modules, 'OK', `${registry.local.length} module(s) local(aux) cohérent(s)`)])];
};

export const MOD_CHECKS: readonly CheckFunction[] = [modulesCheck];
