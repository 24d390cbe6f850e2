/**
 * `fw make:crud <Entity> [--dry-run] [--public] [--media] [--check]`: the controller, model, form class, layout and
 * views of the entity's CRUD pages (created when absent, never overwritten), what derives from the entity (form
 * fields, columns, filters, the fields partial: regenerated, as sync:entity does), its base class and SQL, and the
 * generated CRUD routes (docs/crud.md "Routes") added to `mvc/routes.ts` through its syntax tree. `--media` adds the entity's media
 * entries to the pages (docs/crud.md "Media"); once its media module exists, every run keeps them. All or nothing.
 * `--check` writes nothing and exits 2 when a regenerable file is stale. `--upgrade` brings the user's files of the
 * entity to the current version, their edits merged (cli/entities/crud-upgrade.ts), shown before anything is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { checkOption } from '../../generate.js';
import type { EntityNode } from '../../../compiler/ir.js';
import type { CrudPlan } from '../../../emitters/crud/plan.js';
import type { PlannedFile } from '../../../emitters/planned-file.js';
import type { UpgradePlan } from '../../entities/crud-upgrade.js';
import { compileOrFail, entityOrFail, projectRoot } from '../../current-project.js';
import { previousAppLayout } from '../../../emitters/crud/app-layout.js';

const APP_LAYOUT = 'mvc/views/layouts/app.html';

export function configure(command: Command): void {
  checkOption(command)
    .argument('<Entité>', "nom de l'entité (PascalCase)")
    .option('--dry-run', 'affiche ce qui changerait sans rien écrire')
    .option('--public', 'routes publiques (sans connexion ; le jeton CSRF reste exigé)')
    .option('--media', "pages des médias de l'entité")
    .option('--upgrade', "met vos fichiers de l'entité à la version actuelle : inchangés, remplacés ; modifiés, fusionnés (diff affiché d'abord)")
    .option('--yes', 'avec --upgrade : écrit sans demander confirmation');
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const name = String(args[0]);
  const dryRun = options.dryRun === true;
  const root = projectRoot();
  const model = await compileOrFail(root);
  const entity = await entityOrFail(model, name, 'make:crud');
  const { entityFiles } = await import('../../../emitters/index.js');
  const { readCrudStubs } = await import('../../stubs.js');
  const { importsLegacyCrudNames } = await import('../../crud-names.js');
  const crud = await import('../../../emitters/crud/index.js');
  const media = mediaChoice(root, entity, options.media === true, crud.mediaModulePath(entity.snake));
  const plan = crud.planCrud(model, entity.name, { isPublic: options.public === true, media });
  const { import: controllerImport, routes, menu } = crud.crudRoutes(plan);
  // Variants made by a job (docs/uploads.md "Variants made by a job"): the jobs index and the jobs tables' SQL.
  const variantsByJob = media && (plan.media ?? []).some((m) => m.variants === 'job');

  // All or nothing: when routes.ts cannot be edited, no file is written, even the generated ones. The lines to paste
  // name a controller that does not exist yet, so the advice is to paste them, then to run the command again: it
  // creates the files then, and recognises the pasted routes by their method and path.
  const rerun = `puis relancez « fw make:crud ${entity.name} » : elle créera alors les fichiers et reconnaîtra les routes collées`;
  const routesPath = path.join(root, crud.ROUTES_FILE);
  const routesText = fs.existsSync(routesPath) ? fs.readFileSync(routesPath, 'utf8') : null;
  if (routesText === null) {
    throw new CliError(
      `${crud.ROUTES_FILE} est introuvable : les routes ne peuvent pas être ajoutées (aucun fichier n'a été écrit).`,
      `créez ${crud.ROUTES_FILE} avec ces lignes (les imports, les routes et le menu), ${rerun} :\n${crud.manualLines(controllerImport, routes, { menu })}`,
    );
  }
  // A route of a public page (fw make:public-*) at one of these addresses would silently take the CRUD page's place.
  const { routeConflicts, isPublicPageRoute, describeConflicts } = await import('../../../emitters/public/routes.js');
  const taken = routeConflicts(routesText, routes, isPublicPageRoute);
  if (taken.length > 0) {
    throw new CliError(
      `${describeConflicts(crud.ROUTES_FILE, taken)} par une page publique : la page du CRUD ne serait jamais atteinte. Aucun fichier n'a été écrit.`,
      `une adresse ne mène qu'à une page : gardez les pages publiques de ${entity.name} ou son CRUD, ou changez le chemin des routes publiques dans ${crud.ROUTES_FILE}, puis relancez « fw make:crud ${entity.name} ».`,
    );
  }
  let edit;
  try {
    edit = crud.addRoutes(routesText, crud.ROUTES_FILE, controllerImport, routes, `${entity.name} (fw make:crud ${entity.name})`, menu);
  } catch (err) {
    if (!(err instanceof crud.RoutesEditError)) throw err;
    const where =
      err.placement === 'function'
        ? `l'import en tête avec les autres, les routes et le menu dans ${crud.ROUTES_FUNCTION}`
        : `les imports en tête avec les autres, la fonction ${crud.ROUTES_FUNCTION} avec ses routes à la suite`;
    const advice = err.manualLines
      ? `collez ces lignes dans ${crud.ROUTES_FILE} (${where}), ${rerun} :\n${err.manualLines}`
      : `corrigez ${crud.ROUTES_FILE}, puis relancez « fw make:crud ${entity.name} ».`;
    throw new CliError(`${err.message} Aucun fichier n'a été écrit.`, advice);
  }

  const stubs = readCrudStubs();
  const upgrading = options.upgrade === true;
  if (upgrading && options.check === true) {
    throw new CliError(
      '--check et --upgrade ne vont pas ensemble : --check ne lit que les fichiers régénérables.',
      `lancez « fw make:crud ${entity.name} --upgrade --dry-run » pour voir la mise à niveau sans rien écrire.`,
    );
  }
  const { manualCrudFiles, manualCrudVariants } = await import('../../../emitters/crud/manual.js');
  const ownFiles = manualCrudFiles(plan, stubs);
  const upgrade = upgrading ? await planEntityUpgrade(root, plan, ownFiles, manualCrudVariants(plan, stubs), entity.name) : null;
  const replaced = new Map(upgrade?.entries.map((e) => [e.path, e.after]) ?? []);
  const allFiles = [
    ...entityFiles(model, entity),
    ...crud
      .crudFiles(plan, stubs, {
        legacyCrudMedia: fs.existsSync(path.join(root, crud.CRUD_MEDIA_PATH)),
        legacyCrudNames: importsLegacyCrudNames(root, entity.snake, Object.values(crud.descriptionNames(plan)), replaced),
      })
      .map((file) => withLayoutReplaced(root, file)),
    { path: crud.ROUTES_FILE, content: edit.text, kind: 'canonical' as const },
    ...(variantsByJob ? (await import('../../jobs/media-variants.js')).mediaVariantsJobFiles(root) : []),
  ];
  // With --upgrade, the user's files are the upgrade's, not the writer's.
  const files = upgrade ? allFiles.filter((f) => !ownFiles.some((own) => own.path === f.path)) : allFiles;
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const writePlan = planWrites(root, files);
  if (upgrade) {
    const { formatUpgrade, upgradeWrites, removeDropped } = await import('../../entities/crud-upgrade.js');
    // The user's files and their diff first; the other files as the writer reports them, once written (or not).
    process.stdout.write(formatUpgrade(upgrade));
    const simulation = formatPlan(writePlan, { dryRun: true });
    if (dryRun) {
      process.stdout.write(simulation);
      return 0;
    }
    const writes = upgrade.entries.some((e) => e.before !== e.after) || writePlan.entries.some((e) => e.fate !== 'unchanged' && e.fate !== 'skipped');
    if (!writes) {
      process.stdout.write(`${simulation}Fichiers de ${entity.name} déjà à jour.\n`);
      return 0;
    }
    if (!(await confirmUpgrade(options.yes === true, entity.name, simulation))) return 0;
    // One writer's plan for everything written, all or nothing; then the dropped files go.
    applyPlan(planWrites(root, [...files, ...upgradeWrites(upgrade)]));
    removeDropped(root, upgrade);
    process.stdout.write(`${formatPlan(writePlan, { dryRun: false })}Fichiers de ${entity.name} mis à niveau.\n`);
    return 0;
  }
  // A controller of an earlier make:crud that keeps its own role map: its pages do not follow the entity's role block.
  const { legacyRoleMaps, formatLegacyRoleMaps } = await import('../../role-maps.js');
  const legacy = legacyRoleMaps(root, [entity]);
  if (options.check === true) {
    const { reportStale } = await import('../../generate.js');
    return reportStale(writePlan, `fw make:crud ${entity.name}`, legacy);
  }
  if (!dryRun) applyPlan(writePlan);
  const out = [formatPlan(writePlan, { dryRun })];
  if (edit.added.length > 0) {
    out.push(`Routes ${dryRun ? 'à ajouter' : 'ajoutées'} à ${crud.ROUTES_FILE} (${edit.added.length}) :\n`);
    for (const route of edit.added) out.push(`  ${route.method.padEnd(5)} ${route.path}\n`);
  }
  for (const entry of edit.menuAdded) out.push(`Menu ${dryRun ? 'à compléter' : 'complété'} : ${entry.label} (${entry.path}) dans ${crud.ROUTES_FILE}.\n`);
  if (edit.existing.length > 0) {
    // Existing routes stay as the user wrote them; those whose public flag differs from the request are shown, before → after.
    const { existingRoutesReport } = await import('../../../emitters/crud/routes-report.js');
    out.push(existingRoutesReport(crud.ROUTES_FILE, edit.existing.length, edit.mismatched, plan.isPublic));
  }
  // What the writer would change in routes.ts, line by line, imports included: a dry run shows it all.
  if (dryRun && edit.text !== routesText) out.push(`Modifications de ${crud.ROUTES_FILE} :\n${crud.unifiedDiff(routesText, edit.text)}`);
  if (!dryRun && edit.added.length > 0) {
    out.push(`Liste : ${plan.prefix}${plan.isPublic ? '' : ' (routes protégées : connexion requise ; --public pour une application sans connexion)'}\n`);
  }
  const mediaModule = writePlan.entries.find((entry) => entry.path === crud.mediaModulePath(entity.snake));
  if (media && mediaModule?.fate === 'created') {
    out.push('Médias : « fw upload:init » et « fw media:init » (dossiers et table media), puis « fw db:apply ».\n');
    if (variantsByJob)
      out.push(
        'Variantes faites par une tâche : « fw db:apply » crée aussi les tables des tâches ; serve() les traite, ou « fw jobs:work » dans un processus à part (jobs_in_serve: false).\n',
      );
    const files = entity.media.filter((m) => m.field === 'file').map((m) => m.name);
    if (plan.isPublic && files.length > 0) {
      out.push(
        `Documents (${files.join(', ')}) : /media/documents/… ne les sert qu'aux sessions connectées ; sans connexion, ajoutez 'documents' à media_public_categories (config.ts).\n`,
      );
    }
  } else if (!media && entity.media.length > 0) {
    out.push(
      `Médias : ${entity.name} en déclare (${entity.media.map((m) => m.name).join(', ')}) ; « fw make:crud ${entity.name} --media » génère les pages qui les gèrent.\n`,
    );
  }
  out.push(formatLegacyRoleMaps(legacy));
  process.stdout.write(out.join(''));
  return 0;
}

/**
 * `layouts/app.html` is the user's once created; one still as an earlier make:crud wrote it (an empty nav block) is
 * the generator's, replaced by the layout that renders the menu (docs/crud.md "The menu").
 */
