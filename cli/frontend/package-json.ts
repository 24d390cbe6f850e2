/** Reading and completing a project's package.json (js:init adds its npm dependencies there). */
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';

export const PACKAGE_JSON = 'package.json';

type PackageData = Record<string, unknown>;

/** Where a package may already be declared: any of them (even with an empty range) counts as declared. */
const DECLARING_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** The project's package.json as text and data; a CliError when it is missing or is not a JSON object. */
export function readPackageJson(root: string): { text: string; data: PackageData } {
  const file = path.join(root, PACKAGE_JSON);
  if (!fs.existsSync(file)) {
    throw new CliError(
      `package.json introuvable dans ${root}.`,
      "lancez la commande à la racine d'un projet créé par « fw new » (ou créez package.json avec « npm init »).",
    );
  }
  const text = fs.readFileSync(file, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `package.json n'est pas un JSON valide : ${(error as Error).message}`,
      "corrigez le fichier, puis relancez la commande ; rien n'a été écrit.",
    );
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new CliError('package.json doit contenir un objet JSON.', "corrigez le fichier, puis relancez la commande ; rien n'a été écrit.");
  return { text, data: data as PackageData };
}

/** True when `name` is declared in one of the dependency fields, whatever its range (`""` included). */
export function isDeclared(data: PackageData, name: string): boolean {
  return DECLARING_FIELDS.some((field) => {
    const value = data[field];
    return value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, name);
  });
}

/** A member of a JSON object in the text: its key (decoded) and where its key and value start and end. */
interface Member {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly valueStart: number;
  readonly valueEnd: number;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
  return at;
}

function stringEnd(text: string, at: number): number {
  at++;
  while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** The end of the JSON value starting at `at` (the text is valid JSON: JSON.parse read it first). */
function valueEnd(text: string, at: number): number {
  const c = text[at];
  if (c === '"') return stringEnd(text, at);
  if (c === '{') return objectMembers(text, at).close + 1;
  if (c === '[') {
    at = skipSpace(text, at + 1);
    if (text[at] === ']') return at + 1;
    for (;;) {
      at = skipSpace(text, valueEnd(text, at));
      if (text[at] === ']') return at + 1;
      at = skipSpace(text, at + 1);
    }
  }
  while (at < text.length && !',}] \t\r\n'.includes(text[at]!)) at++;
  return at;
}

/** The members of the object whose `{` is at `open`, and the offset of its `}`. */
function objectMembers(text: string, open: number): { members: Member[]; close: number } {
  const members: Member[] = [];
  let at = skipSpace(text, open + 1);
  if (text[at] === '}') return { members, close: at };
  for (;;) {
    const keyStart = at;
    const keyEnd = stringEnd(text, at);
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = valueEnd(text, valueStart);
    members.push({ key: JSON.parse(text.slice(keyStart, keyEnd)) as string, keyStart, keyEnd, valueStart, valueEnd: end });
    at = skipSpace(text, end);
    if (text[at] === '}') return { members, close: at };
    at = skipSpace(text, at + 1);
  }
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** `text` with `"name": "range"` added to the top-level `dependencies` object (created when absent), every other byte kept. */
function insertDependency(text: string, name: string, range: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const open = skipSpace(text, 0);
  const top = objectMembers(text, open);
  // The indentation unit: the first top-level key's (two spaces for a file without any).
  const unit = top.members.length > 0 ? lineIndent(text, top.members[0]!.keyStart) || '  ' : '  ';
  const entry = (separator: string): string => `${JSON.stringify(name)}${separator}${JSON.stringify(range)}`;
  const dependencies = top.members.filter((member) => member.key === 'dependencies').pop();
  if (!dependencies) {
    const block = `"dependencies": {${eol}${unit}${unit}${entry(': ')}${eol}${unit}}`;
    const last = top.members[top.members.length - 1];
    if (!last) return `${text.slice(0, open + 1)}${eol}${unit}${block}${eol}${text.slice(top.close)}`;
    return `${text.slice(0, last.valueEnd)},${eol}${lineIndent(text, last.keyStart)}${block}${text.slice(last.valueEnd)}`;
  }
  if (text[dependencies.valueStart] !== '{') {
    throw new CliError(
      "package.json : « dependencies » n'est pas un objet.",
      'corrigez le fichier (« "dependencies": { … } »), puis relancez la commande ; rien n\'a été écrit.',
    );
  }
  const { members, close } = objectMembers(text, dependencies.valueStart);
  if (members.length === 0) {
    const outer = lineIndent(text, dependencies.keyStart);
    return `${text.slice(0, dependencies.valueStart + 1)}${eol}${outer}${unit}${entry(': ')}${eol}${outer}${text.slice(close)}`;
  }
  const first = members[0]!;
  const separator = text.slice(first.keyEnd, first.valueStart);
  const sameLine = !text.slice(dependencies.valueStart, first.keyStart).includes('\n');
  const next = members.find((member) => member.key.localeCompare(name) > 0);
  if (next) {
    const gap = sameLine ? ' ' : `${eol}${lineIndent(text, next.keyStart)}`;
    return `${text.slice(0, next.keyStart)}${entry(separator)},${gap}${text.slice(next.keyStart)}`;
  }
  const last = members[members.length - 1]!;
  const gap = sameLine ? ' ' : `${eol}${lineIndent(text, last.keyStart)}`;
  return `${text.slice(0, last.valueEnd)},${gap}${entry(separator)}${text.slice(last.valueEnd)}`;
}

/**
 * package.json with `wanted` added to `dependencies`, edited as text: each new line goes in its sorted place (as npm
 * keeps them) with the file's line endings, indentation and spacing, every other byte as it was (escapes, big
 * numbers, the order of the fields). A package declared in dependencies, devDependencies, peerDependencies or
 * optionalDependencies (even with an empty range) is left as it is. The same text when nothing is added.
 */
export function addDependencies(text: string, data: PackageData, wanted: ReadonlyArray<readonly [string, string]>): { text: string; added: string[] } {
  const missing = wanted.filter(([name]) => !isDeclared(data, name));
  let edited = text;
  for (const [name, range] of missing) edited = insertDependency(edited, name, range);
  return { text: edited, added: missing.map(([name]) => name) };
}

/** The file of an installed package of the project (`node_modules/<name>/<file>`), or null when it is not installed. */
export function installedFile(root: string, packageName: string, file: string): string | null {
  const target = path.join(root, 'node_modules', ...packageName.split('/'), ...file.split('/'));
  return fs.statSync(target, { throwIfNoEntry: false })?.isFile() ? target : null;
}

/** The version of an installed package of the project, or null. */
export function installedVersion(root: string, packageName: string): string | null {
  const manifest = installedFile(root, packageName, 'package.json');
  if (!manifest) return null;
  try {
    const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}
