/**
 * Meaning of one entity file (docs/entities.md "Entity files", docs/decisions.md#entity-names-and-columns): names and reserved
 * words, the file's place, one simple primary key, fields, media, rbac. Runs even when the schema found
 * problems, so that every problem is reported at once; values of the wrong type are treated as absent.
 */
import { checkDisplay } from './display-check.js';
import { pointerTo, type DiagnosticList } from './diagnostics.js';
import { checkField, arrayAt, booleanAt, isObject, objectAt, stringAt, type FieldDraft, type Json } from './field-check.js';
import { entityNode, mediaNode, rbacNode, type EntityNode, type MediaNode, type RbacNode } from './ir.js';
import { defaultPlural, humanLabel, PASCAL_CASE, pascalCase, snakeCase, toEntityFileName } from './naming.js';
import { frameworkNameClash } from './framework-names.js';
import { columnBytes, frenchNumber, MAX_FIELDS, MAX_MEDIA, MAX_ROW_BYTES, rowBytes } from './limits.js';
import { frameworkPathOwner } from './framework-paths.js';
import { frameworkTableConflict } from './framework-tables.js';
import { isReservedTableName, isReservedWord } from './reserved-words.js';

/** What the checks know of an entity, even an invalid one (relations are checked against it). */
export interface EntityDraft {
  readonly name: string;
  readonly file: string;
  readonly table: string | undefined;
  readonly plural: string;
  /** `#/plural` when the file gives it, else `#/entity` (the plural is derived from the name). */
  readonly pluralPointer: string;
  /** By field name, the primary key included. */
  readonly fields: ReadonlyMap<string, FieldDraft>;
  readonly primaryKey: FieldDraft | undefined;
  /** Null when the entity has a problem of its own. */
  readonly node: EntityNode | null;
}

/** `mvc/entities/<folder>/<base>.json` → its folder and base name, else undefined. */
export function entityFileParts(file: string): { folder: string; base: string } | undefined {
  const match = /(?:^|\/)mvc\/entities\/([^/]+)\/([^/]+)\.json$/.exec(file);
  return match ? { folder: match[1] ?? '', base: match[2] ?? '' } : undefined;
}

/** Checks one parsed entity file; undefined when it names no entity. */
export function checkEntity(data: unknown, file: string, diags: DiagnosticList): EntityDraft | undefined {
  if (!isObject(data)) return undefined; // the schema already said an object is expected
  const name = stringAt(data, 'entity');
  if (name === undefined) return undefined;
  const errorsBefore = diags.countFor(file);

  if (PASCAL_CASE.test(name)) {
    const parts = entityFileParts(file);
    const snake = snakeCase(name);
    if (parts && (parts.folder !== snake || parts.base !== snake)) {
      diags.add(file, '#/entity', 'file_name', `l'entité « ${name} » doit être dans ${toEntityFileName(name)} : renommez le fichier, ou corrigez « entity »`);
    }
  }
  if (isReservedWord(name)) {
    diags.add(
      file,
      '#/entity',
      'reserved_word',
      `nom d'entité « ${name} » : mot réservé SQL (MariaDB ou MySQL 8), refusé ; choisissez un autre nom${example(`${name}Client`)}`,
    );
  }
  const clash = PASCAL_CASE.test(name) ? frameworkNameClash(name, snakeCase(name)) : undefined;
  if (clash !== undefined) {
    const what = clash === name ? `« ${name} » est un nom` : `« ${clash} », que le code généré tire de ce nom, est un nom`;
    diags.add(
      file,
      '#/entity',
      'framework_name',
      `nom d'entité « ${name} » : ${what} que le framework, TypeScript ou Node emploient déjà (le code généré ne compilerait pas) ; choisissez un autre nom${nameExample(name)}`,
    );
  }
  const table = stringAt(data, 'table');
  if (table !== undefined) {
    if (isReservedTableName(table)) {
      diags.add(
        file,
        '#/table',
        'reserved_word',
        `table « ${table} » : mot réservé SQL (MariaDB ou MySQL 8), refusé ; choisissez un autre nom${example(defaultPlural(table))}`,
      );
    }
    const owned = frameworkTableConflict(table);
    if (owned !== undefined) {
      diags.add(file, '#/table', 'framework_table', `table « ${table} » : ${owned} ; choisissez un autre nom${tableExample(table)}`);
    }
  }
  const plural = stringAt(data, 'plural') ?? defaultPlural(snakeCase(name));
  const pathOwner = frameworkPathOwner(plural);
  if (pathOwner !== undefined) {
    const derived = stringAt(data, 'plural') === undefined ? ' (déduit du nom)' : '';
    diags.add(
      file,
      stringAt(data, 'plural') !== undefined ? '#/plural' : '#/entity',
      'framework_path',
      `pluriel « ${plural} »${derived} : les routes /${plural}… ne seraient jamais atteintes, car ${pathOwner} ; donnez un autre « plural » (par exemple « ${snakeCase(name)}_fiches »)`,
    );
  }

  const countsOk = checkCounts(data, file, diags);
  const { primaryKey, fields } = countsOk ? checkFields(data, file, diags) : { primaryKey: undefined, fields: [] };
  if (countsOk) checkRowSize(fields, file, diags);
  const media = countsOk ? checkMedia(data, file, fields, diags) : undefined;
  const rbac = readRbac(data);
  const display = countsOk ? checkDisplay(data.display, fields, file, diags) : undefined;

  const complete = primaryKey?.node && table !== undefined && fields.every((f) => f.node) && media !== undefined;
  const node =
    complete && diags.countFor(file) === errorsBefore
      ? entityNode({
          name,
          snake: snakeCase(name),
          table,
          plural,
          label: stringAt(data, 'label') ?? name,
          labelPlural: stringAt(data, 'label_plural') ?? pascalCase(plural),
          description: stringAt(data, 'description') ?? '',
          primaryKey: primaryKey.node,
          fields: [primaryKey, ...fields.filter((f) => f !== primaryKey)].map((f) => f.node!),
          media,
          rbac,
          ...(display ? { display } : {}),
          file,
        })
      : null;
  const pluralPointer = stringAt(data, 'plural') !== undefined ? '#/plural' : '#/entity';
  return { name, file, table, plural, pluralPointer, fields: new Map(fields.map((f) => [f.name, f])), primaryKey, node };
}

