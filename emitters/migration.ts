/**
 * Migration files (`fw migration:make`): one file holds every dialect in `-- fw:dialect <name>` sections, so
 * a version means the same change on MariaDB and SQLite. Pure functions; the command picks the name and time.
 * Each dialect's statements come from its spelling (runtime/db/dialect.ts): whether it alters a table in place or
 * rebuilds it, where its foreign keys go.
 */
import type { EntityNode, FieldNode, ModelNode, ReferentialAction } from '../compiler/ir.js';
import { emitRelationsSql } from './sql-relations.js';
import { renderColumn, renderCreateTable } from '../runtime/db/ddl/render.js';
import { shortenIdentifier } from '../runtime/db/ddl/names.js';
import { DIALECT_NAMES, spellingOf, type DialectName as Dialect, type DialectSpelling } from '../runtime/db/dialect.js';
import { entityTableSpec, keyName, manyToOneForeignKey, manyToOneOf, type ForeignKeySpec, type TableSpec } from './sql-table-spec.js';
import type { CheckSpec } from '../runtime/db/ddl/table-spec.js';
import { constraintNeedsRebuild, constraintStatements, isConstraintChange, nothingToDo } from './migration-constraints.js';

/** A generated SQL file without its marker line (a migration is the user's file once written). */
function withoutMarker(sql: string): string {
  return sql.replace(/^--[^\n]*\n/, '').trim();
}

export function migrationHeader(name: string, origin: string): string {
  return `-- Migration ${name} (${origin}).\n-- Relisez-la avant « fw migration:apply » : une fois appliquée, ne la modifiez plus.\n`;
}

/** One section per dialect, in the order of DIALECT_NAMES, each with the parts `of` gives it. */
export function migrationSections(of: (dialect: Dialect) => string[]): string {
  return DIALECT_NAMES.map((d) => `-- fw:dialect ${d}\n${of(d).filter(Boolean).join('\n\n')}\n`).join('\n');
}

/** An empty migration to fill by hand. */
export function emitEmptyMigration(name: string): string {
  return `${migrationHeader(name, 'écrite à la main')}\n${migrationSections((dialect) => [`-- SQL pour ${spellingOf(dialect).product} ici.`])}`;
}

/**
 * The creation of some entities' tables, in the order given (dependency order), with on MariaDB the
 * foreign keys of their many-to-one relations; `withRelations` adds the whole relations SQL (pivots) instead.
 */
export function emitCreateMigration(name: string, model: ModelNode, entities: readonly EntityNode[], withRelations: boolean): string {
  const parts = (dialect: Dialect): string[] => [
    ...entities.map((entity) => renderCreateTable(entityTableSpec(model, entity, dialect), dialect).join('\n')),
    ...(withRelations ? [withoutMarker(emitRelationsSql(model, dialect))] : entities.flatMap((entity) => addedForeignKeys(model, entity, spellingOf(dialect)))),
  ];
  const origin = withRelations ? 'fw migration:make --from-entities' : `fw migration:make --from-entity ${entities.map((e) => e.name).join(', ')}`;
  return `${migrationHeader(name, origin)}\n${migrationSections(parts)}`;
}

/** The `ALTER TABLE … ADD CONSTRAINT` of an entity's many-to-one keys where the dialect adds them so (none where they are inline). */
function addedForeignKeys(model: ModelNode, entity: EntityNode, spelling: DialectSpelling): string[] {
  if (spelling.foreignKeys !== 'alter') return [];
  return manyToOneOf(model, entity).flatMap((relation) => {
    const { table, foreignKey } = manyToOneForeignKey(model, relation);
    return spelling.addForeignKey(table, foreignKey) ?? [];
  });
}

/** An index or unique key as `migration:diff` compares it: by columns and uniqueness, not by name. */
export interface KeyShape {
  readonly name: string;
  /** Column names in key order (`<expression>` for an expression index). */
  readonly columns: readonly string[];
  readonly unique: boolean;
  /** SQLite: the index of a UNIQUE constraint of CREATE TABLE, which only a table rebuild removes. */
  readonly constraint?: boolean;
}

