/**
 * `fw starter:build <id|alias> [--dry-run] [--init-db] [--force] [--public]` (docs/decisions.md#starters; docs/starters.md):
 * builds a starter application into the project with the framework's generators, through the one writer, all or
 * nothing. A conflicting project is refused (nothing written) unless `--force`; a starter already built is refused
 * too (nothing would change). `--init-db` then does what `fw db:init` and `fw db:apply` do.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';
import { startAddress } from '../../start-address.js';

export function configure(command: Command): void {
  command
    .argument('<id|alias>', "identifiant ou alias de l'application de démarrage (par exemple 1 ou contacts)")
    .option('--dry-run', 'affiche ce qui changerait sans rien écrire')
    .option('--init-db', 'prépare ensuite la base (fw db:init puis fw db:apply)')
    .option('--force', "remplace les fichiers du projet que l'application de démarrage écrit (jamais les données)")
    .option('--public', 'routes CRUD publiques (sans connexion ; starters contacts et carnet)');
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const key = String(args[0]);
  const dryRun = options.dryRun === true;
  const force = options.force === true;
  const isPublic = options.public === true;
  const registry = await import('../../starters/registry.js');
  const starter = registry.findStarter(key);
  if (!starter) {
    throw new CliError(
      `application de démarrage inconnue « ${key} » (connues : ${registry.starterChoices()}).`,
      '« fw starter:list » les décrit ; par exemple « fw starter:build contacts ».',
    );
  }
  const name = registry.starterName(starter);
  if (isPublic && !starter.acceptsPublic) {
    throw new CliError(
      `--public ne s'applique pas à l'application de démarrage « ${name} » : ${starter.privateReason ?? "elle porte sur la connexion, ses pages demandent d'être connecté"}.`,
      `lancez « fw starter:build ${name} » sans --public (ou « fw starter:build contacts --public » pour des pages CRUD sans connexion).`,
    );
  }
  const root = projectRoot();
  const build = await import('../../starters/build.js');
  const prepared = await build.prepareStarter(root, starter, { isPublic, force });
  const { plan, writePlan } = prepared;
  const out = process.stdout;
  const { formatPlan, applyPlan } = await import('../../writer.js');
  if (dryRun) {
    out.write(`Application de démarrage « ${name} » (${starter.id}) : ${starter.description}\n`);
    out.write(formatPlan(writePlan, { dryRun }));
    if (plan.routesAfter !== plan.routesBefore) {
      const { unifiedDiff } = await import('../../../emitters/codemods/line-diff.js');
      out.write(`Modifications de mvc/routes.ts :\n${unifiedDiff(plan.routesBefore, plan.routesAfter)}`);
    }
  }
  if (prepared.conflicts.length > 0 && !force) throw build.conflictError(prepared);
  if (prepared.writes === 0 && !force) {
    for (const note of plan.routeNotes) out.write(note);
    throw build.alreadyBuiltError(prepared);
  }
  if (dryRun) {
    if (options.initDb === true) out.write("--init-db : la base n'est pas touchée pendant une simulation.\n");
    return 0;
  }

  if (prepared.writes > 0) {
    applyPlan(writePlan);
    out.write(`Application de démarrage « ${name} » (${starter.id}) : ${starter.description}\n`);
    out.write(formatPlan(writePlan, { dryRun: false }));
    if (plan.routesAdded.length > 0 || plan.callsAdded.length > 0) {
      out.write(`Routes ajoutées à mvc/routes.ts :\n`);
      for (const call of plan.callsAdded) out.write(`  ${call}(router)\n`);
      for (const route of plan.routesAdded) out.write(`  ${route.method.padEnd(5)} ${route.path}\n`);
    }
    if (plan.menuAdded.length > 0) {
      out.write(`Menu complété dans mvc/routes.ts : ${plan.menuAdded.map((entry) => `${entry.label} (${entry.path})`).join(', ')}.\n`);
    }
  } else {
    out.write(`Rien à faire : l'application de démarrage « ${name} » est déjà construite, aucun fichier ne change.\n`);
  }
  for (const note of plan.routeNotes) out.write(note);
  for (const entity of plan.replacedEntities) {
    process.stderr.write(
      `Attention : la définition de ${entity.name} a été remplacée ; si la table ${entity.table} existe déjà, « fw db:apply » ne la modifie pas (aucune donnée n'est supprimée).\n` +
        `Conseil : « fw migration:diff --entity ${entity.name} » montre l'écart, « fw migration:make maj_${entity.table} --from-diff ${entity.name} » prépare la migration.\n`,
    );
  }
  if (options.initDb === true) await initDatabase(name);
  out.write(nextSteps(await startAddress(root), starter.entryPath, options.initDb === true, plan.login, starter.id === '6'));
  return 0;
}

/** `fw db:init` then `fw db:apply`, in this process; a failure says that the files are written. */
async function initDatabase(name: string): Promise<void> {
  const steps = [
    ['db:init', await import('../db/db-init.js')],
    ['db:apply', await import('../db/db-apply.js')],
  ] as const;
  for (const [command, module] of steps) {
    process.stdout.write(`\nfw ${command}\n`);
    try {
      await module.run({ args: [], options: {} });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      throw new CliError(
        `les fichiers de l'application de démarrage « ${name} » sont écrits, mais « fw ${command} » a échoué : ${error.message}`,
        `${error.advice ? `${error.advice} ` : ''}Ensuite, « fw db:init » puis « fw db:apply » terminent la préparation de la base.`,
        error.exitCode,
      );
    }
  }
}

/** `address`: what env/dev of the project gives (cli/start-address.ts). */
function nextSteps(address: string, entryPath: string, databaseReady: boolean, login: boolean, mfa: boolean): string {
  const steps = [
    ...(databaseReady ? [] : ['fw db:init', 'fw db:apply']),
    ...(login ? ['fw auth:user:create --email vous@example.com --password-prompt'] : []),
    'npm run dev',
  ];
  const then = mfa
    ? `puis ouvrez ${address}, connectez-vous et activez le second facteur sur ${address}${entryPath}`
    : `puis ouvrez ${address}${entryPath}${login ? ' (connectez-vous avec cet utilisateur)' : ''}`;
  return `\nEnsuite :\n${steps.map((step) => `  ${step}\n`).join('')}${then}\n`;
}
