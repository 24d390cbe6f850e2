/**
 * The compiler: entity and relation files → Ajv (structure) → semantic checks (meaning) → one immutable
 * intermediate model that every emitter consumes (docs/entities.md;
 * docs/decisions.md#the-fixed-contract, #entity-names-and-columns). Every problem is reported at once, each with its file, JSON pointer and a
 * French message; the model is null as soon as there is one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DiagnosticList, sortDiagnostics } from './diagnostics.js';
import { checkEntity, entityFileParts, type EntityDraft } from './entity-check.js';
import { modelNode, type Diagnostic, type EntityNode, type ModelNode, type RelationNode } from './ir.js';
import { byteLineColumn, invalidUtf8Offset, readJson } from './json-source.js';
import { frenchBytes, MAX_DEFINITION_BYTES, MAX_FIELDS, MAX_RELATIONS } from './limits.js';
import { checkRelations } from './relation-check.js';
import { validateStructure, type SchemaName } from './schema-validation.js';

export { formatDiagnostics, sortDiagnostics } from './diagnostics.js';
export { closest, defaultPlural, entityNameFrom, humanLabel, MAX_IDENTIFIER_LENGTH, pascalCase, snakeCase, toEntityFileName } from './naming.js';
export { isReservedTableName, isReservedWord, RESERVED_WORDS } from './reserved-words.js';
export { MYSQL80_RESERVED_WORDS } from './mysql-reserved-words.js';
export {
  acceptedLogicalTypes,
  analyseSqlType,
  characterLength,
  FILTER_CAPABLE_TYPES,
  isBooleanType,
  isFilterCapable,
  isInteger,
  isTextual,
  KNOWN_SQL_TYPES,
  logicalTypeOf,
  parseSqlType,
  sameSqlType,
} from './sql-types.js';
export { DEFAULT_ON_DELETE, DEFAULT_ON_UPDATE } from './relation-check.js';
export { loadSchema, schemaFile } from './schema-validation.js';
export * from './ir.js';

/** One definition file: its path relative to the project root (posix separators) and its text. */
export interface CompileSource {
  readonly file: string;
  readonly text: string;
  /** The file's bytes, when it was read from disk: they are checked to be UTF-8 (`text` is their decoding). */
  readonly bytes?: Uint8Array;
}