function withLayoutReplaced(root: string, file: PlannedFile): PlannedFile {
  if (file.path !== APP_LAYOUT || file.kind !== 'manual') return file;
  const layoutPath = path.join(root, APP_LAYOUT);
  const existing = fs.existsSync(layoutPath) ? fs.readFileSync(layoutPath, 'utf8') : null;
  return existing !== null && existing === previousAppLayout() ? { ...file, kind: 'canonical' } : file;
}

/**
 * Whether the pages handle the entity's media: `--media`, or a media module already there (written by an earlier
 * `--media`). `--media` needs media entries, and a controller written without media must go first (it is manual:
 * nothing would call the media files).
 */
function mediaChoice(root: string, entity: EntityNode, asked: boolean, modulePath: string): boolean {
  const media = asked || fs.existsSync(path.join(root, modulePath));
  if (!media) return false;
  if (asked && entity.media.length === 0) {
    throw new CliError(
      `${entity.name} ne déclare aucun média : --media génère les pages de ses entrées « media » (${entity.file}).`,
      `ajoutez-en, par exemple « "media": [{ "name": "photo", "field": "image", "variants": true }] », ou relancez sans --media.`,
    );
  }
  const controller = `mvc/controllers/${entity.snake}_controller.ts`;
  const controllerPath = path.join(root, controller);
  const mediaImport = `/${path.posix.basename(modulePath, '.ts')}.js`;
  if (fs.existsSync(controllerPath) && !fs.readFileSync(controllerPath, 'utf8').includes(mediaImport)) {
    const views = `mvc/views/${entity.snake}`;
    throw new CliError(
      `les pages de ${entity.name} existent déjà sans médias : ${controller} (votre fichier) n'importe pas ${modulePath}. Aucun fichier n'a été écrit.`,
      `supprimez (ou renommez) ${controller}, mvc/models/${entity.snake}_model.ts, ${views}/form.html et ${views}/show.html, puis relancez « fw make:crud ${entity.name} --media » : ils seront recréés avec les médias (reportez-y vos modifications).`,
    );
  }
  return true;
}

