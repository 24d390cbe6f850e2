/**
 * A generated project served as in production behind Debian's nginx: `fw new`, the Produit entity with media,
 * `fw make:crud Produit --media` behind `fw auth:init`, a user, a self-signed certificate (openssl), `fw deploy:init`,
 * then only the listening ports rewritten to free ones (nginx's 80 and 443, the application's PORT in env/prod and
 * the upstream), `tsc -p tsconfig.build.json`, `node dist/app.js` with APP_ENV=prod, and nginx as an unprivileged
 * master of its own (a prefix in a temporary folder, cli/deploy/nginx-inspect.ts's main configuration).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mainConfig, nginxBinary } from '../../cli/deploy/nginx-inspect.js';
import { newProject, type CliProject } from './cli.js';
import { linkFramework, serveWith } from './crud-app.js';
import { ok, writeEntity } from './crud-cli-project.js';
import { PRODUIT } from './crud-media.js';
import { runTsc } from './typecheck.js';

export const EMAIL = 'admin@example.test';
export const PASSWORD = 'Motdepasse-solide-42';

export interface DeployStack {
  readonly project: CliProject;
  readonly httpPort: number;
  readonly httpsPort: number;
  /** The application's own output (its audit log included). */
  output(): string;
  /** nginx's access log. */
  accessLog(): string;
  stop(): Promise<void>;
}

/** A port free at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  return exited;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl in `dir`. */
export function selfSigned(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl : ${made.stderr}`);
  return { cert, key };
}

/** Starts nginx on `site` and resolves once it answers on `port`. */
export async function startNginx(prefix: string, site: string, port: number): Promise<ChildProcess> {
  const binary = nginxBinary();
  if (!binary) throw new Error('nginx absent : .ci/run installe le paquet Debian « nginx »');
  // The site's own access log (/var/log/nginx/access.log) goes into the prefix too, beside the main one: a copy of the site says so.
  const copy = path.join(prefix, 'site-under-test.conf');
  fs.writeFileSync(copy, fs.readFileSync(site, 'utf8').replaceAll('/var/log/nginx/access.log', path.join(prefix, 'access.log')));
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), mainConfig(prefix, copy));
  const child = spawn(binary, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  child.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx s'est arrêté : ${said}${fs.readFileSync(path.join(prefix, 'error.log'), 'utf8')}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stopChild(child);
  throw new Error(`nginx n'écoute pas sur ${port} : ${said}`);
}

export async function startDeployStack(): Promise<DeployStack> {
  const project = newProject('Boutique');
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-deploy-nginx-'));
  let app: ChildProcess | undefined;
  let nginx: ChildProcess | undefined;
  try {
    project.useSqlite();
    writeEntity(project, PRODUIT);
    for (const args of [['make:crud', 'Produit', '--media'], ['auth:init'], ['upload:init'], ['media:init'], ['db:init'], ['db:apply']]) ok(project, args);
    ok(project, ['auth:user:create', '--email', EMAIL, '--password', PASSWORD]);
    linkFramework(project);
    const tls = selfSigned(prefix);
    const init = project.run(['deploy:init'], { env: { SSL_CERTFILE: tls.cert, SSL_KEYFILE: tls.key } });
    if (init.status !== 0) throw new Error(`fw deploy:init : ${init.stdout}${init.stderr}`);
    const [httpPort, httpsPort, appPort] = [await freePort(), await freePort(), await freePort()];
    // Only the ports change: nginx's two, the application's (env/prod) and the upstream that points at it.
    const site = 'deploy/nginx/boutique.conf';
    project.write(
      site,
      project
        .read(site)
        .replace(/listen (\[::\]:)?80;/g, `listen $1${httpPort};`)
        .replace(/listen (\[::\]:)?443 ssl http2;/g, `listen $1${httpsPort} ssl http2;`)
        .replace('server 127.0.0.1:8000;', `server 127.0.0.1:${appPort};`),
    );
    project.write('env/prod', project.read('env/prod').replace(/^PORT=8000$/m, `PORT=${appPort}`));
    const build = runTsc(project.root, ['-p', 'tsconfig.build.json']);
    if (build.status !== 0) throw new Error(`npm run build : ${build.stdout}${build.stderr}`);
    // The rest of the project's `npm run build`: the fingerprinted, gzip and brotli files of static/.
    const assets = project.run(['build:assets']);
    if (assets.status !== 0) throw new Error(`fw build:assets : ${assets.stdout}${assets.stderr}`);
    // nginx's workers (nobody) read static/ as www-data would: the temporary parent folder is private by default.
    fs.chmodSync(path.dirname(project.root), 0o755);
    // …and write request bodies under the prefix (client_body_temp_path), as under /var/lib/nginx.
    fs.chmodSync(prefix, 0o755);
    const served = await serveWith(project.root, ['dist/app.js'], { APP_ENV: 'prod', PORT: String(appPort) }, (child) => (app = child));
    nginx = await startNginx(prefix, project.path(site), httpsPort);
    const started = { app, nginx };
    return {
      project,
      httpPort,
      httpsPort,
      output: served.output,
      accessLog: () => fs.readFileSync(path.join(prefix, 'access.log'), 'utf8'),
      async stop() {
        await stopChild(started.nginx, 'SIGQUIT');
        await stopChild(started.app);
        fs.rmSync(prefix, { recursive: true, force: true });
        await project.cleanup();
      },
    };
  } catch (error) {
    await stopChild(nginx, 'SIGQUIT');
    await stopChild(app);
    fs.rmSync(prefix, { recursive: true, force: true });
    await project.cleanup();
    throw error;
  }
}
