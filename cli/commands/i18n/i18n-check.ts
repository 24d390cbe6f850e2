/**
 * `fw i18n:check [--json]` (docs/decisions.md#translations-check, docs/frontend.md "fw i18n:check [--json]"): read-only, reported as `doctor` does.
 * FAIL: a key used but missing from a catalogue, a key of one catalogue missing from another, an empty value, an
 * unreadable catalogue. WARN: a key of the project's catalogues that nothing uses (a key that overrides one of the
 * framework's is in use by the framework). Exit 1 on any FAIL.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { checksExitCode, checksJson, formatChecks, type Check, type CheckStatus } from '../../diagnostic-report.js';
import { projectRoot } from '../../project.js';
import type { KeyUse } from '../../i18n/usage.js';

export function configure(command: Command): void {
  command.option('--json', 'écrit le diagnostic en JSON');
}

const check = (code: string, status: CheckStatus, label: string, detail: string): Check => ({ code, status, label, detail });

/** `mvc/views/home/index.html:3` (and how many other places). */
function where(uses: readonly KeyUse[]): string {
  const first = uses[0]!;
  return `${first.file}:${first.line}${uses.length > 1 ? ` et ${uses.length - 1} autre(s) endroit(s)` : ''}`;
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { scanUsage } = await import('../../i18n/usage.js');
  const { loadCatalogues, merged, catalogueFile } = await import('../../i18n/catalogues.js');
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
  const checks: Check[] = [];

  const unreadable = catalogues.project.filter((c) => c.error);
  for (const c of unreadable) checks.push(check('catalogue', 'FAIL', 'Catalogue illisible', `${c.file} : ${c.error}`));
  if (unreadable.length === 0) {
    const own = catalogues.project.map((c) => `${c.file} (${c.entries.size} clés)`);
    const framework = catalogues.locales.map((locale) => `${locale} : ${catalogues.framework.get(locale)?.size ?? 0} clés`);
    checks.push(
      check('catalogue', 'OK', 'Catalogues', `${own.length > 0 ? own.join(', ') : 'aucun dans translations/'} ; framework (${framework.join(', ')})`),
    );
  }

  const missing: Check[] = [];
  for (const key of used) {
    for (const locale of catalogues.locales) {
      if (!full.get(locale)!.has(key))
        missing.push(check('missing_key', 'FAIL', 'Clé manquante', `« ${key} » (${where(byKey.get(key)!)}) absente de ${catalogueFile(locale)}`));
    }
  }
  checks.push(...missing);
  if (missing.length === 0) {
    checks.push(
      check(
        'missing_key',
        'OK',
        'Clés utilisées',
        `${used.length} clé(s) dans ${usage.templates} gabarit(s) et ${usage.codeFiles} fichier(s) de code, toutes traduites (${catalogues.locales.join(', ')})`,
      ),
    );
  }

  if (catalogues.project.length > 1) {
    const gaps: Check[] = [];
    for (const source of catalogues.project) {
      for (const key of source.entries.keys()) {
        if (byKey.has(key)) continue; // a used key missing somewhere is already a « Clé manquante »
        for (const other of catalogues.project) {
          if (other !== source && !other.error && !full.get(other.locale)!.has(key))
            gaps.push(check('catalogue_gap', 'FAIL', "Clé absente d'un catalogue", `« ${key} » est dans ${source.file}, pas dans ${other.file}`));
        }
      }
    }
    checks.push(...gaps);
    if (gaps.length === 0 && missing.length === 0)
      checks.push(check('catalogue_gap', 'OK', 'Concordance des catalogues', `mêmes clés dans ${catalogues.project.map((c) => c.file).join(', ')}`));
  }

  const empty = catalogues.project.flatMap((c) =>
    [...c.entries]
      .filter(([, value]) => value.trim() === '')
      .map(([key]) => check('empty_value', 'FAIL', 'Valeur vide', `« ${key} » dans ${c.file} : à traduire`)),
  );
  checks.push(...(empty.length > 0 ? empty : [check('empty_value', 'OK', 'Valeurs', 'aucune valeur vide')]));

  const frameworkKeys = new Set([...catalogues.framework.values()].flatMap((entries) => [...entries.keys()]));
  const unused = catalogues.project.flatMap((c) =>
    [...c.entries.keys()]
      .filter((key) => !byKey.has(key) && !frameworkKeys.has(key))
      .map((key) => check('unused_key', 'WARN', 'Clé inutilisée', `« ${key} » de ${c.file} : ni le code ni les gabarits ne l'utilisent`)),
  );
  checks.push(...(unused.length > 0 ? unused : [check('unused_key', 'OK', 'Clés inutilisées', 'aucune')]));

  process.stdout.write(options.json === true ? checksJson(checks) : formatChecks(checks));
  return checksExitCode(checks);
}
