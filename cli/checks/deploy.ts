/**
 * The `deploy` family (docs/diagnostics.md "Deployment"), run by `fw deploy:check` after the doctor's checks for
 * env/prod: the build, the database with the application account, storage/ for the service user, and the files of
 * `fw deploy:init` (nginx site, systemd unit) against env/prod. Read-only: the only processes run are
 * `nginx -t` over a throw-away main configuration in a temporary folder (cli/deploy/nginx-inspect.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { bodyLimit, appName, parseNginxSize, passwordResetInstalled, upstreamAddress, readEnvFile, NGINX_PROXY_ADDRESS } from '../deploy/settings.js';
import { readSiteFacts, testSite } from '../deploy/nginx-inspect.js';
import { unitSettings } from '../deploy/systemd.js';
import { grantProblems, readDatabaseFacts, type DatabaseFacts } from '../deploy/database.js';
import { result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import type { ProjectContext } from './context.js';
import { readSource, walkFiles } from './files.js';
import { lookupAccount, storageWritableBy } from '../deploy/service-user.js';
import { appUrlCheck, proxyAddressesCheck } from './deploy-env.js';
import { siteTlsCheck } from './deploy-tls.js';
import { siteTimeoutsCheck } from './deploy-timeouts.js';

const define = (n: number, label: string): CheckDefinition => ({ id: `FW-DEPLOY-${String(n).padStart(3, '0')}`, family: 'deploy', label });

export const DEPLOY = {
  build: define(1, 'Build de production (dist/)'),
  migrations: define(2, 'Migrations appliquées'),
  database: define(3, "Base joignable avec le compte de l'application"),
  grants: define(4, "Droits du compte de l'application"),
  storage: define(5, 'storage/ accessible en écriture au service'),
  nginx: define(6, 'Site nginx cohérent avec env/prod'),
  nginxTest: define(7, 'nginx -t'),
  unit: define(8, 'Service systemd (ExecStart, WorkingDirectory)'),
  addresses: define(9, 'Adresses derrière nginx (HOST, TRUSTED_PROXIES)'),
  appUrl: define(10, 'Adresse publique des liens (APP_URL)'),
  tls: define(11, 'TLS du site nginx (profil « intermediate » de Mozilla)'),
  timeouts: define(12, 'Délais et reprise du site nginx (une instance figée)'),
} as const;

export const DEPLOY_DEFINITIONS: readonly CheckDefinition[] = Object.values(DEPLOY);

/** The newest modification time under the TypeScript sources the build compiles. */
function newestSource(root: string): { file: string; mtime: number } | null {
  const sources = ['app.ts', 'config.ts', ...walkFiles(root, 'mvc').files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))];
  let newest: { file: string; mtime: number } | null = null;
  for (const file of sources) {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    if (stat && (!newest || stat.mtimeMs > newest.mtime)) newest = { file, mtime: stat.mtimeMs };
  }
  return newest;
}

const build: CheckFunction = async ({ root }) => {
  const compiled = fs.statSync(path.join(root, 'dist', 'app.js'), { throwIfNoEntry: false });
  if (!compiled) return [result(DEPLOY.build, 'FAIL', 'dist/app.js absent', '« npm run build » compile le projet ; le service lance node dist/app.js')];
  const newest = newestSource(root);
  const oldest = Math.min(compiled.mtimeMs, ...walkFiles(root, 'dist').files.map((file) => fs.statSync(path.join(root, file)).mtimeMs));
  if (newest && newest.mtime > oldest + 1000)
    return [result(DEPLOY.build, 'FAIL', `${newest.file} est plus récent que dist/`, '« npm run build » à nouveau : le serveur sert ce qui a été compilé')];
  return [result(DEPLOY.build, 'OK', 'dist/ est à jour')];
};

function facts(context: ProjectContext): Promise<DatabaseFacts | null> {
  return context.once('deploy.database', async () => (context.settings ? readDatabaseFacts(context.settings, context.root) : null));
}

