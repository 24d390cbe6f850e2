/**
 * Meaning of one field (entity field, `primary_key` object, pivot field): column, SQL and logical types,
 * constraints, filter, auto-increment, reserved words. Reads the parsed JSON defensively: a value of the
 * wrong type was already reported by the schema and is treated here as absent.
 */
import { classMemberConflict, formNameConflict } from './class-members.js';
import { checkConstraints } from './constraint-check.js';
import { pointerTo, type DiagnosticList } from './diagnostics.js';
import { fieldNode, type FieldNode, type LogicalType, type SqlTypeNode } from './ir.js';
import { frenchNumber, MAX_VARCHAR_LENGTH } from './limits.js';
import { humanLabel, pascalCase } from './naming.js';
import { isReservedWord } from './reserved-words.js';
import {
  acceptedLogicalTypes,
  analyseSqlType,
  characterLength,
  FILTER_CAPABLE_TYPES,
  isFilterCapable,
  isInteger,
  isTextual,
  logicalTypeOf,
} from './sql-types.js';

/** Query parameters of the generated list page: a filter (keyed by its field name) may not take one of them. */
const LIST_PARAMETERS: ReadonlySet<string> = new Set(['q', 'page', 'sort', 'direction']);

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const stringAt = (o: Json, key: string): string | undefined => (typeof o[key] === 'string' ? o[key] : undefined);
export const booleanAt = (o: Json, key: string): boolean | undefined => (typeof o[key] === 'boolean' ? o[key] : undefined);
export const objectAt = (o: Json, key: string): Json | undefined => (isObject(o[key]) ? o[key] : undefined);
export const arrayAt = (o: Json, key: string): unknown[] | undefined => (Array.isArray(o[key]) ? (o[key] as unknown[]) : undefined);

const PYTHON_TYPES: Readonly<Record<string, LogicalType>> = {
  int: 'int',
  str: 'str',
  bool: 'bool',
  float: 'float',
  Decimal: 'decimal',
  date: 'date',
  datetime: 'datetime',
  time: 'time',
  bytes: 'bytes',
};
const PYTHON_NAME: Readonly<Record<LogicalType, string>> = {
  int: 'int',
  str: 'str',
  bool: 'bool',
  float: 'float',
  decimal: 'Decimal',
  date: 'date',
  datetime: 'datetime',
  time: 'time',
  bytes: 'bytes',
};

/** What the checks know of a field, even an invalid one (relations are checked against it). */
export interface FieldDraft {
  readonly name: string;
  readonly pointer: string;
  readonly column: string;
  readonly sqlType: SqlTypeNode | null;
  readonly nullable: boolean;
  readonly unique: boolean;
  readonly primaryKey: boolean;
  /** The column named by `renamed_from`, when given and valid. */
  readonly renamedFrom?: string;
  /** Null when the field has a problem of its own. */
  readonly node: FieldNode | null;
}

export type FieldRole = 'field' | 'primary_key' | 'pivot_field';

