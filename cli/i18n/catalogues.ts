/**
 * The catalogues `fw i18n:check` and `fw i18n:init` read (docs/frontend.md "Translations: fw i18n:init, fw
 * i18n:check"): the project's `translations/<locale>.json`, one per locale, over the framework's
 * `runtime/i18n/<locale>.json`, as the runtime merges them (the project's value wins).
 */
import fs from 'node:fs';
import path from 'node:path';
import { flattenCatalogue } from '../../runtime/translations.js';
import { frameworkRoot, listFiles } from './usage.js';

export const TRANSLATIONS_DIR = 'translations';
/** The locale of a project without catalogues, and the one `fw i18n:init` completes (French only: the generated pages are French). */
export const DEFAULT_LOCALE = 'fr';

export interface ProjectCatalogue {
  readonly locale: string;
  /** `translations/fr.json` */
  readonly file: string;
  readonly entries: ReadonlyMap<string, string>;
  /** Why the file could not be read (its entries are then empty). */
  readonly error?: string;
}

export interface Catalogues {
  readonly project: readonly ProjectCatalogue[];
  /** The framework's catalogue of each locale (empty when the framework has none). */
  readonly framework: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Locales checked: the project's, or the default one when it has no catalogue. */
  readonly locales: readonly string[];
}

/** The path of a locale's catalogue in the project. */
export function catalogueFile(locale: string): string {
  return `${TRANSLATIONS_DIR}/${locale}.json`;
}

/** Reads a JSON catalogue; `error` says why it could not be read. */
export function readCatalogueFile(file: string): { entries: Map<string, string>; error?: string } {
  try {
    const data: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!data || typeof data !== 'object' || Array.isArray(data)) return { entries: new Map(), error: 'le fichier doit contenir un objet JSON' };
    return { entries: flattenCatalogue(data) };
  } catch (error) {
    return { entries: new Map(), error: `JSON invalide (${(error as Error).message})` };
  }
}

export function loadCatalogues(root: string): Catalogues {
  const project: ProjectCatalogue[] = listFiles(path.join(root, TRANSLATIONS_DIR), '.json')
    .filter((name) => !name.includes('/'))
    .map((name) => {
      const file = catalogueFile(name.slice(0, -'.json'.length));
      return { locale: name.slice(0, -'.json'.length), file, ...readCatalogueFile(path.join(root, file)) };
    });
  const locales = project.length > 0 ? project.map((c) => c.locale) : [DEFAULT_LOCALE];
  const i18nDir = path.join(frameworkRoot(root), 'runtime', 'i18n');
  const framework = new Map<string, ReadonlyMap<string, string>>();
  for (const locale of locales) {
    const file = path.join(i18nDir, `${locale}.json`);
    framework.set(locale, fs.existsSync(file) ? readCatalogueFile(file).entries : new Map());
  }
  return { project, framework, locales };
}

/** The merged catalogue of a locale, as the runtime sees it. */
export function merged(catalogues: Catalogues, locale: string): Map<string, string> {
  const out = new Map(catalogues.framework.get(locale) ?? []);
  for (const [key, value] of catalogues.project.find((c) => c.locale === locale)?.entries ?? []) out.set(key, value);
  return out;
}
