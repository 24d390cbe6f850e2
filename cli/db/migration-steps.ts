/**
 * The destructive steps of a migration's statements (docs/entities.md "Destructive steps"), read from its SQL
 * alone: dropped tables and columns, column definitions that a MODIFY / CHANGE (MariaDB) or a table rebuild
 * (SQLite, emitters/migration.ts) gives a new type or NOT NULL, unique keys and CHECK constraints added. Whether a new definition
 * narrows the column, and how many rows each step touches, is read from the database (migration-risks.ts).
 * Pure functions.
 */
import type { SqlStatement } from './sql-split.js';

/** One step as the SQL says it; the table and column names are those of the database before the file runs. */
export type MigrationStep =
  | { readonly kind: 'DROP_TABLE'; readonly table: string; readonly line: number }
  | { readonly kind: 'DROP_COLUMN'; readonly table: string; readonly column: string; readonly line: number }
  | {
      readonly kind: 'COLUMN_DEFINITION';
      readonly table: string;
      readonly column: string;
      readonly type: string;
      readonly notNull: boolean;
      readonly line: number;
    }
  | { readonly kind: 'UNIQUE'; readonly table: string; readonly columns: readonly string[]; readonly line: number }
  /** A CHECK added to a table that may hold rows (ADD CONSTRAINT … CHECK, or one in a rebuild's new table): `test` is its expression. */
  | { readonly kind: 'CHECK'; readonly table: string; readonly name: string | null; readonly test: string; readonly line: number }
  /** A SQLite rebuild: the columns of the new table (those of the old one it lacks are dropped). */
  | { readonly kind: 'REBUILD'; readonly table: string; readonly columns: readonly string[]; readonly line: number };

const IDENT = '(`(?:[^`]|``)+`|"(?:[^"]|"")+"|\\[[^\\]]+\\]|[A-Za-z_][A-Za-z0-9_$]*)';
const STAGING = '__fw_new';

/** An identifier without its quotes. */
function bare(identifier: string): string {
  const first = identifier[0];
  if (first === '`') return identifier.slice(1, -1).replace(/``/g, '`');
  if (first === '"') return identifier.slice(1, -1).replace(/""/g, '"');
  if (first === '[') return identifier.slice(1, -1);
  return identifier;
}

/** Splits at the commas outside parentheses and quotes. */
function topLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

function columnList(text: string): string[] {
  return topLevel(text).map((c) =>
    bare(
      c
        .replace(/\s*\(\d+\)\s*$/, '')
        .replace(/\s+(ASC|DESC)$/i, '')
        .trim(),
    ),
  );
}

/** `<type> [NOT NULL | NULL] …` of a column definition: the type up to the first keyword, and NOT NULL. */
function definition(text: string): { type: string; notNull: boolean } {
  const type = /^([A-Za-z]+(?:\s+PRECISION)?(?:\s*\([^)]*\))?(?:\s+(?:UNSIGNED|SIGNED|ZEROFILL))*)/i.exec(text.trim())?.[1] ?? '';
  const rest = text.trim().slice(type.length);
  return { type: type.trim(), notNull: /\bNOT\s+NULL\b/i.test(rest) || /\bPRIMARY\s+KEY\b/i.test(rest) };
}

const alterTable = new RegExp(`^ALTER\\s+TABLE\\s+${IDENT}\\s+([\\s\\S]*)$`, 'i');
const dropTable = new RegExp(`^DROP\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?([\\s\\S]+?)(?:\\s+(?:RESTRICT|CASCADE))?$`, 'i');
const createStaging = new RegExp(`^CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?${IDENT}\\s*\\(([\\s\\S]*)\\)\\s*[^)]*$`, 'i');
const createUnique = new RegExp(`^CREATE\\s+UNIQUE\\s+INDEX\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?${IDENT}\\s+ON\\s+${IDENT}\\s*\\(([\\s\\S]*)\\)\\s*$`, 'i');
const dropColumn = new RegExp(`^DROP\\s+(?:COLUMN\\s+)?(?:IF\\s+EXISTS\\s+)?${IDENT}\\s*(?:RESTRICT|CASCADE)?$`, 'i');
const modifyColumn = new RegExp(`^MODIFY\\s+(?:COLUMN\\s+)?(?:IF\\s+EXISTS\\s+)?${IDENT}\\s+([\\s\\S]+)$`, 'i');
const changeColumn = new RegExp(`^CHANGE\\s+(?:COLUMN\\s+)?(?:IF\\s+EXISTS\\s+)?${IDENT}\\s+${IDENT}\\s+([\\s\\S]+)$`, 'i');
const renameColumn = new RegExp(`^RENAME\\s+COLUMN\\s+${IDENT}\\s+TO\\s+${IDENT}$`, 'i');
const renameTable = new RegExp(`^RENAME\\s+(?:TO|AS)\\s+${IDENT}$`, 'i');
const addUnique = new RegExp(`^ADD\\s+(?:CONSTRAINT\\s+(?:${IDENT}\\s+)?)?UNIQUE\\s+(?:KEY\\s+|INDEX\\s+)?(?:${IDENT}\\s*)?\\(([\\s\\S]*)\\)$`, 'i');
const addCheck = new RegExp(`^(?:ADD\\s+)?(?:CONSTRAINT\\s+${IDENT}\\s+)?CHECK\\s*\\(([\\s\\S]*)\\)$`, 'i');
const NOT_A_COLUMN = /^(INDEX|KEY|FOREIGN|PRIMARY|CONSTRAINT|CHECK|UNIQUE|PARTITION)\b/i;