/** Checks one field object; undefined when it has no usable name. */
export function checkField(raw: Json, role: FieldRole, file: string, pointer: string, diags: DiagnosticList): FieldDraft | undefined {
  const name = stringAt(raw, 'name');
  if (name === undefined) return undefined;
  const errorsBefore = diags.countFor(file);
  const at = (...keys: Array<string | number>): string => pointerTo(pointer, ...keys);
  const label = role === 'pivot_field' ? 'champ pivot' : role === 'primary_key' ? 'clé primaire' : 'champ';

  const nameReserved = isReservedWord(name);
  if (nameReserved) {
    diags.add(file, at('name'), 'reserved_word', `${label} « ${name} » : mot réservé SQL (MariaDB ou MySQL 8), refusé comme nom ; choisissez un autre nom`);
  }
  // Pivot fields are columns only; entity fields become properties of the generated class.
  const member = role === 'pivot_field' ? undefined : classMemberConflict(name, file.replace(/\.json$/, '_base.ts'));
  if (member) {
    diags.add(
      file,
      at('name'),
      'member_name',
      `${label} « ${name} » : ce nom est pris par ${member}, que la propriété du champ masquerait ; renommez le champ (par exemple « ${name}_valeur »), et gardez la colonne voulue avec « sql »`,
    );
  }
  const formSlot = role === 'pivot_field' ? undefined : formNameConflict(name);
  if (formSlot) {
    diags.add(
      file,
      at('name'),
      'form_name',
      `${label} « ${name} » : ce nom est réservé par les formulaires générés (${formSlot}) ; renommez le champ (par exemple « ${name}_valeur »), et gardez la colonne voulue avec « sql »`,
    );
  }
  const explicitColumn = stringAt(raw, 'sql');
  const column = explicitColumn ?? pascalCase(name);
  if (isReservedWord(column) && (explicitColumn !== undefined || !nameReserved)) {
    const where = explicitColumn !== undefined ? at('sql') : at('name');
    const how = explicitColumn !== undefined ? 'changez « sql »' : `donnez une autre colonne avec « sql », par exemple « ${column}Valeur »`;
    diags.add(file, where, 'reserved_word', `colonne « ${column} » du ${label} « ${name} » : mot réservé SQL (MariaDB ou MySQL 8), refusé ; ${how}`);
  }

  const sqlText = stringAt(raw, 'sql_type');
  let sqlType: SqlTypeNode | null = null;
  if (sqlText !== undefined && sqlText.trim() !== '') {
    const analysis = analyseSqlType(sqlText);
    if (analysis.ok) sqlType = analysis.type;
    else diags.add(file, at('sql_type'), 'sql_type', `${label} « ${name} » : ${analysis.error}`);
    if (sqlType?.base === 'VARCHAR' && (sqlType.args[0] ?? 0) > MAX_VARCHAR_LENGTH) {
      diags.add(
        file,
        at('sql_type'),
        'sql_limit',
        `${label} « ${name} » : ${sqlType.text} dépasse la limite de MariaDB en utf8mb4, VARCHAR(${MAX_VARCHAR_LENGTH}) (4 octets par caractère, ${frenchNumber(MAX_VARCHAR_LENGTH * 4)} octets) ; pour un texte plus long, utilisez TEXT ou MEDIUMTEXT`,
      );
      sqlType = null;
    }
  }

  let logicalType: LogicalType | null = sqlType ? logicalTypeOf(sqlType) : null;
  const pythonType = stringAt(raw, 'python_type');
  const declared = pythonType === undefined ? undefined : PYTHON_TYPES[pythonType];
  if (declared !== undefined && sqlType) {
    const accepted = acceptedLogicalTypes(sqlType);
    if (accepted.includes(declared)) logicalType = declared;
    else {
      const names = accepted.map((t) => PYTHON_NAME[t]).join(' ou ');
      diags.add(
        file,
        at('python_type'),
        'python_type',
        `${label} « ${name} » : python_type « ${pythonType} » ne convient pas au type SQL ${sqlType.text} ; écrivez ${names}, ou retirez python_type (il est déduit du type SQL)`,
      );
    }
  }

  const primaryKey = role === 'primary_key' || (role === 'field' && booleanAt(raw, 'primary_key') === true);
  let nullable = booleanAt(raw, 'nullable') ?? false;
  let unique = booleanAt(raw, 'unique') ?? false;
  if (role === 'pivot_field' && booleanAt(raw, 'primary_key') === true) {
    diags.add(
      file,
      at('primary_key'),
      'primary_key',
      `champ pivot « ${name} » : la clé de la table pivot est formée des deux clés étrangères ; retirez « primary_key »`,
    );
  }
  if (primaryKey) {
    if (nullable)
      diags.add(
        file,
        at('nullable'),
        'primary_key',
        `clé primaire « ${name} » : une clé primaire ne peut pas être NULL ; retirez « nullable » ou mettez false`,
      );
    if (sqlType && !isInteger(sqlType)) {
      diags.add(
        file,
        at('sql_type'),
        'primary_key',
        `clé primaire « ${name} » de type ${sqlType.text} : un entier est attendu (INT, BIGINT, INT UNSIGNED…), car les routes /<pluriel>/{id} n'acceptent que des identifiants entiers`,
      );
    }
    nullable = false;
    unique = false; // implied by the key; no second index
  }

  const autoIncrementGiven = booleanAt(raw, 'auto_increment');
  const integerKey = primaryKey && sqlType !== null && isInteger(sqlType);
  if (autoIncrementGiven === true && !integerKey && !(primaryKey && sqlType === null)) {
    const why = primaryKey ? `son type ${sqlType?.text ?? ''} n'est pas entier` : `ce n'est pas la clé primaire`;
    diags.add(
      file,
      at('auto_increment'),
      'auto_increment',
      `${label} « ${name} » : auto_increment n'est permis que sur une clé primaire entière (${why}) ; retirez-le`,
    );
  }
  const autoIncrement = integerKey && (autoIncrementGiven ?? true);

  const constraints = objectAt(raw, 'constraints') ?? {};
  const notEmpty = booleanAt(constraints, 'not_empty') ?? false;
  const maxLengthGiven = typeof constraints.max_length === 'number' && Number.isInteger(constraints.max_length) ? constraints.max_length : undefined;
  const declaredLength = sqlType ? characterLength(sqlType) : null;
  if (maxLengthGiven !== undefined && sqlType) {
    if (!isTextual(sqlType)) {
      diags.add(
        file,
        at('constraints', 'max_length'),
        'max_length',
        `${label} « ${name} » : max_length ne s'applique qu'aux types texte, pas à ${sqlType.text} ; retirez-le`,
      );
    } else if (declaredLength !== null && maxLengthGiven > declaredLength) {
      diags.add(
        file,
        at('constraints', 'max_length'),
        'max_length',
        `${label} « ${name} » : max_length ${maxLengthGiven} dépasse la longueur de la colonne ${sqlType.text} ; mettez au plus ${declaredLength} ou agrandissez le type`,
      );
    }
  }

  const filter = booleanAt(objectAt(raw, 'list') ?? {}, 'filter') ?? false;
  if (filter && sqlType && !isFilterCapable(sqlType)) {
    diags.add(
      file,
      at('list', 'filter'),
      'filter_type',
      `${label} « ${name} » : filtre de liste impossible sur le type ${sqlType.text} ; types filtrables : ${FILTER_CAPABLE_TYPES.join(', ')} ; retirez « list.filter » ou changez le type`,
    );
  }

  if (filter && LIST_PARAMETERS.has(name)) {
    diags.add(
      file,
      at('list', 'filter'),
      'filter_name',
      `${label} « ${name} » : un filtre de liste porte le nom du champ, et « ${name} » est déjà un paramètre de la liste (${[...LIST_PARAMETERS].join(', ')}) ; renommez le champ ou retirez « list.filter »`,
    );
  }

  const constraintValues =
    sqlType && logicalType
      ? checkConstraints(
          raw,
          { name, label, sqlType, logicalType, primaryKey, autoIncrement, maxLength: maxLengthGiven ?? declaredLength },
          file,
          pointer,
          diags,
        )
      : {};
  const renamedFrom = checkRenamedFrom(raw, { name, column, primaryKey, role, label }, file, at('renamed_from'), diags);

  const ownErrors = diags.countFor(file) > errorsBefore;
  const node =
    sqlType && logicalType && !ownErrors
      ? fieldNode({
          name,
          column,
          label: stringAt(raw, 'label')?.trim() || humanLabel(name),
          logicalType,
          sqlType,
          nullable,
          unique,
          primaryKey,
          autoIncrement,
          notEmpty,
          maxLength: maxLengthGiven ?? declaredLength,
          filter,
          pointer,
          ...(renamedFrom === undefined ? {} : { renamedFrom }),
          ...(Object.keys(constraintValues).length ? { constraints: constraintValues } : {}),
        })
      : null;
  return { name, pointer, column, sqlType, nullable, unique, primaryKey, ...(renamedFrom === undefined ? {} : { renamedFrom }), node };
}

