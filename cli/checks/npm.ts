/**
 * Family `npm` (FW-NPM-001, FW-NPM-002), optional: `package.json` readable and valid JSON, and the dependencies
 * installed (`node_modules/` with `fw-mvc` in it; a WARN when not installed yet). npm is never run:
 * only files are read.
 */
import { result, type CheckDefinition, type CheckFunction } from './check.js';
import { entryKind, readSource } from './files.js';

function npm(id: number, label: string): CheckDefinition {
  return { id: `FW-NPM-${String(id).padStart(3, '0')}`, family: 'npm', label };
}

const D = {
  packageJson: npm(1, 'package.json'),
  installed: npm(2, 'Dépendances installées'),
} as const;

export const NPM_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/** FW-NPM-001 and 002. */
export const npmCheck: CheckFunction = async ({ root }) => {
  const read = readSource(root, 'package.json');
  let packageResult;
  if (!read.ok) {
    packageResult = { ...result(D.packageJson, 'FAIL', `package.json : ${read.reason}`, '« fw new » en écrit un ; restaurez-le'), file: 'package.json' };
  } else {
    try {
      const data = JSON.parse(read.text) as { name?: unknown };
      packageResult =
        data && typeof data === 'object' && !Array.isArray(data)
          ? result(D.packageJson, 'OK', `paquet « ${String(data.name ?? '?')} »`)
          : { ...result(D.packageJson, 'FAIL', 'package.json doit contenir un objet JSON'), file: 'package.json' };
    } catch (error) {
      packageResult = { ...result(D.packageJson, 'FAIL', `package.json : JSON invalide (${(error as Error).message})`), file: 'package.json' };
    }
  }
  const modules = entryKind(root, 'node_modules');
  const framework = entryKind(root, 'node_modules/fw-mvc');
  const installed =
    modules !== 'dir'
      ? result(D.installed, 'WARN', 'node_modules/ absent : dépendances non installées', 'lancez « npm install »')
      : framework !== 'dir'
        ? result(D.installed, 'WARN', 'node_modules/fw-mvc absent', 'lancez « npm install »')
        : result(D.installed, 'OK', 'node_modules/ présent avec fw-mvc');
  return [packageResult, installed];
};

export const NPM_CHECKS: readonly CheckFunction[] = [npmCheck];