/** A foreign key as the database reports it (SQLite keeps no constraint name: null). */
export interface ForeignKeyShape {
  readonly name: string | null;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
  /** Upper-case referential actions (`RESTRICT`, `CASCADE`, `SET NULL`, `NO ACTION`, `SET DEFAULT`). */
  readonly onDelete: string;
  readonly onUpdate: string;
}

export type ChangeStatus =
  | 'COLUMN_MISSING'
  | 'COLUMN_CHANGED'
  | 'COLUMN_EXTRA'
  | 'COLUMN_RENAMED'
  | 'TABLE_MISSING'
  | 'TABLE_EXTRA'
  | 'INDEX_MISSING'
  | 'INDEX_CHANGED'
  | 'INDEX_EXTRA'
  | 'FK_MISSING'
  | 'FK_CHANGED'
  | 'FK_EXTRA'
  | 'DEFAULT_MISSING'
  | 'DEFAULT_CHANGED'
  | 'DEFAULT_EXTRA'
  | 'CHECK_MISSING'
  | 'CHECK_CHANGED'
  | 'CHECK_EXTRA';

/** A CHECK constraint as the database reports it: its name (null: SQLite's CREATE TABLE gave none) and its test. */
export interface CheckShape {
  readonly name: string | null;
  readonly clause: string;
}

/** One difference between an entity and its real table (docs/entities.md "migration:diff"). */
export interface DiffChange {
  readonly status: ChangeStatus;
  /** The column, key or table concerned. */
  readonly column: string;
  readonly field?: FieldNode;
  /** COLUMN_RENAMED: the real column the field's `renamed_from` names, renamed to `column`. */
  readonly from?: string;
  /** COLUMN_EXTRA: the real column's type and nullability. */
  readonly actual?: { readonly type: string; readonly nullable: boolean };
  /** INDEX_*: the entity's key (MISSING, CHANGED) and the table's (CHANGED, EXTRA). */
  readonly index?: { readonly expected?: KeyShape; readonly actual?: KeyShape };
  /** FK_*: the entity's foreign key (MISSING, CHANGED) and the table's (CHANGED, EXTRA). */
  readonly foreignKey?: { readonly expected?: ForeignKeySpec; readonly actual?: ForeignKeyShape };
  /** DEFAULT_*: the entity's literal (MISSING, CHANGED) and the column's, as the catalogue gives it (CHANGED, EXTRA). */
  readonly defaultValue?: { readonly expected?: string; readonly actual?: string };
  /** CHECK_*: the entity's CHECK (MISSING, CHANGED) and the table's (CHANGED, EXTRA). */
  readonly check?: { readonly expected?: CheckSpec; readonly actual?: CheckShape };
}

/**
 * The first statement of a SQLite section that rebuilds a table. migration:apply runs such a migration in a
 * transaction of its own opened after this PRAGMA (inside a transaction it would be a no-op), and refuses to
 * commit it while PRAGMA foreign_key_check reports a row: SQLite's documented procedure, steps 1 and 10
 * (cli/db/migration-apply.ts).
 */
export const FOREIGN_KEYS_OFF = 'PRAGMA foreign_keys = OFF;';

/** A default SQLite accepts when adding a NOT NULL column to a table that may hold rows (`addedNotNullNeedsDefault`). */
function notNullDefault(field: FieldNode): string {
  switch (field.logicalType) {
    case 'int':
    case 'float':
    case 'decimal':
    case 'bool':
      return '0';
    default:
      return "''";
  }
}

function describeForeignKey(fk: ForeignKeyShape | ForeignKeySpec): string {
  return `(${fk.columns.join(', ')}) → ${fk.refTable} (${fk.refColumns.join(', ')})`;
}

/**
 * A dialect that rebuilds tables (SQLite) cannot add, change or drop a foreign key, a DEFAULT or a CHECK, nor drop
 * the index of a UNIQUE constraint: only a rebuild does.
 */
