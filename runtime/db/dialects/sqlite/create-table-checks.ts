/**
 * The CHECK constraints written in a SQLite CREATE TABLE (the text `sqlite_master` keeps, renames included): SQLite
 * has no catalogue of them. Table constraints only, `CONSTRAINT <name> CHECK (…)` or an unnamed `CHECK (…)`; a CHECK
 * written inside a column definition is not one fw writes (runtime/db/ddl/clauses.ts) and is left out.
 */
import type { CheckInfo } from '../../catalogue.js';

/** An identifier without its quotes (`"a""b"`, `` `a` ``, `[a]` or bare). */
function bare(identifier: string): string {
  const first = identifier[0];
  if (first === '"') return identifier.slice(1, -1).replace(/""/g, '"');
  if (first === '`') return identifier.slice(1, -1).replace(/``/g, '`');
  if (first === '[') return identifier.slice(1, -1);
  return identifier;
}

/** The definitions between the outer parentheses of a CREATE TABLE, split at their top-level commas, comments left out. */
function definitions(sql: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    const close = c === "'" || c === '"' || c === '`' ? c : c === '[' ? ']' : null;
    if (close !== null) {
      let end = i + 1;
      while (end < sql.length) {
        if (sql[end] === close) {
          if (close !== ']' && sql[end + 1] === close) end += 2;
          else break;
        } else end++;
      }
      if (depth > 0) current += sql.slice(i, end + 1);
      i = end;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
      current += ' ';
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 1;
      current += ' ';
      continue;
    }
    if (c === '(') {
      depth++;
      if (depth === 1) continue;
    } else if (c === ')') {
      depth--;
      if (depth === 0) {
        parts.push(current.trim());
        break;
      }
    } else if (c === ',' && depth === 1) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    if (depth > 0) current += c;
  }
  return parts.filter(Boolean);
}

const IDENT = '("(?:[^"]|"")+"|`(?:[^`]|``)+`|\\[[^\\]]+\\]|[A-Za-z_][A-Za-z0-9_$]*)';
const NAMED = new RegExp(`^CONSTRAINT\\s+${IDENT}\\s+CHECK\\s*\\(([\\s\\S]*)\\)$`, 'i');
const UNNAMED = /^CHECK\s*\(([\s\S]*)\)$/i;

/** The table-level CHECK constraints of a CREATE TABLE statement, in the order written. */
export function createTableChecks(sql: string): CheckInfo[] {
  const checks: CheckInfo[] = [];
  for (const part of definitions(sql)) {
    const named = NAMED.exec(part);
    if (named) checks.push({ name: bare(named[1]!), clause: named[2]!.trim() });
    const unnamed = named ? null : UNNAMED.exec(part);
    if (unnamed) checks.push({ name: null, clause: unnamed[1]!.trim() });
  }
  return checks;
}
