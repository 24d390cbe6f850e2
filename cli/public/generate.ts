/**
 * What the public page generators share (docs/generators.md): refuse a route that another page already answers, add
 * the controller's missing members and the missing routes through their syntax trees, then write everything through
 * the one writer, all or nothing (`--dry-run`: print, write nothing). Re-runs find everything there: « inchangé ».
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PlannedFile } from '../../emitters/planned-file.js';
import type { ImportToAdd, MenuToAdd, RouteToAdd } from '../../emitters/codemods/routes-edit.js';
import type { ControllerPart } from '../../emitters/codemods/controller-edit.js';
import { CliError } from '../errors.js';

export interface PublicGeneration {
  /** The command as typed, e.g. `fw make:public-list Contact` (messages, comment above the routes). */
  readonly command: string;
  readonly controller: { readonly path: string; readonly className: string; readonly skeleton: string; readonly part: ControllerPart };
  readonly templates: readonly PlannedFile[];
  /** Written with the templates but never compared (the entity's base class and SQL, as make:crud writes them). */
  readonly support?: readonly PlannedFile[];
  /**
   * Warn when a template, or a declaration before the controller class (SQL, FORM_FIELDS), is kept although it differs
   * from what the command writes now (the entity changed since): the entity pages, whose content follows the entity.
   */
  readonly warnKept?: boolean;
  readonly import: ImportToAdd;
  readonly routes: readonly RouteToAdd[];
  /** The page's entry in the application's menu (docs/crud.md "The menu"), when it has one. */
  readonly menu?: readonly MenuToAdd[];
  /** Lines printed after the report (what to do next). */
  readonly notes?: readonly string[];
}

export async function generatePublic(root: string, gen: PublicGeneration, dryRun: boolean): Promise<number> {
  const crud = await import('../../emitters/crud/index.js');
  const { routeConflicts, notOurs, describeConflicts } = await import('../../emitters/public/routes.js');
  const { addToController, ControllerEditError } = await import('../../emitters/codemods/controller-edit.js');
  const file = crud.ROUTES_FILE;
  const routesPath = path.join(root, file);
  const routesText = fs.existsSync(routesPath) ? fs.readFileSync(routesPath, 'utf8') : null;
  if (routesText === null) {
    throw new CliError(
      `${file} est introuvable : les routes ne peuvent pas être ajoutées (aucun fichier n'a été écrit).`,
      `créez ${file} avec ces lignes, puis relancez « ${gen.command} » :\n${crud.manualLines(gen.import, gen.routes, { menu: gen.menu ?? [] })}`,
    );
  }
  // A path a module registers (registerAuthRoutes: /login, /logout…): the module's route would answer, not the page.
  const { registeredModules } = await import('../../emitters/auth/routes-edit.js');
  for (const spec of registeredModules(routesText)) {
    const paths = new Set(spec.routeKeys.map((key) => key.slice(key.indexOf(' ') + 1)));
    const taken = gen.routes.filter((route) => paths.has(route.path));
    if (taken.length > 0) {
      throw new CliError(
        `${taken.map((route) => route.path).join(', ')} appartient ${spec.label.replace(/^les /, 'aux ')} (${spec.function}(router) dans ${file}) : la page ne serait jamais affichée. Aucun fichier n'a été écrit.`,
        `ces adresses sont réservées au module ${spec.module} (${spec.routeKeys.join(', ')}) : choisissez un autre nom.`,
      );
    }
  }
  const conflicts = routeConflicts(routesText, gen.routes, notOurs);
  if (conflicts.length > 0) {
    throw new CliError(
      `${describeConflicts(file, conflicts)} : la nouvelle page la masquerait ou serait masquée. Aucun fichier n'a été écrit.`,
      `une adresse ne mène qu'à une page : retirez ou changez le chemin de la route existante dans ${file} (make:crud et les pages publiques d'une même entité utilisent les mêmes adresses /<pluriel>), puis relancez « ${gen.command} ».`,
    );
  }

  const controllerPath = path.join(root, gen.controller.path);
  const controllerExisted = fs.existsSync(controllerPath);
  const controllerText = controllerExisted ? fs.readFileSync(controllerPath, 'utf8') : gen.controller.skeleton;
  let controller;
  try {
    controller = addToController(controllerText, gen.controller.path, gen.controller.className, gen.controller.part);
  } catch (err) {
    if (!(err instanceof ControllerEditError)) throw err;
    throw new CliError(
      `${err.message} Aucun fichier n'a été écrit.`,
      `corrigez ${gen.controller.path} (ou renommez-le pour qu'il soit recréé), puis relancez « ${gen.command} ».`,
    );
  }

  let edit;
  try {
    edit = crud.addRoutes(routesText, file, gen.import, gen.routes, gen.command, gen.menu ?? []);
  } catch (err) {
    if (!(err instanceof crud.RoutesEditError)) throw err;
    const advice = err.manualLines
      ? `collez ces lignes dans ${file}, puis relancez « ${gen.command} » :\n${err.manualLines}`
      : `corrigez ${file}, puis relancez « ${gen.command} ».`;
    throw new CliError(`${err.message} Aucun fichier n'a été écrit.`, advice);
  }

  const files: PlannedFile[] = [
    { path: gen.controller.path, content: controller.text, kind: 'canonical' },
    ...(gen.support ?? []),
    ...gen.templates,
    { path: file, content: edit.text, kind: 'canonical' },
  ];
  const { planWrites, applyPlan, formatPlan } = await import('../writer.js');
  const plan = planWrites(root, files);
  if (!dryRun) applyPlan(plan);
  const out = [formatPlan(plan, { dryRun })];
  if (controller.added.length > 0 && controllerExisted) {
    out.push(`Ajouté${dryRun ? 's (simulation)' : 's'} à ${gen.controller.path} : ${controller.added.join(', ')}\n`);
  }
  if (edit.added.length > 0) {
    out.push(`Routes ${dryRun ? 'à ajouter' : 'ajoutées'} à ${file} (${edit.added.length}) :\n`);
    for (const route of edit.added) out.push(`  ${route.method.padEnd(5)} ${route.path}\n`);
  }
  for (const entry of edit.menuAdded) out.push(`Menu ${dryRun ? 'à compléter' : 'complété'} : ${entry.label} (${entry.path}) dans ${file}.\n`);
  if (dryRun && edit.text !== routesText) out.push(`Modifications de ${file} :\n${crud.unifiedDiff(routesText, edit.text)}`);
  for (const note of gen.notes ?? []) out.push(`${note}\n`);
  if (gen.warnKept) out.push(...(await keptWarnings(root, gen, plan.entries, controller.differing)));
  process.stdout.write(out.join(''));
  return 0;
}

