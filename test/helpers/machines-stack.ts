/**
 * Two machines simulated on one: a generated project (authentication, the Produit CRUD with media) built once, then
 * copied into two folders, each with its own `storage/`, run as two process groups (`node dist/app.js`, APP_ENV=prod)
 * on two ports, with the same MariaDB database, the same Redis (sessions and attempt limits, under a key prefix of
 * the test's own), the same APP_SECRET and one media folder (UPLOAD_ROOT, as a mounted volume would be). Debian's
 * nginx, with `fw deploy:init`'s site, lists both in its upstream (test/helpers/deploy-stack.ts for the rest); each
 * proxied answer carries `X-Upstream` ($upstream_addr) so that a test sees which instance served it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { newProject, type CliProject } from './cli.js';
import { linkFramework } from './crud-app.js';
import { ok, writeEntity } from './crud-cli-project.js';
import { PRODUIT } from './crud-media.js';
import { EMAIL, PASSWORD, freePort, selfSigned, startNginx, stopChild } from './deploy-stack.js';
import { dropRedisPrefix, rawRedis, redisTestPrefix } from './session-backends.js';
import { runTsc } from './typecheck.js';

export { EMAIL, PASSWORD };

export interface Instance {
  readonly root: string;
  readonly port: number;
  /** `127.0.0.1:<port>`, as nginx's $upstream_addr names it. */
  readonly address: string;
  output(): string;
  /** SIGKILL to the whole process group: the machine is gone, nothing drains. */
  kill(): Promise<void>;
}

export interface MachinesStack {
  readonly project: CliProject;
  readonly httpsPort: number;
  readonly instances: readonly [Instance, Instance];
  readonly redisPrefix: string;
  /** The folder both instances store uploads in. */
  readonly mediaRoot: string;
  /** The environment of `fw` commands run against the same stores (auth:user:disable). */
  readonly cliEnv: Readonly<Record<string, string>>;
  accessLog(): string;
  /** nginx's error log: what it saw go wrong upstream. */
  errorLog(): string;
  stop(): Promise<void>;
}

