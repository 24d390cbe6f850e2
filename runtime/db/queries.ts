/**
 * `loadQueries(fileName)` (`charger_queries` under its old name; docs/api-mapping.md): named queries of `{sql_dir}/{app_env}/<fileName>`.
 *
 * Format: each query starts with a line `-- name: <queryName>`; its text runs until the next such line,
 * trimmed, a trailing `;` removed. Blank lines and `--` comments before the first name are allowed.
 * The result is cached per absolute path and read again when the file's size or its modification time in
 * nanoseconds changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { get, getPath } from '../config.js';
import { QueryFileError } from './errors.js';

/** Query name → SQL text (a frozen object without prototype). */
export type QueryMap = Readonly<Record<string, string>>;

interface CacheEntry {
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly queries: QueryMap;
}

/** Keyed by absolute path, so that two projects (or two app_env) never share an entry. */
const cache = new Map<string, CacheEntry>();

const NAME_LINE = /^\s*--\s*name:\s*(.*?)\s*$/;
const QUERY_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Loads the named queries of `{sql_dir}/{app_env}/<fileName>`; a missing file or a bad block throws QueryFileError. */
export function loadQueries(fileName: string): QueryMap {
  const base = path.resolve(getPath('sql_dir'), get('app_env'));
  const file = path.resolve(base, fileName);
  if (path.isAbsolute(fileName) || !file.startsWith(base + path.sep)) {
    throw new QueryFileError(file, `Nom de fichier de requêtes invalide « ${fileName} » : il doit rester dans ${base}.`);
  }
  return loadQueryFile(file);
}

/** Same as `loadQueries` for an explicit absolute path (tests, tools). */
export function loadQueryFile(file: string): QueryMap {
  const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  if (!stat || !stat.isFile()) {
    throw new QueryFileError(file, `Fichier de requêtes introuvable : ${file}.`);
  }
  const cached = cache.get(file);
  if (cached && cached.size === stat.size && cached.mtimeNs === stat.mtimeNs) return cached.queries;
  const queries = parseQueries(fs.readFileSync(file, 'utf8'), file);
  cache.set(file, { size: stat.size, mtimeNs: stat.mtimeNs, queries });
  return queries;
}

/** Empties the cache (tests). */
export function clearQueryCache(): void {
  cache.clear();
}

/** Parses the `-- name:` format; `file` only names the culprit in errors. */
export function parseQueries(text: string, file: string): QueryMap {
  const queries = Object.create(null) as Record<string, string>;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let name: string | null = null;
  let nameLine = 0;
  let body: string[] = [];
  const close = (): void => {
    if (name === null) return;
    const sql = body.join('\n').trim().replace(/;\s*$/, '').trim();
    if (!sql) throw new QueryFileError(file, `${file}:${nameLine} : la requête « ${name} » est vide.`);
    queries[name] = sql;
  };
  lines.forEach((line, index) => {
    const match = NAME_LINE.exec(line);
    if (match) {
      close();
      const candidate = match[1]!;
      if (!QUERY_NAME.test(candidate)) {
        throw new QueryFileError(file, `${file}:${index + 1} : nom de requête invalide « ${candidate} » (lettres, chiffres, « _ »).`);
      }
      if (candidate in queries || candidate === name) {
        throw new QueryFileError(file, `${file}:${index + 1} : la requête « ${candidate} » est définie deux fois.`);
      }
      name = candidate;
      nameLine = index + 1;
      body = [];
    } else if (name !== null) {
      body.push(line);
    } else if (line.trim() && !line.trim().startsWith('--')) {
      throw new QueryFileError(file, `${file}:${index + 1} : du SQL précède la première ligne « -- name: <nom> ».`);
    }
  });
  close();
  return Object.freeze(queries);
}