/** At most this many lines of a kept file's diff are printed. */
const DIFF_LINES = 24;

async function shortDiff(kept: string, generated: string): Promise<string> {
  const { unifiedDiff } = await import('../../emitters/codemods/line-diff.js');
  const lines = unifiedDiff(kept, generated).trimEnd().split('\n');
  const shown = lines.slice(0, DIFF_LINES).map((line) => `    ${line}`);
  if (lines.length > DIFF_LINES) shown.push(`    … (${lines.length - DIFF_LINES} ligne(s) de plus)`);
  return `${shown.join('\n')}\n`;
}

/**
 * What the command kept although it would now write something else (`ignoré` templates, SQL and form constants of
 * the controller): each named, with the lines that differ (- kept, + generated now) and how to take the new version.
 */
async function keptWarnings(
  root: string,
  gen: PublicGeneration,
  entries: ReadonlyArray<{ path: string; fate: string }>,
  differing: ReadonlyArray<{ name: string; kept: string; generated: string }>,
): Promise<string[]> {
  const out: string[] = [];
  for (const template of gen.templates) {
    if (entries.find((entry) => entry.path === template.path)?.fate !== 'skipped' || typeof template.content !== 'string') continue;
    const kept = fs.readFileSync(path.join(root, template.path), 'utf8');
    out.push(
      `Attention : ${template.path} est gardé tel quel (ignoré), mais « ${gen.command} » l'écrirait autrement aujourd'hui (l'entité a changé, ou vous l'avez modifié) ; lignes gardées (-) et générées (+) :\n`,
      await shortDiff(kept, template.content),
      `  Pour la version générée : renommez ${template.path}, relancez « ${gen.command} », puis reportez-y vos changements.\n`,
    );
  }
  for (const declaration of differing) {
    out.push(
      `Attention : ${declaration.name} (${gen.controller.path}) est gardé tel quel, mais « ${gen.command} » l'écrirait autrement aujourd'hui (l'entité a changé, ou vous l'avez modifié) ; lignes gardées (-) et générées (+) :\n`,
      await shortDiff(declaration.kept, declaration.generated),
      `  Pour la version générée : reportez ces lignes à la main, ou supprimez ${declaration.name} et les méthodes qui s'en servent de ${gen.controller.path}, relancez « ${gen.command} » (ils seront réécrits), puis reportez-y vos changements.\n`,
    );
  }
  return out;
}

/** The options of a public route: its name, and public (no login; CSRF stays on). */
export function publicOptions(name: string): string {
  return `{ name: '${name}', public: true }`;
}