/**
 * `renamed_from` (docs/entities.md "Renaming a field"): the field's former name in snake_case (its column was that
 * name in PascalCase) or its former column in PascalCase (when it had « sql »). The column it gives; undefined when
 * absent or refused. The checks against the entity's other fields are in entity-check.ts.
 */
function checkRenamedFrom(
  raw: Json,
  field: { name: string; column: string; primaryKey: boolean; role: FieldRole; label: string },
  file: string,
  pointer: string,
  diags: DiagnosticList,
): string | undefined {
  const given = stringAt(raw, 'renamed_from');
  if (given === undefined) return undefined;
  const { name, column, label } = field;
  if (field.role === 'pivot_field' || field.primaryKey) {
    const what = field.role === 'pivot_field' ? 'un champ pivot' : 'la clé primaire';
    diags.add(
      file,
      pointer,
      'renamed_from',
      `${label} « ${name} » : « renamed_from » ne s'applique pas à ${what} ; retirez-le (renommez la colonne par une migration écrite à la main)`,
    );
    return undefined;
  }
  const old = /^[a-z][a-z0-9_]*$/.test(given) ? pascalCase(given) : given;
  if (old.toLowerCase() === column.toLowerCase()) {
    diags.add(
      file,
      pointer,
      'renamed_from',
      `${label} « ${name} » : « renamed_from » donne la colonne actuelle du champ (${column}) ; retirez-le, ou écrivez l'ancien nom du champ`,
    );
    return undefined;
  }
  return old;
}
