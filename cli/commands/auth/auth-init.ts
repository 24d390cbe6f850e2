/**
 * `fw auth:init [--password-reset] [--dry-run]` (docs/decisions.md#one-user-model): writes the auth SQL files of both
 * dialects under `mvc/models/sql/auth/` and adds `registerAuthRoutes(router)` (imported from `fw-mvc/auth`) to
 * `registerRoutes` in `mvc/routes.ts`, through its syntax tree. `--password-reset` (docs/auth.md "Password reset")
 * also adds `registerPasswordResetRoutes(router)` and writes the message templates `mvc/views/mail/password_reset_*`
 * when absent; it works as well on a project that ran `fw auth:init` before. All or nothing, through the project's one writer: a file whose marker
 * line the user removed is never rewritten. Idempotent: a second run changes nothing and says so. Applies nothing:
 * `fw db:apply` creates the tables.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--password-reset', 'ajoute aussi « mot de passe oublié » : routes /password/… et modèles du message');
  command.option('--dry-run', 'affiche ce qui changerait sans rien écrire');
}

export async function run({ options }: CommandInput): Promise<number> {
  const dryRun = options.dryRun === true;
  const passwordReset = options.passwordReset === true;
  const root = projectRoot();
  const { authSqlFiles } = await import('../../../emitters/auth/sql-files.js');
  const auth = await import('../../../emitters/auth/routes-edit.js');
  const { RoutesEditError, ROUTES_FUNCTION } = await import('../../../emitters/codemods/routes-edit.js');
  const { ROUTES_FILE } = await import('../../auth/inspect.js');

  const routesPath = path.join(root, ROUTES_FILE);
  const routesText = fs.existsSync(routesPath) ? fs.readFileSync(routesPath, 'utf8') : null;
  if (routesText === null) {
    throw new CliError(
      `${ROUTES_FILE} est introuvable : les routes d'authentification ne peuvent pas être ajoutées (aucun fichier n'a été écrit).`,
      `créez ${ROUTES_FILE} avec une fonction « export function ${ROUTES_FUNCTION}(router: Router) », puis relancez « fw auth:init ».`,
    );
  }
  let edit;
  let reset: import('../../../emitters/codemods/module-routes.js').ModuleRoutesEdit | undefined;
  try {
    edit = auth.addAuthRoutes(routesText, ROUTES_FILE);
    if (passwordReset) reset = auth.addPasswordResetRoutes(edit.text, ROUTES_FILE);
  } catch (error) {
    if (!(error instanceof RoutesEditError)) throw error;
    const advice = error.manualLines
      ? `ajoutez à la main dans ${ROUTES_FILE} (l'import en tête avec les autres, l'appel dans ${ROUTES_FUNCTION}), puis relancez « fw auth:init » :\n${error.manualLines}`
      : `corrigez ${ROUTES_FILE}, puis relancez « fw auth:init ».`;
    throw new CliError(`${error.message} Aucun fichier n'a été écrit.`, advice);
  }

  const routesAfter = reset?.text ?? edit.text;
  const mailFiles = passwordReset ? (await import('../../auth/password-reset-mail.js')).passwordResetMailPlan() : [];
  const files = [...authSqlFiles(), ...mailFiles, { path: ROUTES_FILE, content: routesAfter, kind: 'canonical' as const }];
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const plan = planWrites(root, files);
  if (!dryRun) applyPlan(plan);

  const out = [formatPlan(plan, { dryRun })];
  if (edit.callAdded) {
    const what = edit.importAdded ? `l'import « ${auth.AUTH_IMPORT_LINE} » et l'appel` : "l'appel";
    out.push(
      `Routes d'authentification ${dryRun ? 'à ajouter' : 'ajoutées'} à ${ROUTES_FILE} : ${what} « ${auth.AUTH_ROUTES_FUNCTION}(…) » dans ${ROUTES_FUNCTION} (GET /login, POST /login, POST /logout).\n`,
    );
  } else {
    out.push(`Routes d'authentification : ${auth.AUTH_ROUTES_FUNCTION} est déjà importé et appelé dans ${ROUTES_FILE}.\n`);
  }
  if (reset) {
    const spec = auth.PASSWORD_RESET_ROUTES;
    out.push(
      reset.callAdded
        ? `Réinitialisation du mot de passe ${dryRun ? 'à ajouter' : 'ajoutée'} à ${ROUTES_FILE} : « ${spec.function}(…) » dans ${ROUTES_FUNCTION} (${spec.routeKeys.join(', ')}).\n`
        : `Réinitialisation du mot de passe : ${spec.function} est déjà importé et appelé dans ${ROUTES_FILE}.\n`,
    );
  }
  if (dryRun && routesAfter !== routesText) {
    const { unifiedDiff } = await import('../../../emitters/codemods/line-diff.js');
    out.push(`Modifications de ${ROUTES_FILE} :\n${unifiedDiff(routesText, routesAfter)}`);
  }
  const writes = plan.entries.filter((entry) => entry.fate === 'created' || entry.fate === 'updated' || entry.fate === 'forced');
  if (writes.length === 0) out.push("Rien à faire : les fichiers SQL et les routes d'authentification sont déjà en place.\n");
  else if (!dryRun)
    out.push('Ensuite : « fw db:apply » crée les tables, puis « fw auth:user:create --email <EMAIL> --password-prompt » crée un utilisateur.\n');
  if (passwordReset && !dryRun && writes.length > 0) {
    out.push(
      'Pour les messages : « fw mail:init » puis « fw db:apply » (table mail_log), et les clés mail_host, mail_from et app_url (APP_URL, la base des liens envoyés) de la configuration (docs/auth.md « Password reset »).\n',
    );
  }
  process.stdout.write(out.join(''));
  if (reset && reset.conflicts.length > 0) {
    process.stderr.write(
      `Attention : ${ROUTES_FILE} déclare déjà ${reset.conflicts.join(', ')} : ces routes passent avant celles de ${auth.PASSWORD_RESET_ROUTES.function} si elles sont déclarées avant son appel.\n`,
    );
  }
  if (edit.conflicts.length > 0) {
    process.stderr.write(
      `Attention : ${ROUTES_FILE} déclare déjà ${edit.conflicts.join(', ')} : ces routes passent avant celles de ${auth.AUTH_ROUTES_FUNCTION} si elles sont déclarées avant son appel.\n` +
        `Conseil : retirez-les de ${ROUTES_FILE} pour utiliser les pages de connexion de fw-mvc/auth.\n`,
    );
  }
  return 0;
}