export interface CompileResult {
  /** Null when there is at least one diagnostic. */
  readonly model: ModelNode | null;
  /** Sorted by file, then pointer. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Project-relative path of the relations file. */
export const RELATIONS_FILE = 'mvc/entities/relations.json';

type SourceKind = SchemaName | 'misplaced';

/** Which schema a path follows: `…/relations.json` outside an entity folder is the relations file. */
function kindOf(file: string): SourceKind {
  if (entityFileParts(file)) return 'entity';
  if (/(?:^|\/)relations\.json$/.test(file)) return 'relations';
  if (/(?:^|\/)mvc\/entities\/[^/]+\.json$/.test(file)) return 'misplaced';
  return 'entity';
}

/** Compiles definition files given as text (pure: for tests, editors and commands that check before writing). */
export function compileSources(sources: readonly CompileSource[]): CompileResult {
  const diags = new DiagnosticList();
  const drafts: EntityDraft[] = [];
  const unreadable = new Set<string>();
  let relations: { file: string; value: unknown } | undefined;
  const ordered = sources
    .map((s) => ({ file: s.file.replace(/\\/g, '/'), text: s.text, bytes: s.bytes }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

  for (const { file, text, bytes } of ordered) {
    const kind = kindOf(file);
    const unread = kind === 'misplaced' ? undefined : unreadableSource(text, bytes);
    if (unread !== undefined) {
      diags.add(file, '#', unread.code, unread.message);
      if (kind === 'entity') unreadable.add(entityFileParts(file)?.folder ?? '');
      continue;
    }
    if (kind === 'misplaced') {
      const name = path.posix.basename(file, '.json');
      diags.add(
        file,
        '#',
        'file_location',
        `fichier mal placé : une entité vit dans mvc/entities/<entite>/<entite>.json (ici mvc/entities/${name}/${name}.json) et les relations dans ${RELATIONS_FILE}`,
      );
      continue;
    }
    const parsed = readJson(text);
    if (!parsed.ok) {
      const { line, column, pointer, message } = parsed.error;
      diags.add(file, pointer, 'json_syntax', `JSON invalide (ligne ${line}, colonne ${column}) : ${message}`);
      if (kind === 'entity') unreadable.add(entityFileParts(file)?.folder ?? '');
      continue;
    }
    for (const duplicate of parsed.duplicates) {
      diags.add(
        file,
        duplicate.pointer,
        'duplicate_key',
        `clé « ${duplicate.key} » répétée dans le même objet : seule la dernière valeur compterait ; retirez le doublon`,
      );
    }
    for (const problem of validateStructure(kind, parsed.value)) diags.add(file, problem.pointer, problem.code, problem.message);
    if (kind === 'relations') {
      if (relations)
        diags.add(file, '#', 'file_location', `un seul fichier de relations est permis (${relations.file} est déjà lu) : regroupez-les dans ${RELATIONS_FILE}`);
      else relations = { file, value: parsed.value };
      continue;
    }
    const draft = checkEntity(parsed.value, file, diags);
    if (draft) drafts.push(draft);
    else unreadable.add(entityFileParts(file)?.folder ?? '');
  }

  const entities = registerEntities(drafts, diags);
  const relationNodes: RelationNode[] | undefined = relations ? checkRelations(relations.value, relations.file, entities, diags, unreadable) : [];

  const diagnostics = diags.sorted();
  if (diagnostics.length > 0) return Object.freeze({ model: null, diagnostics: Object.freeze(diagnostics) });
  const nodes = drafts.map((d) => d.node);
  if (!relationNodes || nodes.some((n) => n === null)) {
    // Every incomplete node comes with a diagnostic; reaching this line is a compiler bug.
    const internal: Diagnostic = {
      file: relations?.file ?? drafts[0]?.file ?? '',
      pointer: '#',
      code: 'internal',
      message: 'erreur interne du compilateur : définition incomplète sans diagnostic ; signalez ce fichier',
    };
    return Object.freeze({ model: null, diagnostics: Object.freeze([Object.freeze(internal)]) });
  }
  const model = modelNode({ entities: nodes as EntityNode[], relations: relationNodes });
  return Object.freeze({ model, diagnostics: Object.freeze([]) });
}

/** Why a definition file is not read at all: larger than the limit, or not UTF-8; undefined when it may be read. */
function unreadableSource(text: string, bytes: Uint8Array | undefined): { code: string; message: string } | undefined {
  const size = bytes?.length ?? Buffer.byteLength(text, 'utf8');
  if (size > MAX_DEFINITION_BYTES) {
    return {
      code: 'limit',
      message: `fichier de ${frenchBytes(size)} : un fichier de définitions fait au plus ${frenchBytes(MAX_DEFINITION_BYTES)} (au plus ${MAX_FIELDS} champs par entité, ${MAX_RELATIONS} relations) ; découpez l'entité`,
    };
  }
  const offset = bytes ? invalidUtf8Offset(bytes) : -1;
  if (bytes && offset >= 0) {
    const { line, column } = byteLineColumn(bytes, offset);
    const hex = bytes[offset]!.toString(16).toUpperCase().padStart(2, '0');
    return {
      code: 'encoding',
      message: `le fichier n'est pas en UTF-8 : octet 0x${hex} invalide à la position ${offset} (ligne ${line}, colonne ${column} en octets) ; enregistrez le fichier en UTF-8`,
    };
  }
  return undefined;
}

/** Entity names, tables and route plurals are unique across the project; the later file is the one reported. */
function registerEntities(drafts: readonly EntityDraft[], diags: DiagnosticList): Map<string, EntityDraft> {
  const byName = new Map<string, EntityDraft>();
  const byTable = new Map<string, EntityDraft>();
  const byPlural = new Map<string, EntityDraft>();
  for (const draft of drafts) {
    const sameName = byName.get(draft.name);
    if (sameName) {
      diags.add(draft.file, '#/entity', 'duplicate_entity', `entité « ${draft.name} » déjà définie dans ${sameName.file} : renommez l'une des deux`);
      continue;
    }
    byName.set(draft.name, draft);
    if (draft.table !== undefined) {
      const sameTable = byTable.get(draft.table);
      if (sameTable)
        diags.add(
          draft.file,
          '#/table',
          'duplicate_table',
          `table « ${draft.table} » déjà utilisée par l'entité « ${sameTable.name} » (${sameTable.file}) : choisissez une autre table`,
        );
      else byTable.set(draft.table, draft);
    }
    const samePlural = byPlural.get(draft.plural);
    if (samePlural) {
      const derived = draft.pluralPointer === '#/plural' ? '' : ' (déduit du nom)';
      diags.add(
        draft.file,
        draft.pluralPointer,
        'duplicate_plural',
        `pluriel « ${draft.plural} »${derived} (routes /${draft.plural}) déjà utilisé par l'entité « ${samePlural.name} » : donnez un autre « plural »`,
      );
    } else byPlural.set(draft.plural, draft);
  }
  return byName;
}

/**
 * The definition files of the project at `root` as compiler sources: every `mvc/entities/<entite>/*.json` and
 * `mvc/entities/*.json` (the relations file), with a diagnostic for each file that cannot be read. Reads only.
 */
export function readProjectSources(root: string): { sources: CompileSource[]; unreadable: Diagnostic[] } {
  const dir = path.join(root, 'mvc', 'entities');
  const sources: CompileSource[] = [];
  const unreadable: Diagnostic[] = [];
  const read = (relative: string): void => {
    try {
      const bytes = fs.readFileSync(path.join(root, relative));
      sources.push({ file: relative, text: bytes.toString('utf8'), bytes });
    } catch (error) {
      unreadable.push({ file: relative, pointer: '#', code: 'io', message: `lecture impossible : ${(error as Error).message}` });
    }
  };
  for (const entry of listDir(dir)) {
    const relative = `mvc/entities/${entry.name}`;
    if (entry.isDirectory()) {
      for (const inner of listDir(path.join(dir, entry.name))) {
        if (inner.isFile() && inner.name.endsWith('.json')) read(`${relative}/${inner.name}`);
      }
    } else if (entry.isFile() && entry.name.endsWith('.json')) {
      read(relative);
    }
  }
  return { sources, unreadable };
}

/**
 * Compiles the project at `root`: every `mvc/entities/<entite>/*.json` and `mvc/entities/relations.json`
 * (absent file = no relations). Reads only; writes nothing.
 */
export function compileProject(root: string): CompileResult {
  const { sources, unreadable } = readProjectSources(root);
  const result = compileSources(sources);
  if (unreadable.length === 0) return result;
  const diagnostics = Object.freeze(sortDiagnostics([...result.diagnostics, ...unreadable.map((d) => Object.freeze(d))]));
  return Object.freeze({ model: null, diagnostics });
}

function listDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}