function needsRebuild(change: DiffChange, spelling: DialectSpelling): boolean {
  return (
    constraintNeedsRebuild(change, spelling) ||
    change.status === 'COLUMN_CHANGED' ||
    change.status === 'FK_MISSING' ||
    change.status === 'FK_CHANGED' ||
    (change.status === 'INDEX_CHANGED' && change.index?.actual?.constraint === true)
  );
}

/** The statements a dialect writes (null: one it cannot write, which a rebuild replaces). */
function written(...statements: Array<string | null>): string[] {
  return statements.filter((statement): statement is string => statement !== null);
}

/** The statements of an index or foreign-key change (extras are only commented: dropping them is the user's choice). */
function keyStatements(entity: EntityNode, change: DiffChange, spelling: DialectSpelling): string[] {
  const table = entity.table;
  const rebuilds = spelling.tableChanges === 'rebuild';
  const { expected, actual } = change.index ?? {};
  switch (change.status) {
    case 'INDEX_MISSING':
      return expected ? [spelling.addKey(table, expected)] : [];
    case 'INDEX_CHANGED':
      if (!expected || !actual) return [];
      return spelling.replaceKey(table, actual.name, expected);
    case 'INDEX_EXTRA':
      if (!actual) return [];
      if (rebuilds && actual.constraint) {
        return [
          `-- ${actual.name} (contrainte UNIQUE de CREATE TABLE) n'est plus dans l'entité : ${spelling.product} ne la retire qu'en reconstruisant la table.`,
        ];
      }
      return [`-- ${actual.name} n'est plus dans l'entité. Pour le supprimer, décommentez :`, `-- ${spelling.dropKey(table, actual.name)}`];
    default:
      break;
  }
  const fk = change.foreignKey ?? {};
  if (rebuilds) {
    // FK_MISSING and FK_CHANGED rebuild the table (rebuild); an extra key stays until the user rebuilds it away.
    return change.status === 'FK_EXTRA' && fk.actual
      ? [`-- La clé étrangère ${describeForeignKey(fk.actual)} n'est plus dans l'entité : ${spelling.product} ne la retire qu'en reconstruisant la table.`]
      : [];
  }
  switch (change.status) {
    case 'FK_MISSING':
      return fk.expected ? written(spelling.addForeignKey(table, fk.expected)) : [];
    case 'FK_CHANGED':
      // A diff read on SQLite has no constraint name: the key is the one fw names on MariaDB.
      return fk.expected ? written(spelling.dropForeignKey(table, fk.actual?.name ?? fk.expected.name), spelling.addForeignKey(table, fk.expected)) : [];
    case 'FK_EXTRA':
      return fk.actual
        ? [
            `-- La clé étrangère ${describeForeignKey(fk.actual)} n'est plus dans l'entité. Pour la supprimer, décommentez :`,
            // A diff read on SQLite has no constraint name: the dialect says where to find it.
            ...written(spelling.dropForeignKey(table, fk.actual.name)).map((statement) => `-- ${statement}`),
          ]
        : [];
    default:
      return [];
  }
}

/**
 * The statements of one dialect that bring the table of `entity` to its definition. The diff (read on one
 * database) only says what differs; what each column and key should be comes from the entity, so every dialect
 * can be written.
 */