/** At most MAX_FIELDS fields and MAX_MEDIA media (compiler/limits.ts); false when over, and nothing else is read. */
function checkCounts(data: Json, file: string, diags: DiagnosticList): boolean {
  const fieldCount = (arrayAt(data, 'fields')?.length ?? 0) + (objectAt(data, 'primary_key') ? 1 : 0);
  const mediaCount = arrayAt(data, 'media')?.length ?? 0;
  if (fieldCount > MAX_FIELDS) {
    diags.add(
      file,
      '#/fields',
      'limit',
      `${frenchNumber(fieldCount)} champs : une entité en a au plus ${MAX_FIELDS}, clé primaire comprise (au-delà, la classe générée et la table deviennent inutilisables) ; découpez l'entité en plusieurs, reliées par des relations`,
    );
  }
  if (mediaCount > MAX_MEDIA) {
    diags.add(
      file,
      '#/media',
      'limit',
      `${frenchNumber(mediaCount)} médias : une entité en a au plus ${MAX_MEDIA} ; regroupez-les (un média « multiple » en tient plusieurs)`,
    );
  }
  return fieldCount <= MAX_FIELDS && mediaCount <= MAX_MEDIA;
}

/** The row of the table fits MariaDB's 65,535 bytes (compiler/limits.ts), else one diagnostic naming the largest columns. */
function checkRowSize(fields: readonly FieldDraft[], file: string, diags: DiagnosticList): void {
  const typed = fields.filter((f): f is FieldDraft & { sqlType: NonNullable<FieldDraft['sqlType']> } => f.sqlType !== null);
  const size = rowBytes(typed.map((f) => ({ type: f.sqlType, nullable: f.nullable && !f.primaryKey })));
  if (size <= MAX_ROW_BYTES) return;
  const largest = [...typed]
    .sort((a, b) => columnBytes(b.sqlType) - columnBytes(a.sqlType))
    .slice(0, 3)
    .map((f) => `« ${f.name} » ${f.sqlType.text} : ${frenchNumber(columnBytes(f.sqlType))} octets`);
  diags.add(
    file,
    '#/fields',
    'sql_limit',
    `ligne de ${frenchNumber(size)} octets : MariaDB limite une ligne à ${frenchNumber(MAX_ROW_BYTES)} octets (utf8mb4 : 4 octets par caractère de VARCHAR et CHAR, TEXT compté 10) ; plus grandes colonnes : ${largest.join(', ')} ; passez de longs VARCHAR en TEXT, ou raccourcissez-les`,
  );
}