const database: CheckFunction = async (context) => {
  const found = await facts(context);
  if (!found) {
    const why = context.settingsError?.message ?? 'réglages illisibles';
    return [result(DEPLOY.database, 'FAIL', why), result(DEPLOY.migrations, 'SKIP', 'base non lue'), result(DEPLOY.grants, 'SKIP', 'base non lue')];
  }
  if (found.error) {
    return [
      result(DEPLOY.database, 'FAIL', found.error, 'vérifiez DB_* dans env/prod et « fw db:init »'),
      result(DEPLOY.migrations, 'SKIP', 'base non jointe'),
      result(DEPLOY.grants, 'SKIP', 'base non jointe'),
    ];
  }
  const out = [
    result(DEPLOY.database, 'OK', context.settings!.driver === 'sqlite' ? context.settings!.file : `${context.settings!.name} (${context.settings!.app.user})`),
  ];
  const notApplied = Object.entries(found.migrations ?? {}).filter(([status]) => status !== 'APPLIED');
  const applied = found.migrations?.APPLIED?.length ?? 0;
  if (notApplied.length > 0) {
    const list = notApplied.map(([status, files]) => `${files.length} ${status} (${files.join(', ')})`).join(' ; ');
    out.push(result(DEPLOY.migrations, 'FAIL', list, '« APP_ENV=prod fw migration:status » puis « fw migration:apply »'));
  } else out.push(result(DEPLOY.migrations, 'OK', `${applied} migration(s), toutes APPLIED`));
  if (context.settings!.driver !== 'mariadb') out.push(result(DEPLOY.grants, 'SKIP', 'SQLite : pas de compte'));
  else {
    const problems = grantProblems(found.grants ?? [], context.settings!.name);
    out.push(
      problems.length === 0
        ? result(DEPLOY.grants, 'OK', `droits limités à ${context.settings!.name}, sans GRANT OPTION`)
        : result(
            DEPLOY.grants,
            'FAIL',
            problems.join(' ; '),
            "le compte DB_APP_LOGIN n'a besoin que de SELECT, INSERT, UPDATE, DELETE sur sa base (« fw db:init »)",
          ),
    );
  }
  return out;
};

/** The unit file of deploy:init, parsed; null when absent. */
function readUnit(root: string): { file: string; settings: Map<string, string[]> } | null {
  const file = `deploy/systemd/${appName(root)}.service`;
  const read = readSource(root, file);
  return read.ok ? { file, settings: unitSettings(read.text) } : null;
}

const storage: CheckFunction = async ({ root }) => {
  const unit = readUnit(root);
  const user = unit?.settings.get('User')?.at(-1);
  if (!user) return [result(DEPLOY.storage, 'SKIP', 'pas de service systemd (« fw deploy:init ») : utilisateur inconnu')];
  const verdict = storageWritableBy(path.join(root, 'storage'), user);
  return [{ ...result(DEPLOY.storage, verdict.status, verdict.detail, verdict.hint ?? ''), file: unit!.file }];
};

/** Where a link at `relative` leads when that is outside the project; null when it stays inside (or is absent). */
function outsideProject(root: string, relative: string): string | null {
  let real: string;
  try {
    real = fs.realpathSync(path.join(root, relative));
  } catch {
    return null;
  }
  const base = fs.realpathSync(root);
  return real === base || real.startsWith(base + path.sep) ? null : real;
}

const nginx: CheckFunction = async ({ root }) => {
  const file = `deploy/nginx/${appName(root)}.conf`;
  const outside = outsideProject(root, file);
  if (outside)
    return [
      result(DEPLOY.nginx, 'FAIL', `${file} mène hors du projet (${outside}) : il n'est pas lu`, 'remplacez le lien par le fichier lui-même'),
      result(DEPLOY.nginxTest, 'SKIP', 'site non lu'),
      result(DEPLOY.tls, 'SKIP', 'site non lu'),
      result(DEPLOY.timeouts, 'SKIP', 'site non lu'),
    ];
  const read = readSource(root, file);
  if (!read.ok)
    return [
      result(DEPLOY.nginx, 'SKIP', `${file} : ${read.reason}`, "« fw deploy:init » l'écrit"),
      result(DEPLOY.nginxTest, 'SKIP', 'pas de site nginx'),
      result(DEPLOY.tls, 'SKIP', 'pas de site nginx'),
      result(DEPLOY.timeouts, 'SKIP', 'pas de site nginx'),
    ];
  const site = readSiteFacts(read.text);
  const prod = readEnvFile(root, 'env/prod');
  const problems: string[] = [];
  const expected = upstreamAddress(prod);
  if (!site.upstreams.includes(expected)) problems.push(`upstream ${site.upstreams.join(', ') || 'absent'} au lieu de ${expected} (HOST, PORT de env/prod)`);
  const needed = bodyLimit(root).application;
  const size = site.bodySize === null ? 1024 * 1024 : parseNginxSize(site.bodySize);
  if (size === null || size < needed)
    problems.push(`client_max_body_size ${site.bodySize ?? '1m (défaut)'} inférieur aux ${needed} octets que l'application accepte`);
  const staticDir = path.join(root, 'static');
  if (site.staticAlias !== null && path.resolve(site.staticAlias) !== staticDir) problems.push(`/static/ servi depuis ${site.staticAlias}, pas ${staticDir}/`);
  if (!site.proxiesMedia) problems.push("/media/ n'est pas confié à l'application (proxy_pass) : les fichiers privés seraient servis sans contrôle");
  const trusted = (prod?.TRUSTED_PROXIES ?? '').split(',').map((entry) => entry.trim());
  if (!trusted.includes(NGINX_PROXY_ADDRESS)) problems.push(`TRUSTED_PROXIES de env/prod ne contient pas ${NGINX_PROXY_ADDRESS} (l'adresse de nginx)`);
  if (prod?.SSL_CERTFILE && prod?.SSL_KEYFILE)
    problems.push('SSL_CERTFILE et SSL_KEYFILE sont remplis dans env/prod : le serveur parlerait HTTPS à nginx, qui lui parle HTTP');
  const out: CheckResult[] = [
    problems.length === 0
      ? { ...result(DEPLOY.nginx, 'OK', `upstream ${expected}, corps ${site.bodySize}, /media/ par l'application`), file }
      : { ...result(DEPLOY.nginx, 'FAIL', problems.join(' ; '), 'corrigez le fichier ou env/prod, ou « fw deploy:init --force »'), file },
  ];
  const tested = testSite(read.text, file);
  if (tested === null) out.push(result(DEPLOY.nginxTest, 'SKIP', 'nginx absent de cette machine'));
  else if ('refused' in tested)
    out.push({
      ...result(
        DEPLOY.nginxTest,
        'WARN',
        `nginx -t non lancé : le site inclut ${tested.refused}, que deploy:check ne lit pas`,
        'mettez ces directives dans le site lui-même, ou lancez « nginx -t » sur le serveur une fois le site installé',
      ),
      file,
    });
  else
    out.push(
      tested.ok
        ? result(DEPLOY.nginxTest, 'OK', 'syntaxe et certificats acceptés')
        : result(DEPLOY.nginxTest, 'FAIL', tested.output.split('\n').slice(-3).join(' ')),
    );
  out.push(siteTlsCheck(DEPLOY.tls, read.text, file, site.certificate));
  out.push(siteTimeoutsCheck(DEPLOY.timeouts, read.text, file));
  return out;
};

