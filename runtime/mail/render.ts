/**
 * Mail templates (docs/mail.md "Templates"): `mail/<name>_subject.txt` and `mail/<name>_text.txt` (both
 * required) and `mail/<name>_html.html` (optional), looked up in the application's views (`views_dir`, then the
 * framework's `runtime/views/`), rendered by the application's nunjucks environment, so with its globals (`trans`
 * and the locale, `url_for`) and filters. The HTML part is autoescaped; the subject and text parts are not (they are
 * not HTML: `&` stays `&`).
 */
import fs from 'node:fs';
import path from 'node:path';
import nunjucks from 'nunjucks';
import { get } from '../config.js';
import { templateManager } from '../templates/manager.js';
import { NunjucksRenderer } from '../templates/nunjucks.js';
import { refuseLineBreaks } from './address.js';

/** What a template renders to. */
export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  /** Absent when the project has no `<name>_html.html`. */
  readonly html?: string;
}

/** A template name that is not one, or a required part missing. */
export class MailTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailTemplateError';
  }
}

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]*(\/[A-Za-z0-9_][A-Za-z0-9_-]*)*$/;

interface EnvironmentInternals {
  loaders: Array<{ searchPaths?: string[] }>;
  globals: Record<string, unknown>;
  filters: Record<string, (...args: unknown[]) => unknown>;
}

let fallback: NunjucksRenderer | undefined;
const textEnvironments = new WeakMap<nunjucks.Environment, nunjucks.Environment>();

/** The application's environment: the registered NunjucksRenderer's, else one built like it. */
function htmlEnvironment(): nunjucks.Environment {
  const registered = (templateManager as unknown as { renderer?: unknown }).renderer;
  if (registered instanceof NunjucksRenderer) return registered.environment();
  fallback ??= new NunjucksRenderer();
  return fallback.environment();
}

/** The same folders, globals and filters without autoescape, for the subject and the text. */
function textEnvironment(html: nunjucks.Environment): nunjucks.Environment {
  let text = textEnvironments.get(html);
  if (text) return text;
  const source = html as unknown as EnvironmentInternals;
  const searchPaths = source.loaders.flatMap((loader) => loader.searchPaths ?? []);
  text = new nunjucks.Environment(new nunjucks.FileSystemLoader(searchPaths, { noCache: false }), { autoescape: false, throwOnUndefined: false });
  for (const [name, value] of Object.entries(source.globals)) text.addGlobal(name, value);
  for (const [name, filter] of Object.entries(source.filters)) {
    if (!(name in (text as unknown as EnvironmentInternals).filters)) text.addFilter(name, filter);
  }
  textEnvironments.set(html, text);
  return text;
}

/** The folders searched for `mail/…` templates, in order. */
export function mailTemplateFolders(): string[] {
  const source = htmlEnvironment() as unknown as EnvironmentInternals;
  return source.loaders.flatMap((loader) => loader.searchPaths ?? []);
}

function exists(relative: string): boolean {
  return mailTemplateFolders().some((folder) => fs.existsSync(path.join(folder, relative)));
}

/**
 * Renders the template `name` with `context`. The subject is trimmed and must be one line (a CR or LF left after
 * trimming throws `MailAddressError` with code `header_injection`); the text is kept as rendered. Throws
 * `MailTemplateError` when the name is not a plain name (letters, digits, `_`, `-`, sub-folders with `/`) or when
 * the subject or text part is missing. `app_name` is the configuration's unless the context gives one, as for
 * pages. Used by `sendMail({ template })` and by `fw mail:render`.
 */
export function renderMail(name: string, given: Record<string, unknown> = {}): RenderedMail {
  const context = { app_name: get('app_name'), ...given };
  if (!NAME.test(name)) throw new MailTemplateError(`Nom de modèle de message invalide : « ${name} » (lettres, chiffres, _ et - ; sous-dossiers avec /).`);
  const base = `mail/${name}`;
  for (const part of ['_subject.txt', '_text.txt']) {
    if (!exists(base + part)) {
      throw new MailTemplateError(`Modèle de message introuvable : ${base}${part} (cherché dans ${mailTemplateFolders().join(', ')}).`);
    }
  }
  const html = htmlEnvironment();
  const text = textEnvironment(html);
  const subject = text.render(`${base}_subject.txt`, context).trim();
  refuseLineBreaks('subject', subject);
  const body = text.render(`${base}_text.txt`, context);
  const htmlPart = exists(`${base}_html.html`) ? html.render(`${base}_html.html`, context) : undefined;
  return htmlPart === undefined ? { subject, text: body } : { subject, text: body, html: htmlPart };
}

interface TemplateNode {
  typename?: string;
  value?: unknown;
  fields?: string[];
  [field: string]: unknown;
}

/** The names a template reads and the names it binds itself (`for`, `set`, macro arguments), by walking its AST. */
function templateNames(source: string): { read: Set<string>; bound: Set<string> } {
  const read = new Set<string>();
  const bound = new Set<string>(['loop', 'caller']);
  const symbols = (node: unknown, into: Set<string>): void => {
    if (Array.isArray(node)) return node.forEach((item) => symbols(item, into));
    if (!node || typeof node !== 'object') return;
    const n = node as TemplateNode;
    if (n.typename === 'Symbol' && typeof n.value === 'string') into.add(n.value);
    for (const field of n.fields ?? []) {
      const child = n[field];
      for (const item of Array.isArray(child) ? child : [child]) symbols(item, into);
    }
  };
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as TemplateNode;
    const skip = new Set<string>();
    if (n.typename === 'Symbol' && typeof n.value === 'string') read.add(n.value);
    if (n.typename === 'For' || n.typename === 'AsyncEach' || n.typename === 'AsyncAll') {
      symbols(n.name, bound);
      skip.add('name');
    }
    if (n.typename === 'Set') {
      symbols(n.targets, bound);
      skip.add('targets');
    }
    if (n.typename === 'Macro') {
      symbols(n.name, bound);
      symbols(n.args, bound);
      skip.add('name');
      skip.add('args');
    }
    // A filter's name and a dict's key are not variables.
    if (n.typename === 'Filter') skip.add('name');
    if (n.typename === 'Pair' && (n.key as TemplateNode | undefined)?.typename === 'Symbol') skip.add('key');
    for (const field of n.fields ?? []) {
      if (skip.has(field)) continue;
      const child = n[field];
      for (const item of Array.isArray(child) ? child : [child]) walk(item);
    }
  };
  walk((nunjucks as unknown as { parser: { parse(src: string): unknown } }).parser.parse(source));
  return { read, bound };
}

/**
 * The variables the parts of template `name` read that neither `context`, `app_name` nor the environment's
 * globals (`trans`, `url_for`…) give, sorted: what would render empty (`fw mail:render` warns about them).
 * Variables of included templates are not followed.
 */
export function missingMailVariables(name: string, context: Record<string, unknown> = {}): string[] {
  const globals = (htmlEnvironment() as unknown as EnvironmentInternals).globals;
  const missing = new Set<string>();
  for (const part of ['_subject.txt', '_text.txt', '_html.html']) {
    const relative = `mail/${name}${part}`;
    const folder = mailTemplateFolders().find((candidate) => fs.existsSync(path.join(candidate, relative)));
    if (!folder) continue;
    const { read, bound } = templateNames(fs.readFileSync(path.join(folder, relative), 'utf8'));
    for (const variable of read) {
      if (!bound.has(variable) && !(variable in context) && variable !== 'app_name' && !(variable in globals)) missing.add(variable);
    }
  }
  return [...missing].sort();
}