/** Fields and the single simple primary key (the `primary_key` object, or one field with `primary_key: true`). */
function checkFields(data: Json, file: string, diags: DiagnosticList): { primaryKey: FieldDraft | undefined; fields: FieldDraft[] } {
  const fields: FieldDraft[] = [];
  const keyObject = objectAt(data, 'primary_key');
  const keyFromObject = keyObject ? checkField(keyObject, 'primary_key', file, '#/primary_key', diags) : undefined;
  if (keyFromObject) fields.push(keyFromObject);
  (arrayAt(data, 'fields') ?? []).forEach((raw, i) => {
    if (!isObject(raw)) return;
    const field = checkField(raw, 'field', file, pointerTo('#/fields', i), diags);
    if (field) fields.push(field);
  });

  const keyFields = fields.filter((f) => f.primaryKey && f !== keyFromObject);
  const primaryKey: FieldDraft | undefined = keyFromObject ?? keyFields[0];
  if (keyFromObject && keyFields.length > 0) {
    for (const extra of keyFields) {
      diags.add(
        file,
        pointerTo(extra.pointer, 'primary_key'),
        'primary_key',
        `clé primaire déclarée deux fois : « primary_key » désigne déjà « ${keyFromObject.name} » ; retirez « primary_key »: true du champ « ${extra.name} » (une seule clé simple est permise)`,
      );
    }
  } else if (keyFields.length > 1) {
    for (const extra of keyFields.slice(1)) {
      diags.add(
        file,
        pointerTo(extra.pointer, 'primary_key'),
        'primary_key',
        `clé primaire composite non prise en charge : « ${keyFields[0]?.name ?? ''} » est déjà la clé ; retirez « primary_key »: true du champ « ${extra.name} » (pour relier deux entités, déclarez une relation many_to_many)`,
      );
    }
  }
  const keyDeclared =
    data.primary_key !== undefined || (arrayAt(data, 'fields') ?? []).some((f) => isObject(f) && f.primary_key !== undefined && f.primary_key !== false);
  if (!primaryKey && !keyDeclared) {
    diags.add(
      file,
      '#',
      'primary_key',
      'aucune clé primaire : ajoutez "primary_key": {"name": "id", "sql_type": "INT"} ou "primary_key": true sur un champ entier',
    );
  }

  const byName = new Map<string, FieldDraft>();
  const byColumn = new Map<string, FieldDraft>();
  for (const field of fields) {
    const sameName = byName.get(field.name);
    if (sameName) {
      diags.add(
        file,
        pointerTo(field.pointer, 'name'),
        'duplicate_field',
        `champ « ${field.name} » en double (déjà défini en ${sameName.pointer}) : renommez-le ou retirez-le`,
      );
    } else {
      byName.set(field.name, field);
    }
    const columnKey = field.column.toLowerCase(); // MariaDB column names ignore case
    const sameColumn = byColumn.get(columnKey);
    if (sameColumn && !sameName) {
      diags.add(
        file,
        pointerTo(field.pointer, field.column === field.name ? 'name' : 'sql'),
        'duplicate_column',
        `colonne « ${field.column} » du champ « ${field.name} » déjà utilisée par le champ « ${sameColumn.name} » (les noms de colonnes ignorent la casse) : donnez une autre colonne avec « sql »`,
      );
    } else if (!sameColumn) {
      byColumn.set(columnKey, field);
    }
  }
  checkRenames(fields, file, diags);
  return { primaryKey, fields };
}

/** `renamed_from` names a column no other field has now, and that no other field was renamed from (docs/entities.md "Renaming a field"). */
function checkRenames(fields: readonly FieldDraft[], file: string, diags: DiagnosticList): void {
  const from = new Map<string, FieldDraft>();
  for (const field of fields) {
    if (field.renamedFrom === undefined) continue;
    const key = field.renamedFrom.toLowerCase();
    const current = fields.find((other) => other !== field && other.column.toLowerCase() === key);
    const twice = from.get(key);
    if (current) {
      diags.add(
        file,
        pointerTo(field.pointer, 'renamed_from'),
        'renamed_from',
        `champ « ${field.name} » : « renamed_from » donne la colonne ${field.renamedFrom}, qui est celle du champ « ${current.name} » ; une colonne renommée n'est plus celle d'un autre champ : corrigez « renamed_from » ou retirez-le`,
      );
    } else if (twice) {
      diags.add(
        file,
        pointerTo(field.pointer, 'renamed_from'),
        'renamed_from',
        `champ « ${field.name} » : la colonne ${field.renamedFrom} est déjà l'ancienne colonne du champ « ${twice.name} » ; une colonne ne se renomme qu'en un champ : retirez l'un des deux « renamed_from »`,
      );
    } else from.set(key, field);
  }
}

