/**
 * Family `entity` (FW-ENTITY-001 to FW-ENTITY-003): the entity and relation files of `mvc/entities/`, compiled by
 * the compiler `fw build:model` uses (compiler/index.ts `compileSources`), one result per diagnostic with its file
 * and message. The files are read here, each refused with a reason when it is not a readable text file of a
 * reasonable size (a folder in its place, no read permission, a link loop, a binary or a 2 MB file), so that a
 * bad file is a FAIL naming it and never an exception. Read-only.
 */
import fs from 'node:fs';
import type { CompileSource } from '../../compiler/index.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { absolute, entryKind, fsReason, readSource } from './files.js';

function entity(id: number, label: string): CheckDefinition {
  return { id: `FW-ENTITY-${String(id).padStart(3, '0')}`, family: 'entity', label };
}

const D = {
  files: entity(1, "Fichiers d'entités lisibles"),
  entities: entity(2, 'Définitions des entités'),
  relations: entity(3, 'Relations (mvc/entities/relations.json)'),
  removed: entity(4, 'Entités supprimées'),
} as const;

export const ENTITY_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

const ENTITIES_DIR = 'mvc/entities';

interface Gathered {
  readonly sources: CompileSource[];
  readonly refused: Array<{ file: string; reason: string }>;
}

function names(relative: string, root: string, refused: Gathered['refused']): fs.Dirent[] {
  try {
    return fs.readdirSync(absolute(root, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') refused.push({ file: relative, reason: fsReason(error) });
    return [];
  }
}

/** The definition files the compiler reads (`mvc/entities/<entite>/*.json`, `mvc/entities/*.json`), read safely. */
function gather(root: string): Gathered {
  const sources: CompileSource[] = [];
  const refused: Gathered['refused'] = [];
  const take = (file: string): void => {
    const read = readSource(root, file);
    if (read.ok) sources.push({ file, text: read.text });
    else refused.push({ file, reason: read.reason });
  };
  for (const entry of names(ENTITIES_DIR, root, refused)) {
    const relative = `${ENTITIES_DIR}/${entry.name}`;
    const kind = entry.isSymbolicLink() ? entryKind(root, relative) : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other';
    if (typeof kind === 'object') {
      refused.push({ file: relative, reason: kind.reason });
    } else if (kind === 'dir') {
      for (const inner of names(relative, root, refused)) {
        if (inner.name.endsWith('.json')) take(`${relative}/${inner.name}`);
      }
    } else if (entry.name.endsWith('.json')) {
      take(relative);
    }
  }
  return { sources, refused };
}

const AT = /ligne (\d+), colonne (\d+)/;

/** FW-ENTITY-001 to 003: readable files, then the compiler's diagnostics split between entities and relations. */
export const entityCheck: CheckFunction = async ({ root }) => {
  const { sources, refused } = gather(root);
  const out: CheckResult[] = [];
  if (refused.length === 0) out.push(result(D.files, 'OK', `${sources.length} fichier(s) JSON sous ${ENTITIES_DIR}/`));
  for (const bad of refused)
    out.push({ ...result(D.files, 'FAIL', `${bad.file} : ${bad.reason}`, 'remplacez-le par un fichier JSON valide, ou retirez-le'), file: bad.file });
  const { compileSources, RELATIONS_FILE } = await import('../../compiler/index.js');
  const compiled = compileSources(sources);
  const entityResults: CheckResult[] = [];
  const relationResults: CheckResult[] = [];
  for (const diagnostic of compiled.diagnostics) {
    const at = AT.exec(diagnostic.message);
    const pointer = diagnostic.pointer && diagnostic.pointer !== '#' ? ` (${diagnostic.pointer})` : '';
    const found: CheckResult = {
      ...result(diagnostic.file === RELATIONS_FILE ? D.relations : D.entities, 'FAIL', `${diagnostic.file}${pointer} : ${diagnostic.message}`),
      file: diagnostic.file,
      ...(at ? { line: Number(at[1]), column: Number(at[2]) } : {}),
    };
    (diagnostic.file === RELATIONS_FILE ? relationResults : entityResults).push(found);
  }
  const entityCount = sources.filter((source) => source.file !== RELATIONS_FILE).length;
  out.push(...(entityResults.length > 0 ? entityResults : [result(D.entities, 'OK', `${entityCount} entité(s) valide(s)`)]));
  const relationsSource = sources.some((source) => source.file === RELATIONS_FILE);
  const relationCount = compiled.model?.relations.length ?? 0;
  out.push(
    ...(relationResults.length > 0
      ? relationResults
      : [result(D.relations, 'OK', relationsSource ? `${relationCount} relation(s) valide(s)` : `aucun fichier ${RELATIONS_FILE}`)]),
  );
  if (compiled.model)
    out.push(
      ...(await removedResults(
        root,
        compiled.model.entities.map((e) => e.name),
      )),
    );
  return out;
};

/** FW-ENTITY-004: the files and routes an entity whose definition is gone left behind (docs/entities.md "Removing an entity"). */
async function removedResults(root: string, known: readonly string[]): Promise<CheckResult[]> {
  const { describeRemoved, removedEntities } = await import('../entities/removed-entities.js');
  const left = removedEntities(root, known).filter((r) => describeRemoved(r, true).length > 0);
  if (left.length === 0) return [result(D.removed, 'OK', "aucun fichier ni route d'une entité supprimée")];
  return left.map((removed) => ({
    ...result(
      D.removed,
      'FAIL',
      `l'entité « ${removed.name} » n'a plus de définition, mais ${describeRemoved(removed, true)
        .map((line) => line.trim())
        .join(' ; ')}`,
      '« fw build:model » supprime ses fichiers générés ; retirez ses fichiers manuels et ses routes, ou recréez sa définition',
    ),
    file: removed.manual[0] ?? removed.regenerable[0] ?? 'mvc/routes.ts',
  }));
}

export const ENTITY_CHECKS: readonly CheckFunction[] = [entityCheck];