function diffStatements(model: ModelNode, entity: EntityNode, changes: readonly DiffChange[], dialect: Dialect): string[] {
  const spelling = spellingOf(dialect);
  const spec = entityTableSpec(model, entity, dialect);
  const table = spelling.quote(entity.table);
  const lines: string[] = [];
  for (const change of changes) {
    if (change.status === 'TABLE_MISSING') {
      lines.push(renderCreateTable(spec, dialect).join('\n'));
      // As --from-entity: MariaDB gets the table's many-to-one keys by ALTER TABLE (SQLite has them inline).
      lines.push(...addedForeignKeys(model, entity, spelling));
      continue;
    }
    const column = spec.columns.find((c) => c.name === change.field?.column);
    const modified = change.status === 'COLUMN_CHANGED' && column ? spelling.modifyColumn(entity.table, column) : null;
    if (change.status === 'COLUMN_MISSING' && column && change.field) {
      // Its key, if any, is an INDEX_MISSING change of the same diff.
      let definition = renderColumn(column, dialect);
      if (spelling.addedNotNullNeedsDefault && !column.nullable) definition += ` DEFAULT ${notNullDefault(change.field)}`;
      lines.push(`ALTER TABLE ${table} ADD COLUMN ${definition};`);
    } else if (change.status === 'COLUMN_RENAMED' && change.from !== undefined) {
      // The same statement on both dialects (MariaDB 10.5.2, SQLite 3.25): the values, the keys and the foreign keys follow the column.
      lines.push(`ALTER TABLE ${table} RENAME COLUMN ${spelling.quote(change.from)} TO ${spelling.quote(change.column)};`);
    } else if (modified !== null) {
      lines.push(modified);
    } else if (isConstraintChange(change)) {
      lines.push(...constraintStatements(spec, change, spelling));
    } else if (change.status === 'COLUMN_EXTRA') {
      lines.push(
        `-- ${change.column} n'est plus dans l'entité. Pour la supprimer (données perdues), décommentez :`,
        `-- ALTER TABLE ${table} DROP COLUMN ${spelling.quote(change.column)};`,
      );
    } else {
      lines.push(...keyStatements(entity, change, spelling));
    }
  }
  if (spelling.tableChanges === 'rebuild' && changes.some((change) => needsRebuild(change, spelling))) return rebuild(spelling, spec, changes, lines);
  // Only CHECKs this dialect does not write: a statement that does nothing, so that migration:apply runs the section.
  if (changes.length > 0 && changes.every((change) => nothingToDo(change, spelling))) lines.push('SELECT 1;');
  return lines.length > 0 ? lines : ['-- Aucun écart.'];
}

/** Why a table is rebuilt, for the comment above the rebuild. */
function rebuildReasons(spelling: DialectSpelling, changes: readonly DiffChange[]): string {
  const product = spelling.product;
  const of = (statuses: readonly ChangeStatus[]): string[] =>
    changes.filter((c) => statuses.includes(c.status) && needsRebuild(c, spelling)).map((c) => c.column);
  const reasons: string[] = [];
  const columns = of(['COLUMN_CHANGED']);
  const foreignKeys = of(['FK_MISSING', 'FK_CHANGED']);
  const constraints = of(['INDEX_CHANGED']);
  if (columns.length > 0) reasons.push(`${columns.join(', ')} : ${product} ne sait pas modifier une colonne`);
  if (foreignKeys.length > 0) reasons.push(`${foreignKeys.join(', ')} : ${product} ne sait pas ajouter ni modifier une clé étrangère`);
  if (constraints.length > 0) reasons.push(`${constraints.join(', ')} : ${product} ne sait pas retirer une contrainte UNIQUE de CREATE TABLE`);
  const defaults = of(['DEFAULT_MISSING', 'DEFAULT_CHANGED', 'DEFAULT_EXTRA']);
  const checks = of(['CHECK_MISSING', 'CHECK_CHANGED', 'CHECK_EXTRA']);
  if (defaults.length > 0) reasons.push(`${defaults.join(', ')} : ${product} ne sait pas changer la valeur par défaut d'une colonne`);
  if (checks.length > 0) reasons.push(`${checks.join(', ')} : ${product} ne sait pas ajouter, modifier ni retirer une contrainte CHECK`);
  return reasons.join(' ; ');
}

/**
 * A dialect that cannot modify a column or a foreign key (SQLite): the table is rebuilt after the missing columns
 * were added (so that every column of the entity is copied), keeping the extra columns with their real type, and the
 * extra indexes and foreign keys, so that nothing is lost without the user's decision (the commented DROP stays).
 */