const unit: CheckFunction = async ({ root }) => {
  const found = readUnit(root);
  if (!found) return [result(DEPLOY.unit, 'SKIP', 'pas de service systemd', "« fw deploy:init » l'écrit")];
  const problems: string[] = [];
  const workdir = found.settings.get('WorkingDirectory')?.at(-1) ?? '';
  const [executable = '', ...args] = (found.settings.get('ExecStart')?.at(-1) ?? '').replace(/^[-@:+!]+/, '').split(/\s+/);
  const script = args.find((arg) => !arg.startsWith('-')) ?? '';
  if (!path.isAbsolute(workdir) || !fs.statSync(workdir, { throwIfNoEntry: false })?.isDirectory())
    problems.push(`WorkingDirectory « ${workdir} » n'est pas un dossier`);
  else if (fs.realpathSync(workdir) !== fs.realpathSync(root)) problems.push(`WorkingDirectory « ${workdir} » n'est pas le projet (${root})`);
  try {
    fs.accessSync(executable, fs.constants.X_OK);
    if (!path.isAbsolute(executable)) problems.push(`ExecStart « ${executable} » n'est pas un chemin absolu`);
  } catch {
    problems.push(`ExecStart : « ${executable} » n'est pas un exécutable`);
  }
  if (!script || !fs.existsSync(path.resolve(workdir || root, script))) problems.push(`ExecStart : « ${script} » introuvable depuis WorkingDirectory`);
  const home = /^\/(home|root)\//.test(executable) && found.settings.get('ProtectHome')?.at(-1) === 'yes';
  if (home) problems.push(`ExecStart sous /home ou /root, masqué par ProtectHome=yes`);
  const user = found.settings.get('User')?.at(-1) ?? '';
  if (user === '') problems.push('User= manque : le service tournerait en root');
  else if (user === 'root' || user === '0' || lookupAccount(user)?.uid === 0) problems.push(`User=${user} : le service tournerait en root`);
  const env = found.settings.get('Environment') ?? [];
  if (!env.some((value) => /(^|\s)APP_ENV=prod(\s|$)/.test(value))) problems.push('Environment=APP_ENV=prod manque');
  return [
    problems.length === 0
      ? { ...result(DEPLOY.unit, 'OK', `${executable} ${script} dans ${workdir}`), file: found.file }
      : {
          ...result(DEPLOY.unit, 'FAIL', problems.join(' ; '), 'corrigez le service, ou « fw deploy:init --force --user <utilisateur système dédié> »'),
          file: found.file,
        },
  ];
};

/** FW-DEPLOY-009 and 010: the addresses of env/prod (cli/checks/deploy-env.ts). */
const addresses: CheckFunction = async ({ root }) => {
  const prod = readEnvFile(root, 'env/prod');
  if (!prod) return [result(DEPLOY.addresses, 'SKIP', 'env/prod absent ou illisible'), result(DEPLOY.appUrl, 'SKIP', 'env/prod absent ou illisible')];
  const site = `deploy/nginx/${appName(root)}.conf`;
  return [
    proxyAddressesCheck(DEPLOY.addresses, prod, fs.existsSync(path.join(root, site)) ? site : null),
    appUrlCheck(DEPLOY.appUrl, prod, passwordResetInstalled(root)),
  ];
};

export const DEPLOY_CHECKS: readonly CheckFunction[] = [build, database, storage, nginx, unit, addresses];