/**
 * The steps of one file's statements for one dialect, in order. Names are followed through the file's own
 * renames (RENAME COLUMN, a rebuild's staging table), so that each step names what the database has now.
 */
export function migrationSteps(statements: readonly SqlStatement[]): MigrationStep[] {
  const steps: MigrationStep[] = [];
  /** table -> (column name in the file -> column name in the database). */
  const renamed = new Map<string, Map<string, string>>();
  const original = (table: string, column: string): string => renamed.get(table.toLowerCase())?.get(column.toLowerCase()) ?? column;
  const rebuilt = new Set<string>();
  for (const { text, line } of statements) {
    const staging = createStaging.exec(text);
    if (staging && bare(staging[1]!).endsWith(STAGING)) {
      const table = bare(staging[1]!).slice(0, -STAGING.length);
      rebuilt.add(table.toLowerCase());
      const columns: string[] = [];
      for (const part of topLevel(staging[2]!)) {
        const unique = /^(?:CONSTRAINT\s+\S+\s+)?UNIQUE\s*\(([\s\S]*)\)$/i.exec(part);
        if (unique) {
          steps.push({ kind: 'UNIQUE', table, columns: columnList(unique[1]!).map((c) => original(table, c)), line });
          continue;
        }
        const check = addCheck.exec(part);
        if (check) {
          steps.push({ kind: 'CHECK', table, name: check[1] === undefined ? null : bare(check[1]), test: check[2]!, line });
          continue;
        }
        if (NOT_A_COLUMN.test(part)) continue;
        const column = new RegExp(`^${IDENT}\\s+([\\s\\S]*)$`).exec(part);
        if (!column) continue;
        const name = original(table, bare(column[1]!));
        columns.push(name);
        steps.push({ kind: 'COLUMN_DEFINITION', table, column: name, ...definition(column[2]!), line });
        if (/\bUNIQUE\b/i.test(column[2]!)) steps.push({ kind: 'UNIQUE', table, columns: [name], line });
      }
      steps.push({ kind: 'REBUILD', table, columns, line });
      continue;
    }
    const unique = createUnique.exec(text);
    if (unique) {
      const table = bare(unique[2]!);
      steps.push({ kind: 'UNIQUE', table, columns: columnList(unique[3]!).map((c) => original(table, c)), line });
      continue;
    }
    const drop = dropTable.exec(text);
    if (drop) {
      for (const name of topLevel(drop[1]!).map(bare)) {
        // The old table of a rebuild is dropped once copied: the REBUILD step says what it loses.
        if (!rebuilt.has(name.toLowerCase()) && !name.endsWith(STAGING)) steps.push({ kind: 'DROP_TABLE', table: name, line });
      }
      continue;
    }
    const alter = alterTable.exec(text);
    if (!alter) continue;
    const table = bare(alter[1]!);
    for (const clause of topLevel(alter[2]!)) {
      const rename = renameColumn.exec(clause);
      if (rename) {
        const key = table.toLowerCase();
        const map = renamed.get(key) ?? new Map<string, string>();
        map.set(bare(rename[2]!).toLowerCase(), original(table, bare(rename[1]!)));
        renamed.set(key, map);
        continue;
      }
      if (renameTable.test(clause)) continue;
      const dropped = dropColumn.exec(clause);
      if (dropped && !NOT_A_COLUMN.test(clause.replace(/^DROP\s+/i, ''))) {
        steps.push({ kind: 'DROP_COLUMN', table, column: original(table, bare(dropped[1]!)), line });
        continue;
      }
      const modify = modifyColumn.exec(clause);
      if (modify) {
        steps.push({ kind: 'COLUMN_DEFINITION', table, column: original(table, bare(modify[1]!)), ...definition(modify[2]!), line });
        if (/\bUNIQUE\b/i.test(modify[2]!)) steps.push({ kind: 'UNIQUE', table, columns: [original(table, bare(modify[1]!))], line });
        continue;
      }
      const change = changeColumn.exec(clause);
      if (change) {
        const from = original(table, bare(change[1]!));
        steps.push({ kind: 'COLUMN_DEFINITION', table, column: from, ...definition(change[3]!), line });
        const map = renamed.get(table.toLowerCase()) ?? new Map<string, string>();
        map.set(bare(change[2]!).toLowerCase(), from);
        renamed.set(table.toLowerCase(), map);
        continue;
      }
      const check = /^ADD\s/i.test(clause) ? addCheck.exec(clause) : null;
      if (check) {
        steps.push({ kind: 'CHECK', table, name: check[1] === undefined ? null : bare(check[1]), test: check[2]!, line });
        continue;
      }
      const addKey = addUnique.exec(clause);
      if (addKey) steps.push({ kind: 'UNIQUE', table, columns: columnList(addKey[3]!).map((c) => original(table, c)), line });
    }
  }
  return steps;
}