function rebuild(spelling: DialectSpelling, spec: TableSpec, changes: readonly DiffChange[], lines: readonly string[]): string[] {
  const extras = changes.flatMap((c) =>
    c.status === 'COLUMN_EXTRA' && c.actual ? [{ name: c.column, type: c.actual.type, nullable: c.actual.nullable, autoIncrement: false }] : [],
  );
  const extraKeys = changes.flatMap((c) => (c.status === 'INDEX_EXTRA' && c.index?.actual ? [c.index.actual] : []));
  // An index named sqlite_autoindex_* cannot be created by hand: a kept UNIQUE constraint gets a uq_ name.
  const keptKey = (key: KeyShape) => ({ name: key.constraint ? keyName('uq', spec.table, key.columns.join('_')) : key.name, columns: key.columns });
  const extraForeignKeys = changes.flatMap((c) =>
    c.status === 'FK_EXTRA' && c.foreignKey?.actual
      ? [
          {
            ...c.foreignKey.actual,
            name: c.foreignKey.actual.name ?? shortenIdentifier(`fk_${spec.table}_${c.foreignKey.actual.columns.join('_').toLowerCase()}`),
            onDelete: c.foreignKey.actual.onDelete as ReferentialAction,
            onUpdate: c.foreignKey.actual.onUpdate as ReferentialAction,
          },
        ]
      : [],
  );
  const rebuilt: TableSpec = {
    ...spec,
    columns: [...spec.columns, ...extras],
    uniques: [...spec.uniques, ...extraKeys.filter((k) => k.unique).map(keptKey)],
    indexes: [...spec.indexes, ...extraKeys.filter((k) => !k.unique).map(keptKey)],
    foreignKeys: [...spec.foreignKeys, ...extraForeignKeys],
  };
  // The rebuild re-creates every key: of the lines written so far, only the added columns and the comments stay,
  // and a kept UNIQUE constraint, now an index of its own, can be dropped by name.
  const added = lines.filter((line) => line.startsWith('ALTER TABLE') && (line.includes(' RENAME COLUMN ') || line.includes(' ADD COLUMN ')));
  const renamed = extraKeys.filter((key) => key.constraint).map((key) => ({ key, name: keptKey(key).name }));
  const comments = lines.flatMap((line) => {
    if (!line.startsWith('--')) return [];
    const kept = renamed.find(({ key }) => line.startsWith(`-- ${key.name} (contrainte UNIQUE`));
    return kept ? [`-- ${kept.name} n'est plus dans l'entité. Pour le supprimer, décommentez :`, `-- ${spelling.dropKey(spec.table, kept.name)}`] : [line];
  });
  return [
    `-- ${rebuildReasons(spelling, changes)}, la table ${spec.table} est reconstruite`,
    '-- (https://www.sqlite.org/lang_altertable.html#otheralter). « fw migration:apply » exécute cette migration',
    '-- dans sa propre transaction, clés étrangères désactivées, et ne la valide que si PRAGMA foreign_key_check est vide.',
    FOREIGN_KEYS_OFF,
    ...added,
    ...(spelling.rebuildTable(
      rebuilt,
      rebuilt.columns.map((c) => c.name),
    ) ?? []),
    ...comments,
  ];
}

/**
 * The migration that brings the table of `entity` to its definition, with a section per dialect (the same
 * change on MariaDB and SQLite, like every migration file). A changed column is MODIFY COLUMN on MariaDB and a
 * table rebuild on SQLite; so is a missing or changed foreign key (ALTER TABLE … ADD / DROP FOREIGN KEY on MariaDB).
 */
export function emitDiffMigration(name: string, model: ModelNode, entity: EntityNode, changes: readonly DiffChange[]): string {
  return `${migrationHeader(name, `fw migration:make --from-diff ${entity.name}`)}\n${migrationSections((dialect) => [diffStatements(model, entity, changes, dialect).join('\n')])}`;
}
