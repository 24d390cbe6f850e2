/**
 * Building a starter into a project (docs/decisions.md#starters; docs/starters.md): its files (cli/starters/plan.ts) through the
 * one writer, all or nothing. A file the starter would write that the project holds with another content, and that
 * is the user's (a manual file, a generated file whose marker line was removed, an entity or relation defined
 * otherwise), is a conflict: refused unless `force`, which rewrites those files and nothing else.
 */
import { CliError } from '../errors.js';
import type { WritePlan } from '../writer.js';
import { planStarter, type StarterPlan } from './plan.js';
import { starterName, type Starter, type StarterOptions } from './starter.js';

export interface PreparedStarter {
  readonly plan: StarterPlan;
  readonly writePlan: WritePlan;
  /** What the project holds otherwise (forced under `force`). */
  readonly conflicts: readonly string[];
  /** How many files would be created, updated or forced. */
  readonly writes: number;
}

const SHOWN_CONFLICTS = 6;

/** Plans the starter's files against the disk; writes nothing. */
export async function prepareStarter(root: string, starter: Starter, options: StarterOptions & { force: boolean }): Promise<PreparedStarter> {
  const plan = await planStarter(root, starter, options);
  const { planWrites } = await import('../writer.js');
  const writePlan = planWrites(root, plan.files, { force: options.force, forceManual: options.force });
  const definitions = new Set(plan.definitionConflicts.map((conflict) => conflict.split(' ')[0]));
  const conflicts = [
    ...plan.definitionConflicts,
    ...writePlan.entries.filter((entry) => (entry.fate === 'skipped' || entry.fate === 'forced') && !definitions.has(entry.path)).map((entry) => entry.path),
  ];
  const writes = writePlan.entries.filter((entry) => entry.fate === 'created' || entry.fate === 'updated' || entry.fate === 'forced').length;
  return { plan, writePlan, conflicts, writes };
}

/** The refusal of a conflicting project: what differs, and the way out. */
export function conflictError(prepared: PreparedStarter): CliError {
  const name = starterName(prepared.plan.starter);
  const { conflicts } = prepared;
  const shown =
    conflicts.slice(0, SHOWN_CONFLICTS).join(', ') + (conflicts.length > SHOWN_CONFLICTS ? ` et ${conflicts.length - SHOWN_CONFLICTS} autre(s)` : '');
  return new CliError(
    `le projet a déjà ${conflicts.length} fichier(s) que l'application de démarrage « ${name} » écrirait, avec un autre contenu : ${shown} ; rien n'a été écrit.`,
    `« ${prepared.plan.command} --force » les remplace par ceux de l'application de démarrage (les autres fichiers et les données de la base ne sont pas touchés) ; « --dry-run » montre d'abord ce qui changerait.`,
  );
}

/** The refusal of a starter already built: nothing would change. */
export function alreadyBuiltError(prepared: PreparedStarter): CliError {
  const name = starterName(prepared.plan.starter);
  return new CliError(
    `l'application de démarrage « ${name} » est déjà construite dans ce projet : aucun fichier ne changerait, rien n'a été écrit.`,
    `elle est prête (« fw db:init » puis « fw db:apply » préparent la base, « npm run dev » la sert) ; « ${prepared.plan.command} --force » la reconstruit.`,
  );
}

/**
 * Builds the starter in a project that has just been made (`fw new --profile auth-mfa`): nothing can conflict there
 * (a conflict means the template and the starter disagree, a bug, and stops the creation).
 */
export async function buildIntoNewProject(root: string, starter: Starter): Promise<WritePlan> {
  const prepared = await prepareStarter(root, starter, { isPublic: false, force: false });
  if (prepared.conflicts.length > 0) throw conflictError(prepared);
  const { applyPlan } = await import('../writer.js');
  applyPlan(prepared.writePlan);
  return prepared.writePlan;
}
