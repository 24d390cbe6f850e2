/**
 * `fw sync:landing [--check]` (docs/decisions.md#front-end-builds-and-styles, docs/frontend.md "`fw sync:landing
 * [--check]`"): renders `mvc/views/landing/index.html` to a static `docs/index.html` with `static/` mirrored to
 * `docs/static/`, for a static host. All or nothing through the writer; files of docs/static/ that static/ no longer
 * has are removed afterwards. `--check` writes nothing and exits 1 when docs/ is stale, 0 when it is up to date.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--check', "n'écrit rien ; code 1 et la liste des fichiers périmés quand docs/ n'est pas à jour (CI)");
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { landingFiles, extraStaticFiles, LANDING_PAGE } = await import('../../frontend/landing.js');
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const files = await landingFiles(root);
  const plan = planWrites(root, files);
  const extra = extraStaticFiles(root, files);
  if (options.check === true) {
    const stale = [
      ...plan.entries.filter((e) => e.fate === 'created' || e.fate === 'updated').map((e) => `  ${e.path} (${e.fate === 'created' ? 'absent' : 'différent'})`),
      ...extra.map((file) => `  ${file} (en trop : absent de static/)`),
    ];
    if (stale.length === 0) {
      process.stdout.write(`Page d'accueil statique à jour (${LANDING_PAGE} et ${plan.entries.length - 1} fichier(s) de docs/static/).\n`);
      return 0;
    }
    process.stdout.write(`Page d'accueil statique périmée (${stale.length} fichier(s)) :\n${stale.join('\n')}\nMettez-la à jour avec « fw sync:landing ».\n`);
    return 1;
  }
  applyPlan(plan);
  for (const file of extra) fs.rmSync(path.join(root, file));
  const removed = extra.map((file) => `  ${'supprimé'.padEnd(10)}  ${file}`);
  process.stdout.write(`${[...removed, formatPlan(plan, { dryRun: false }).trimEnd()].join('\n')}\n`);
  return 0;
}
