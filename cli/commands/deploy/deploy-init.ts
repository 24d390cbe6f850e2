/**
 * `fw deploy:init [--domain <nom>] [--user <nom>] [--force] [--dry-run]` (docs/deploy.md "deploy:init"): writes, through
 * the one writer, `deploy/nginx/<app>.conf`, `deploy/systemd/<app>.service`, the nightly backup's
 * `deploy/systemd/<app>-backup.service` and `<app>-backup.timer`, `README_DEPLOY.md` and, when it does not
 * exist, `env/prod` completed from `env/example`. Nothing existing is overwritten without --force, and env/prod never.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--domain <nom>', "nom du site : server_name de nginx et chemins du certificat Let's Encrypt");
  command.option('--user <nom>', "utilisateur système du service (défaut : le nom de l'application)");
  command.option('--force', 'réécrit les fichiers de déploiement modifiés (jamais env/prod)');
  command.option('--dry-run', 'affiche ce qui changerait sans rien écrire');
}

const DOMAIN = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
const USER = /^[a-z_][a-z0-9_-]{0,31}$/;

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const domain = typeof options.domain === 'string' ? options.domain.trim().toLowerCase() : undefined;
  if (domain !== undefined && !DOMAIN.test(domain)) {
    throw new CliError(`nom de domaine invalide : « ${String(options.domain)} ».`, 'par exemple « --domain exemple.fr » (sans https:// ni chemin).');
  }
  const settings = await import('../../deploy/settings.js');
  const app = settings.appName(root);
  const user = typeof options.user === 'string' ? options.user : app.replace(/[^a-z0-9_-]/g, '_').slice(0, 32);
  if (!USER.test(user))
    throw new CliError(`nom d'utilisateur système invalide : « ${user} ».`, 'par exemple « --user monapp » (minuscules, chiffres, _ et -).');
  const { lookupAccount } = await import('../../deploy/service-user.js');
  if (user === 'root' || lookupAccount(user)?.uid === 0) {
    throw new CliError(
      `le service ne tourne pas en root (« --user ${user} ») : une faille de l'application donnerait toute la machine.`,
      `un utilisateur système dédié, par exemple « --user ${app.replace(/[^a-z0-9_-]/g, '_').slice(0, 32) || 'monapp'} » (README_DEPLOY.md : adduser --system --group).`,
    );
  }
  const { nginxSite } = await import('../../deploy/nginx.js');
  const { backupServiceUnit, backupTimerUnit, serviceFolders, systemdUnit } = await import('../../deploy/systemd.js');
  // Under releases (docs/deploy.md "Releases"), nginx and systemd name `current`, not the release folder.
  const folders = serviceFolders(root);
  const { envProdText } = await import('../../deploy/env-prod.js');
  const { fill, templateText } = await import('../../deploy/nginx.js');
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');

  const prodExists = fs.existsSync(path.join(root, 'env', 'prod'));
  const example = fs.existsSync(path.join(root, 'env', 'example')) ? fs.readFileSync(path.join(root, 'env', 'example'), 'utf8') : '';
  const auth = settings.authInstalled(root);
  const envProd = prodExists ? null : envProdText(example, auth, domain);
  // The values nginx needs come from env/prod, or from the one about to be written.
  const { parseEnv } = await import('../../../runtime/env.js');
  const prod = envProd === null ? settings.readEnvFile(root, 'env/prod') : parseEnv(envProd, 'env/prod');
  const certificate = settings.certificatePaths(root, domain, prod);
  const body = settings.bodyLimit(root);
  const serverName = domain ?? '_';
  const files = [
    {
      path: `deploy/nginx/${app}.conf`,
      kind: 'manual' as const,
      content: nginxSite({ app, root: folders.workdir, serverName, upstream: settings.upstreamAddress(prod), certificate, body }),
    },
    { path: `deploy/systemd/${app}.service`, kind: 'manual' as const, content: systemdUnit({ app, root, user, node: process.execPath }) },
    { path: `deploy/systemd/${app}-backup.service`, kind: 'manual' as const, content: backupServiceUnit({ app, root, user, node: process.execPath }) },
    { path: `deploy/systemd/${app}-backup.timer`, kind: 'manual' as const, content: backupTimerUnit(app) },
    {
      path: 'README_DEPLOY.md',
      kind: 'manual' as const,
      content: fill(templateText('README_DEPLOY.md'), { APP: app, BASE: folders.base ?? `/srv/${app}`, USER: user, SERVER_NAME: domain ?? '<votre-domaine>' }),
    },
  ];
  const force = options.force === true;
  const dryRun = options.dryRun === true;
  const deployPlan = planWrites(root, files, { force, forceManual: force });
  const envPlan = planWrites(root, envProd === null ? [] : [{ path: 'env/prod', kind: 'manual' as const, content: envProd, mode: 0o600 }]);
  const plan = { root: deployPlan.root, entries: [...deployPlan.entries, ...envPlan.entries] };
  if (!dryRun) applyPlan(plan);
  const out = [formatPlan(plan, { dryRun })];
  out.push(`Certificat : ${certificate.cert} (${certificate.source}).\n`);
  out.push(`Corps de requête : ${body.nginxMiB} Mio pour nginx, ${body.application} octets pour l'application (${body.source}).\n`);
  if (prodExists) {
    const trusted = (prod?.TRUSTED_PROXIES ?? '').split(',').map((entry) => entry.trim());
    if (!trusted.includes(settings.NGINX_PROXY_ADDRESS)) {
      out.push(`À faire : env/prod existe et n'est pas modifié ; ajoutez-y TRUSTED_PROXIES=${settings.NGINX_PROXY_ADDRESS} (l'adresse de nginx).\n`);
    }
    if (settings.passwordResetInstalled(root) && !(prod?.APP_URL ?? '').trim()) {
      out.push(`À faire : env/prod n'a pas d'APP_URL ; ajoutez-y APP_URL=https://${domain ?? '<votre-domaine>'} (la base des liens de réinitialisation).\n`);
    }
  }
  if (plan.entries.some((entry) => entry.fate === 'skipped'))
    out.push('Les fichiers modifiés sont gardés ; « fw deploy:init --force » les réécrit (jamais env/prod).\n');
  out.push('Ensuite : README_DEPLOY.md, puis « fw deploy:check ».\n');
  process.stdout.write(out.join(''));
  return 0;
}