function checkMedia(data: Json, file: string, fields: readonly FieldDraft[], diags: DiagnosticList): MediaNode[] | undefined {
  const entries = arrayAt(data, 'media') ?? [];
  const nodes: MediaNode[] = [];
  const names = new Map<string, string>();
  const roles = new Map<string, string>();
  let complete = true;
  entries.forEach((raw, i) => {
    const pointer = pointerTo('#/media', i);
    if (!isObject(raw)) return void (complete = false);
    const name = stringAt(raw, 'name');
    const kind = stringAt(raw, 'field');
    if (name === undefined || (kind !== 'image' && kind !== 'file')) return void (complete = false);
    const before = diags.countFor(file);
    const role = stringAt(raw, 'role') ?? name;
    const variants = raw.variants === 'job' ? 'job' : (booleanAt(raw, 'variants') ?? false);
    if (names.has(name)) {
      diags.add(file, pointerTo(pointer, 'name'), 'media', `média « ${name} » en double (déjà défini en ${names.get(name) ?? ''}) : renommez-le`);
    } else names.set(name, pointer);
    if (fields.some((f) => f.name === name)) {
      diags.add(
        file,
        pointerTo(pointer, 'name'),
        'media',
        `média « ${name} » : un champ de l'entité porte déjà ce nom (les formulaires les confondraient) ; renommez le média`,
      );
    }
    if (roles.has(role)) {
      diags.add(
        file,
        pointerTo(pointer, raw.role === undefined ? 'name' : 'role'),
        'media',
        `rôle de média « ${role} » en double (déjà utilisé en ${roles.get(role) ?? ''}) : chaque média a son propre rôle`,
      );
    } else roles.set(role, pointer);
    if (variants !== false && kind === 'file') {
      diags.add(
        file,
        pointerTo(pointer, 'variants'),
        'media',
        `média « ${name} » : les variantes (vignettes) n'existent que pour field: image ; retirez « variants » ou mettez field: image`,
      );
    }
    if (diags.countFor(file) > before) complete = false;
    nodes.push(
      mediaNode({
        name,
        field: kind,
        role,
        label: stringAt(raw, 'label') ?? humanLabel(name),
        variants,
        multiple: booleanAt(raw, 'multiple') ?? false,
      }),
    );
  });
  return complete ? nodes : undefined;
}

/** ` (par exemple « notes »)` for `fw_notes`, ` (par exemple « app_users »)` for `users`, when that table is allowed. */
function tableExample(table: string): string {
  const stripped = table.replace(/^(fw_|auth_|sqlite_)/i, '').replace(/__fw_new$/i, '');
  const suggestion = stripped !== table && stripped !== '' ? stripped : `app_${table}`;
  return frameworkTableConflict(suggestion) === undefined && !isReservedTableName(suggestion) ? ` (par exemple « ${suggestion} »)` : '';
}

/** ` (par exemple « <Name>Fiche »)` when that name is itself allowed, else nothing. */
function nameExample(name: string): string {
  const suggestion = `${name}Fiche`;
  return frameworkNameClash(suggestion, snakeCase(suggestion)) === undefined && !isReservedWord(suggestion) ? ` (par exemple « ${suggestion} »)` : '';
}

/** ` (par exemple « x »)` when the suggestion is itself allowed, else nothing. */
function example(suggestion: string): string {
  return isReservedTableName(suggestion) ? '' : ` (par exemple « ${suggestion} »)`;
}

function readRbac(data: Json): RbacNode | null {
  const rbac = objectAt(data, 'rbac');
  if (!rbac) return null;
  const permissions: Record<string, readonly string[]> = {};
  for (const [permission, roles] of Object.entries(objectAt(rbac, 'permissions') ?? {})) {
    if (Array.isArray(roles)) permissions[permission] = roles.filter((r): r is string => typeof r === 'string');
  }
  return rbacNode({ permissions });
}
