/**
 * Environment files: `env/<APP_ENV>` is read into process.env; the process environment wins (docs/decisions.md#how-a-generated-app-runs).
 * The format is dotenv's, described in docs/runtime.md "Environment files".
 */
import fs from 'node:fs';
import path from 'node:path';

/** `KEY=` at the start of a line, after blanks and an optional `export `. */
const ASSIGNMENT = /[ \t]*(?:export[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*=[ \t]*/y;

const DOUBLE_QUOTED_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/** A mistake in an environment file, with its 1-based line. */
export class EnvSyntaxError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${source}, ligne ${line} : ${detail}`);
    this.name = 'EnvSyntaxError';
  }
}

/**
 * Parses the dotenv format: `KEY=value` lines, `#` comments, an optional `export ` prefix, values in single quotes
 * (literal), backquotes (literal) or double quotes (`\n`, `\r`, `\t`, `\"` and `\\` escapes); quoted values may
 * span lines. An unquoted value ends at a `#` that follows a blank (`a#b` keeps its `#`) and is trimmed. Lines
 * without `=` are ignored; the last of two equal keys wins. An unclosed quote throws an {@link EnvSyntaxError}.
 */
export function parseEnv(text: string, source = 'env'): Record<string, string> {
  const content = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const out: Record<string, string> = {};
  let at = 0;
  let line = 1;
  while (at < content.length) {
    const end = lineEnd(content, at);
    ASSIGNMENT.lastIndex = at;
    const assignment = ASSIGNMENT.exec(content);
    if (!assignment) {
      // A blank line, a comment, or a line without `KEY=`: nothing to read.
      at = end + 1;
      line++;
      continue;
    }
    const key = assignment[1]!;
    const valueStart = ASSIGNMENT.lastIndex;
    const quote = content[valueStart];
    if (quote === '"' || quote === "'" || quote === '`') {
      const { value, next } = readQuoted(content, valueStart, line, source);
      out[key] = value;
      line += countNewlines(content, at, next);
      const rest = lineEnd(content, next);
      const trailing = content.slice(next, rest).trim();
      if (trailing !== '' && !trailing.startsWith('#')) {
        throw new EnvSyntaxError(source, line, `texte inattendu après la valeur entre guillemets de ${key} : « ${trailing} ».`);
      }
      at = rest + 1;
    } else {
      out[key] = stripInlineComment(content.slice(valueStart, end)).trim();
      at = end + 1;
    }
    line++;
  }
  return out;
}

/** Reads `"…"`, `'…'` or `` `…` `` from `start` (the opening quote); `next` is just past the closing quote. */
function readQuoted(content: string, start: number, line: number, source: string): { value: string; next: number } {
  const quote = content[start]!;
  if (quote !== '"') {
    const close = content.indexOf(quote, start + 1);
    if (close < 0) throw new EnvSyntaxError(source, line, `guillemet fermant ${quote} manquant.`);
    return { value: content.slice(start + 1, close), next: close + 1 };
  }
  let value = '';
  for (let at = start + 1; at < content.length; at++) {
    const char = content[at]!;
    if (char === '"') return { value, next: at + 1 };
    if (char === '\\' && at + 1 < content.length) {
      const escaped = DOUBLE_QUOTED_ESCAPES[content[at + 1]!];
      if (escaped !== undefined) {
        value += escaped;
        at++;
        continue;
      }
    }
    value += char;
  }
  throw new EnvSyntaxError(source, line, 'guillemet fermant " manquant.');
}

/** The value before an inline comment: a `#` at the start or after a space or a tab. */
function stripInlineComment(value: string): string {
  const comment = /(^|[ \t])#/.exec(value);
  return comment ? value.slice(0, comment.index) : value;
}

function lineEnd(content: string, from: number): number {
  const end = content.indexOf('\n', from);
  return end < 0 ? content.length : end;
}

function countNewlines(content: string, from: number, to: number): number {
  let count = 0;
  for (let at = content.indexOf('\n', from); at >= 0 && at < to; at = content.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * Loads `<root>/env/<APP_ENV|dev>` into process.env without overriding variables already set. Returns the file's
 * values. Throws an {@link EnvSyntaxError} naming the file and line when a quote is not closed.
 */
export function loadEnv(root: string = process.cwd()): Record<string, string> {
  const name = process.env.APP_ENV || 'dev';
  const file = path.join(root, 'env', name);
  if (!fs.existsSync(file)) return {};
  const parsed = parseEnv(fs.readFileSync(file, 'utf8'), `env/${name}`);
  for (const [key, value] of Object.entries(parsed)) if (process.env[key] === undefined) process.env[key] = value;
  return parsed;
}
