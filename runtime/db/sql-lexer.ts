/**
 * A small SQL lexer shared by the placeholder binder (runtime) and the script splitter (CLI): it tells code
 * from string literals, quoted identifiers and comments, so that a `?` or a `;` inside a literal or a comment
 * is never taken for a placeholder or a statement end.
 */
import { spellingOf, type DialectName } from './dialect.js';

export interface LexOptions {
  /** MariaDB only: whether `\` escapes inside string literals (true unless the session has NO_BACKSLASH_ESCAPES). */
  readonly backslashEscapes?: boolean;
}

/**
 * Returns `sql` with the same length and the same line breaks, where comments and the contents of string
 * literals are blanked (spaces), and `;` / `?` inside quoted identifiers too. Code keeps its characters, so a
 * position found in the mask is the same position in `sql`.
 *
 * Rules per dialect, from its `lexicon` (runtime/db/dialect.ts): MariaDB strings take `'…'` and `"…"` with
 * backslash escapes and doubled quotes, comments are `#…`, `-- …` (a space or control character after the dashes)
 * and `/* … *\/`; SQLite strings take `'…'` with doubled quotes only, `"…"` and `[…]` are identifiers, comments
 * are `--…` and `/* … *\/`. Backticks quote identifiers in both. `backslashEscapes: false` reads MariaDB strings
 * as a session with NO_BACKSLASH_ESCAPES does (a backslash is an ordinary character).
 */
export function maskSql(sql: string, dialect: DialectName, options: LexOptions = {}): string {
  const lexicon = spellingOf(dialect).lexicon;
  const backslashEscapes = lexicon.backslashEscapes && options.backslashEscapes !== false;
  const out: string[] = [];
  const n = sql.length;
  let i = 0;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) {
      const ch = sql[k]!;
      out.push(ch === '\n' || ch === '\r' ? ch : ' ');
    }
  };
  while (i < n) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (ch === "'" || (ch === '"' && lexicon.doubleQuotedStrings)) {
      const { end, closed } = stringEnd(sql, i, ch, backslashEscapes);
      out.push(ch);
      if (closed) {
        blank(i + 1, end - 1);
        out.push(ch);
      } else {
        blank(i + 1, end);
      }
      i = end;
    } else if (ch === '`' || (ch === '"' && !lexicon.doubleQuotedStrings) || (ch === '[' && lexicon.bracketIdentifiers)) {
      const close = ch === '[' ? ']' : ch;
      const end = identifierEnd(sql, i, close);
      for (let k = i; k < end; k++) {
        const c = sql[k]!;
        out.push(c === ';' || c === '?' ? ' ' : c);
      }
      i = end;
    } else if (ch === '#' && lexicon.hashComments) {
      const end = lineEnd(sql, i);
      blank(i, end);
      i = end;
    } else if (ch === '-' && next === '-' && (!lexicon.dashCommentsNeedSpace || isDashCommentStart(sql[i + 2]))) {
      const end = lineEnd(sql, i);
      blank(i, end);
      i = end;
    } else if (ch === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      const end = close === -1 ? n : close + 2;
      blank(i, end);
      i = end;
    } else {
      out.push(ch);
      i++;
    }
  }
  return out.join('');
}

/** Positions of the `?` placeholders of `sql` (outside literals, quoted identifiers and comments). */
export function placeholderPositions(sql: string, dialect: DialectName, options: LexOptions = {}): number[] {
  const mask = maskSql(sql, dialect, options);
  const positions: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    // `?NNN` is SQLite's numbered form; it is left to the driver.
    if (mask[i] === '?' && !/[0-9]/.test(mask[i + 1] ?? '')) positions.push(i);
  }
  return positions;
}

/** MariaDB needs a space or a control character after `--` for a comment (`1--1` is arithmetic). */
function isDashCommentStart(ch: string | undefined): boolean {
  return ch === undefined || ch <= ' ';
}

function lineEnd(sql: string, from: number): number {
  const nl = sql.indexOf('\n', from);
  return nl === -1 ? sql.length : nl;
}

/** Index just after the closing quote, or the end of the text when the literal is not closed. */
function stringEnd(sql: string, start: number, quote: string, backslashEscapes: boolean): { end: number; closed: boolean } {
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i];
    if (backslashEscapes && ch === '\\') {
      i += 2;
    } else if (ch === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return { end: i + 1, closed: true };
    } else {
      i++;
    }
  }
  return { end: sql.length, closed: false };
}

function identifierEnd(sql: string, start: number, close: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === close) {
      if (close !== ']' && sql[i + 1] === close) i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  return sql.length;
}
