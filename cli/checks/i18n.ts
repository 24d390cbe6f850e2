/**
 * Family `i18n` (FW-I18N-001 to FW-I18N-005): the rules of `fw i18n:check` (docs/frontend.md "fw i18n:check [--json]"),
 * which prints these same results. FAIL: an unreadable catalogue, a key used but missing from a catalogue, a key of
 * one catalogue missing from another, an empty value. WARN: a key of the project's catalogues that nothing uses (a
 * key that overrides one of the framework's is in use by the framework). The catalogues and the uses are read by
 * cli/i18n/. Each result keeps the label `i18n:check` has always printed for it. Read-only.
 */
import type { KeyUse } from '../i18n/usage.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult, type CheckStatus } from './check.js';

function i18n(id: number, code: string, label: string): CheckDefinition & { readonly code: string } {
  return { id: `FW-I18N-${String(id).padStart(3, '0')}`, family: 'i18n', code, label };
}

/** `code` is the name `i18n:check --json` gives each check. */
const D = {
  catalogue: i18n(1, 'catalogue', 'Catalogues'),
  missingKey: i18n(2, 'missing_key', 'Clés utilisées'),
  catalogueGap: i18n(3, 'catalogue_gap', 'Concordance des catalogues'),
  emptyValue: i18n(4, 'empty_value', 'Valeurs'),
  unusedKey: i18n(5, 'unused_key', 'Clés inutilisées'),
} as const;

export const I18N_DEFINITIONS: readonly CheckDefinition[] = Object.values(D).map(({ id, family, label }) => ({ id, family, label }));

/** The `code` of an i18n check's id (`FW-I18N-002` → `missing_key`). */
export function i18nCheckCode(id: string): string {
  const found = Object.values(D).find((definition) => definition.id === id);
  if (!found) throw new Error(`Contrôle i18n inconnu : ${id}.`);
  return found.code;
}

/** A result under its own label (`Clé manquante` for a FAIL of FW-I18N-002), as `i18n:check` prints it. */
function labelled(definition: CheckDefinition, status: CheckStatus, label: string, detail: string, file?: string): CheckResult {
  return { ...result(definition, status, detail), label, ...(file ? { file } : {}) };
}

/** `mvc/views/home/index.html:3` (and how many other places). */
function where(uses: readonly KeyUse[]): string {
  const first = uses[0]!;
  return `${first.file}:${first.line}${uses.length > 1 ? ` et ${uses.length - 1} autre(s) endroit(s)` : ''}`;
}

/** Every i18n result in the order `i18n:check` prints them. */
export const i18nCheck: CheckFunction = async ({ root }) => {
  const { scanUsage } = await import('../i18n/usage.js');
  const { loadCatalogues, merged, catalogueFile } = await import('../i18n/catalogues.js');
  const usage = scanUsage(root);
  const catalogues = loadCatalogues(root);
  const byKey = new Map<string, KeyUse[]>();
  for (const use of usage.uses) {
    const uses = byKey.get(use.key);
    if (uses) uses.push(use);
    else byKey.set(use.key, [use]);
  }
  const used = [...byKey.keys()].sort();
  const full = new Map(catalogues.locales.map((locale) => [locale, merged(catalogues, locale)] as const));
  const out: CheckResult[] = [];

  const unreadable = catalogues.project.filter((c) => c.error);
  for (const c of unreadable) out.push(labelled(D.catalogue, 'FAIL', 'Catalogue illisible', `${c.file} : ${c.error}`, c.file));
  if (unreadable.length === 0) {
    const own = catalogues.project.map((c) => `${c.file} (${c.entries.size} clés)`);
    const framework = catalogues.locales.map((locale) => `${locale} : ${catalogues.framework.get(locale)?.size ?? 0} clés`);
    out.push(
      labelled(D.catalogue, 'OK', 'Catalogues', `${own.length > 0 ? own.join(', ') : 'aucun dans translations/'} ; framework (${framework.join(', ')})`),
    );
  }

  const missing: CheckResult[] = [];
  for (const key of used) {
    for (const locale of catalogues.locales) {
      if (!full.get(locale)!.has(key)) {
        const uses = byKey.get(key)!;
        missing.push(labelled(D.missingKey, 'FAIL', 'Clé manquante', `« ${key} » (${where(uses)}) absente de ${catalogueFile(locale)}`, uses[0]!.file));
      }
    }
  }
  out.push(...missing);
  if (missing.length === 0) {
    const detail = `${used.length} clé(s) dans ${usage.templates} gabarit(s) et ${usage.codeFiles} fichier(s) de code, toutes traduites (${catalogues.locales.join(', ')})`;
    out.push(labelled(D.missingKey, 'OK', 'Clés utilisées', detail));
  }

  if (catalogues.project.length > 1) {
    const gaps: CheckResult[] = [];
    for (const source of catalogues.project) {
      for (const key of source.entries.keys()) {
        if (byKey.has(key)) continue; // a used key missing somewhere is already a « Clé manquante »
        for (const other of catalogues.project) {
          if (other !== source && !other.error && !full.get(other.locale)!.has(key))
            gaps.push(labelled(D.catalogueGap, 'FAIL', "Clé absente d'un catalogue", `« ${key} » est dans ${source.file}, pas dans ${other.file}`, other.file));
        }
      }
    }
    out.push(...gaps);
    if (gaps.length === 0 && missing.length === 0)
      out.push(labelled(D.catalogueGap, 'OK', 'Concordance des catalogues', `mêmes clés dans ${catalogues.project.map((c) => c.file).join(', ')}`));
  }

  const empty = catalogues.project.flatMap((c) =>
    [...c.entries]
      .filter(([, value]) => value.trim() === '')
      .map(([key]) => labelled(D.emptyValue, 'FAIL', 'Valeur vide', `« ${key} » dans ${c.file} : à traduire`, c.file)),
  );
  out.push(...(empty.length > 0 ? empty : [labelled(D.emptyValue, 'OK', 'Valeurs', 'aucune valeur vide')]));

  const frameworkKeys = new Set([...catalogues.framework.values()].flatMap((entries) => [...entries.keys()]));
  const unused = catalogues.project.flatMap((c) =>
    [...c.entries.keys()]
      .filter((key) => !byKey.has(key) && !frameworkKeys.has(key))
      .map((key) => labelled(D.unusedKey, 'WARN', 'Clé inutilisée', `« ${key} » de ${c.file} : ni le code ni les gabarits ne l'utilisent`, c.file)),
  );
  out.push(...(unused.length > 0 ? unused : [labelled(D.unusedKey, 'OK', 'Clés inutilisées', 'aucune')]));
  return out;
};

/**
 * The family as `doctor` and `project:audit` run it: catalogues are optional (no `translations/` is a SKIP), and a
 * file the scan cannot read is a FAIL naming the reason rather than an exception.
 */
export const i18nDiagnostic: CheckFunction = async (context) => {
  const { isDirectory } = await import('./files.js');
  if (!isDirectory(context.root, 'translations')) return [result(D.catalogue, 'SKIP', 'aucun dossier translations/ : catalogues facultatifs')];
  try {
    return await i18nCheck(context);
  } catch (error) {
    const { fsReason } = await import('./files.js');
    const path = (error as NodeJS.ErrnoException).path;
    return [result(D.catalogue, 'FAIL', `${path ? `${path} : ` : ''}${fsReason(error)}`)];
  }
};

export const I18N_CHECKS: readonly CheckFunction[] = [i18nDiagnostic];
