/**
 * What an SQL expression means, for `migration:diff` (docs/entities.md "migration:diff"): a DEFAULT or a CHECK as
 * the generator writes it and as the catalogue reports it (MariaDB rewrites `CHAR_LENGTH(`Nom`)` as
 * `char_length(`Nom`)`, quotes a string default `'l''x'` or `'l\'x'`, prints `1e3` as `1000`, drops the outer
 * parentheses) compare equal once read into tokens: names without their quotes and case, string literals by their
 * value, numbers by their decimal value, no spaces. Pure functions.
 */
import { spellingOf, type DialectName } from '../../runtime/db/dialect.js';

/** A number literal's decimal value, written the shortest way: `1.50` → `1.5`, `1e3` → `1000`, `-0.0` → `0`. */
export function canonicalNumber(text: string): string {
  const match = /^([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!match) return text;
  let digits = `${match[1] ?? ''}${match[2] ?? ''}`;
  let point = (match[1] ?? '').length + Number(match[3] ?? 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const whole = digits.slice(0, point).replace(/^0+/, '') || '0';
  const fraction = digits.slice(point).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** The tokens of an expression: `w:` a name or keyword (lower case), `s:` a string's value, `n:` a number, `p:` punctuation. */
function tokens(sql: string, dialect: DialectName): string[] {
  const lexicon = spellingOf(dialect).lexicon;
  const out: string[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || (c === '"' && lexicon.doubleQuotedStrings)) {
      let value = '';
      let j = i + 1;
      while (j < sql.length) {
        const d = sql[j]!;
        if (d === '\\' && lexicon.backslashEscapes && j + 1 < sql.length) {
          const e = sql[j + 1]!;
          value += ({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[e] ?? e;
          j += 2;
        } else if (d === c && sql[j + 1] === c) {
          value += c;
          j += 2;
        } else if (d === c) {
          break;
        } else {
          value += d;
          j++;
        }
      }
      // A character-set introducer (`_utf8mb4'…'`) says nothing of the value.
      if (out.at(-1)?.startsWith('w:_')) out.pop();
      out.push(`s:${value}`);
      i = j + 1;
      continue;
    }
    const close = c === '`' ? '`' : c === '"' ? '"' : c === '[' && lexicon.bracketIdentifiers ? ']' : null;
    if (close !== null) {
      let j = i + 1;
      let name = '';
      while (j < sql.length) {
        if (sql[j] === close && close !== ']' && sql[j + 1] === close) {
          name += close;
          j += 2;
        } else if (sql[j] === close) break;
        else name += sql[j++];
      }
      out.push(`w:${name.toLowerCase()}`);
      i = j + 1;
      continue;
    }
    const number = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(sql.slice(i));
    if (number) {
      out.push(`n:${canonicalNumber(number[0])}`);
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(sql.slice(i));
    if (word) {
      out.push(`w:${word[0].toLowerCase()}`);
      i += word[0].length;
      continue;
    }
    out.push(`p:${c}`);
    i++;
  }
  return out;
}

/** True when the first token opens the parenthesis the last one closes. */
function wrapped(list: readonly string[]): boolean {
  if (list[0] !== 'p:(' || list.at(-1) !== 'p:)') return false;
  let depth = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === 'p:(') depth++;
    else if (list[i] === 'p:)') depth--;
    if (depth === 0 && i < list.length - 1) return false;
  }
  return true;
}

/**
 * The meaning of an expression as one comparable string; `rename` maps a name (lower case) the table still has to
 * the one the entity gives it (a `renamed_from` column).
 */
export function sqlMeaning(sql: string, dialect: DialectName, rename: (name: string) => string = (name) => name): string {
  let list = tokens(sql, dialect).map((token) => (token.startsWith('w:') ? `w:${rename(token.slice(2))}` : token));
  while (wrapped(list)) list = list.slice(1, -1);
  return list.map((token) => JSON.stringify(token)).join(' ');
}

/** The meaning of a column's DEFAULT, null for none: `DEFAULT NULL` (MariaDB's report for a nullable column without one) is none. */
export function defaultMeaning(sql: string | null | undefined, dialect: DialectName): string | null {
  if (sql === null || sql === undefined) return null;
  const meaning = sqlMeaning(sql, dialect);
  return meaning === '' || meaning === JSON.stringify('w:null') ? null : meaning;
}
