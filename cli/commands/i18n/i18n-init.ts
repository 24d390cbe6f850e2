/**
 * `fw i18n:init` (docs/frontend.md "`fw i18n:init`"): creates or completes the project's `translations/fr.json` with
 * the keys its code and templates use that no catalogue has yet, each with an empty value to translate (`fw i18n:check`
 * reports them until they are). Existing keys and values are never changed; the file's own bytes are kept and the new
 * keys appended. A second run changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(): void {}

export async function run(_input: CommandInput): Promise<number> {
  const root = projectRoot();
  const { scanUsage } = await import('../../i18n/usage.js');
  const { loadCatalogues, merged, catalogueFile, DEFAULT_LOCALE } = await import('../../i18n/catalogues.js');
  const file = catalogueFile(DEFAULT_LOCALE);
  const catalogues = loadCatalogues(root);
  const own = catalogues.project.find((c) => c.locale === DEFAULT_LOCALE);
  if (own?.error) throw new CliError(`${file} est illisible : ${own.error}.`, "corrigez le fichier, puis relancez « fw i18n:init » ; rien n'a été écrit.");
  const known = merged({ ...catalogues, locales: [DEFAULT_LOCALE] }, DEFAULT_LOCALE);
  const toAdd = [...new Set(scanUsage(root).uses.map((use) => use.key))].filter((key) => !known.has(key)).sort();

  const target = path.join(root, file);
  const existing = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null;
  const content = appendKeys(existing ?? '{}\n', toAdd);
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const plan = planWrites(root, [{ path: file, content, kind: 'canonical' }]);
  applyPlan(plan);
  const lines = [formatPlan(plan, { dryRun: false }).trimEnd()];
  if (toAdd.length === 0) lines.push(`Rien à ajouter : chaque clé utilisée a sa traduction (${file} ou catalogue du framework).`);
  else
    lines.push(
      `${toAdd.length} clé(s) ajoutée(s) à ${file} avec une valeur vide, à traduire :`,
      ...toAdd.map((key) => `  ${key}`),
      "« fw i18n:check » les signale tant qu'elles sont vides.",
    );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** The catalogue's text with `"key": ""` lines added before its closing brace, in the file's indentation. */
function appendKeys(text: string, keys: readonly string[]): string {
  if (keys.length === 0) return text;
  const end = text.lastIndexOf('}');
  const head = text.slice(0, end).trimEnd();
  const indent = /\n([ \t]+)"/.exec(head)?.[1] ?? '  ';
  const lines = keys.map((key) => `${indent}${JSON.stringify(key)}: ""`).join(',\n');
  const tail = text.slice(end);
  return `${head}${head.endsWith('{') ? '' : ','}\n${lines}\n${tail.endsWith('\n') ? tail : `${tail}\n`}`;
}