/** DB_* lines of env/dev (the MariaDB database useMariaDb() made), for the production processes. */
function databaseEnv(project: CliProject): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of project.read('env/dev').split('\n')) {
    const match = /^(DB_[A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/** `node dist/app.js` in `root` as a process group of its own; resolves once it listens on `port`. */
async function startInstance(root: string, port: number, env: Readonly<Record<string, string>>): Promise<{ child: ChildProcess; output: () => string }> {
  const base: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('DB_') && key !== 'APP_ENV') base[key] = value;
  const child = spawn(process.execPath, ['dist/app.js'], {
    cwd: root,
    env: { ...base, ...env, APP_ENV: 'prod', HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`l'instance ${root} n'a pas démarré en 30 s :\n${output}`)), 30_000);
    const check = (): void => {
      if (output.includes(`fw-mvc : http://127.0.0.1:${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`l'instance ${root} s'est arrêtée (code ${code}) :\n${output}`));
    });
  });
  return { child, output: () => output };
}

/** Signals the process group of `child` and waits for `child` to exit. */
function stopGroup(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, signal);
  } catch {
    return Promise.resolve();
  }
  return exited;
}

export async function startMachinesStack(): Promise<MachinesStack> {
  const project = newProject('Boutique');
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-machines-'));
  const redisPrefix = redisTestPrefix();
  const children: ChildProcess[] = [];
  let nginx: ChildProcess | undefined;
  const second = `${project.root}-b`;
  const cleanup = async (): Promise<void> => {
    await stopChild(nginx, 'SIGQUIT');
    for (const child of children) await stopGroup(child, 'SIGTERM');
    const redis = await rawRedis();
    try {
      await dropRedisPrefix(redis, redisPrefix);
    } finally {
      await redis.quit();
    }
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.rmSync(second, { recursive: true, force: true });
    await project.cleanup();
  };
  try {
    project.useMariaDb();
    writeEntity(project, PRODUIT);
    for (const args of [['make:crud', 'Produit', '--media'], ['auth:init'], ['upload:init'], ['media:init'], ['db:init'], ['db:apply']]) ok(project, args);
    ok(project, ['auth:user:create', '--email', EMAIL, '--password', PASSWORD]);
    linkFramework(project);
    const tls = selfSigned(prefix);
    const init = project.run(['deploy:init'], { env: { SSL_CERTFILE: tls.cert, SSL_KEYFILE: tls.key } });
    if (init.status !== 0) throw new Error(`fw deploy:init : ${init.stdout}${init.stderr}`);
    const build = runTsc(project.root, ['-p', 'tsconfig.build.json']);
    if (build.status !== 0) throw new Error(`npm run build : ${build.stdout}${build.stderr}`);
    // The second machine: the same build in a folder of its own (its own storage/), node_modules' links kept.
    fs.cpSync(project.root, second, { recursive: true, verbatimSymlinks: true });
    const mediaRoot = path.join(prefix, 'media');
    fs.mkdirSync(mediaRoot);
    const [httpPort, httpsPort, portA, portB] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const site = 'deploy/nginx/boutique.conf';
    project.write(
      site,
      project
        .read(site)
        .replace(/listen (\[::\]:)?80;/g, `listen $1${httpPort};`)
        .replace(/listen (\[::\]:)?443 ssl http2;/g, `listen $1${httpsPort} ssl http2;`)
        .replace('server 127.0.0.1:8000;', `server 127.0.0.1:${portA};\n    server 127.0.0.1:${portB};`)
        .replace(/proxy_pass http:\/\/boutique_app;/g, 'proxy_pass http://boutique_app;\n        add_header X-Upstream $upstream_addr always;'),
    );
    const shared = {
      ...databaseEnv(project),
      APP_SECRET: /^APP_SECRET=(\S+)/m.exec(project.read('env/prod'))![1]!,
      SESSION_STORE: 'redis',
      RATE_LIMIT_STORE: 'redis',
      REDIS_PREFIX: redisPrefix,
      UPLOAD_ROOT: mediaRoot,
    };
    fs.chmodSync(path.dirname(project.root), 0o755);
    fs.chmodSync(prefix, 0o755);
    const instances: Instance[] = [];
    for (const [root, port] of [
      [project.root, portA],
      [second, portB],
    ] as const) {
      const started = await startInstance(root, port, shared);
      children.push(started.child);
      instances.push({
        root,
        port,
        address: `127.0.0.1:${port}`,
        output: started.output,
        kill: () => stopGroup(started.child, 'SIGKILL'),
      });
    }
    nginx = await startNginx(prefix, project.path(site), httpsPort);
    return {
      project,
      httpsPort,
      instances: [instances[0]!, instances[1]!],
      redisPrefix,
      mediaRoot,
      cliEnv: { APP_SECRET: shared.APP_SECRET, SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_PREFIX: redisPrefix, UPLOAD_ROOT: mediaRoot },
      accessLog: () => fs.readFileSync(path.join(prefix, 'access.log'), 'utf8'),
      errorLog: () => fs.readFileSync(path.join(prefix, 'error.log'), 'utf8'),
      stop: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** The instance nginx passed the request to ($upstream_addr: several, comma-separated, after a failover). */
  readonly upstream: string;
}

/** A browser-like client of https://127.0.0.1:<port>: keeps `session_id`, follows nothing. */
export class Visitor {
  private readonly cookies = new Map<string, string>();
  private readonly agent: https.Agent;
  constructor(
    readonly port: number,
    /** The client's own address (a loopback one): the attempt limits count per address. */
    readonly address = '127.0.0.2',
  ) {
    this.agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false, localAddress: address });
  }

  get session(): string | undefined {
    return this.cookies.get('session_id');
  }

  /** Replays a session id kept from earlier, as a stolen or stale cookie would. */
  useSession(id: string): void {
    this.cookies.set('session_id', id);
  }

  request(method: string, url: string, body?: { type: string; data: Buffer | string }): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body) {
      headers['content-type'] = body.type;
      headers['content-length'] = String(Buffer.byteLength(body.data));
    }
    return new Promise((resolve, reject) => {
      const sent = https.request({ host: '127.0.0.1', port: this.port, path: url, method, headers, agent: this.agent }, (response) => {
        for (const cookie of response.headers['set-cookie'] ?? []) {
          const pair = /^(session_id)=([^;]*)/.exec(cookie);
          if (!pair) continue;
          if (/Max-Age=0/i.test(cookie) || pair[2] === '') this.cookies.delete(pair[1]!);
          else this.cookies.set(pair[1]!, pair[2]!);
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            upstream: String(response.headers['x-upstream'] ?? ''),
          }),
        );
        response.on('error', reject);
      });
      sent.on('error', reject);
      sent.end(body?.data);
    });
  }

  get(url: string): Promise<Answer> {
    return this.request('GET', url);
  }

  /** The CSRF token of the form on `page`. */
  async token(page: string): Promise<string> {
    const answer = await this.get(page);
    const match = /name="csrf_token" value="([^"]+)"/.exec(answer.body);
    if (!match) throw new Error(`aucun jeton CSRF sur ${page} (${answer.status}) : ${answer.body.slice(0, 300)}`);
    return match[1]!;
  }

  /** A urlencoded form with a fresh token read from `tokenPage`. */
  async post(url: string, fields: Array<[string, string]>, tokenPage: string): Promise<Answer> {
    const form = new URLSearchParams([['csrf_token', await this.token(tokenPage)], ...fields]).toString();
    return this.request('POST', url, { type: 'application/x-www-form-urlencoded', data: form });
  }

  login(login: string, password: string): Promise<Answer> {
    return this.post(
      '/login',
      [
        ['login', login],
        ['password', password],
      ],
      '/login',
    );
  }

  close(): void {
    this.agent.destroy();
  }
}
