/** Translation catalogues: the framework's, overridden by the project's `translations/<locale>.json`. */
import fs from 'node:fs';
import path from 'node:path';
import { get, getPath, onConfigChange } from './config.js';
import { FRAMEWORK_I18N } from './paths.js';

type Catalogue = Map<string, string>;
const catalogues = new Map<string, Catalogue>();
onConfigChange((keys) => {
  if (keys.some((k) => k === 'locale' || k === 'translations_dir' || k === 'project_root')) catalogues.clear();
});

/** A parsed catalogue as dotted keys: both `{"a.b": "x"}` and `{"a": {"b": "x"}}` give `a.b`; non-strings are ignored. */
export function flattenCatalogue(value: unknown): Catalogue {
  const out: Catalogue = new Map();
  flatten(value, '', out);
  return out;
}

/** Flattens nested objects into dotted keys, so both `{"a.b": ""}` and `{"a": {"b": ""}}` work. */
function flatten(value: unknown, prefix: string, out: Catalogue): void {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else if (typeof value === 'string' && prefix) {
    out.set(prefix, value);
  }
}

function readCatalogue(file: string, out: Catalogue): void {
  if (!fs.existsSync(file)) return;
  try {
    flatten(JSON.parse(fs.readFileSync(file, 'utf8')), '', out);
  } catch (err) {
    throw new Error(`Catalogue de traduction illisible : ${file} (${(err as Error).message}).`, { cause: err });
  }
}

/** The merged catalogue of a locale (cached until the configuration changes). */
export function catalogue(locale: string = get('locale')): Catalogue {
  let found = catalogues.get(locale);
  if (!found) {
    found = new Map();
    readCatalogue(path.join(FRAMEWORK_I18N, `${locale}.json`), found);
    readCatalogue(path.join(getPath('translations_dir'), `${locale}.json`), found);
    catalogues.set(locale, found);
  }
  return found;
}

/**
 * The translation of a key, `{name}` placeholders filled from params; the key itself when missing or empty (a key
 * `fw i18n:init` added and nobody translated yet, which `fw i18n:check` reports).
 */
export function trans(key: string, params?: Record<string, unknown>): string {
  const text = catalogue().get(key) || key;
  if (!params) return text;
  return text.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Forgets cached catalogues (after editing a translation file). */
export function clearTranslations(): void {
  catalogues.clear();
}