/** The upgrade of the entity's own files; a conflict, or a file whose base is unknown, writes nothing (CliError). */
async function planEntityUpgrade(root: string, plan: CrudPlan, own: PlannedFile[], variants: PlannedFile[], entity: string): Promise<UpgradePlan> {
  const { planUpgrade, formatConflicts } = await import('../../entities/crud-upgrade.js');
  const upgrade = planUpgrade(root, plan, own, variants);
  if (upgrade.conflicts.length > 0) {
    throw new CliError(
      `la mise à niveau de ${entity} est en conflit, aucun fichier n'a été écrit : ${formatConflicts(upgrade)}.`,
      `reportez ces lignes à la main dans la forme nouvelle (docs/upgrading.md "Upgrading an entity's files") ou remettez-les comme fw make:crud les avait écrites, puis relancez « fw make:crud ${entity} --upgrade ».`,
    );
  }
  if (upgrade.unknown.length > 0) {
    throw new CliError(
      `${upgrade.unknown.join(', ')} : la version écrite par fw make:crud est introuvable (son empreinte ne correspond à aucune version connue) ; aucun fichier n'a été écrit.`,
      `comparez ces fichiers à ceux d'un « fw make:crud ${entity} » dans un projet neuf et reportez vos modifications à la main.`,
    );
  }
  return upgrade;
}

/**
 * `--yes`, or a terminal's answer `o` (the other files' report, `simulation`, shown before the question); without a
 * terminal and without `--yes`, nothing is written (CliError).
 */
async function confirmUpgrade(yes: boolean, entity: string, simulation: string): Promise<boolean> {
  if (yes) return true;
  process.stdout.write(simulation);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CliError(
      `rien n'a été écrit : la mise à niveau de ${entity} attend une confirmation, et il n'y a pas de terminal pour la demander.`,
      `relisez le diff ci-dessus, puis relancez « fw make:crud ${entity} --upgrade --yes ».`,
    );
  }
  const { createInterface } = await import('node:readline/promises');
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await prompt.question('Écrire ces fichiers ? [o/N] ');
    if (/^o(ui)?$/i.test(answer.trim())) return true;
    process.stdout.write("Rien n'a été écrit.\n");
    return false;
  } finally {
    prompt.close();
  }
}
