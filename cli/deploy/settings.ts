/**
 * What the deployment files are made from: the project's name, its env/prod (or env/example while env/prod does not
 * exist yet), the certificate paths, and the request-body limit of its configuration. Read from files only: nothing
 * of the project is executed (docs/deploy.md "deploy:init").
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from '../../runtime/env.js';

/** A MiB, the unit of the body limit nginx is given. */
const MIB = 1024 * 1024;
/** Room left above the application's own limit: the last multipart boundary and headers nginx counts as body. */
export const BODY_MARGIN = 64 * 1024;
/** The runtime's defaults (runtime/config.ts), used when config.ts sets none. */
const DEFAULT_BODY_MAX_SIZE = 1_048_576;
const DEFAULT_UPLOAD_MAX_SIZE = 5_242_880;

/** The address nginx connects to the application from, the one value TRUSTED_PROXIES must hold. */
export const NGINX_PROXY_ADDRESS = '127.0.0.1';

/** Debian's self-signed certificate (package ssl-cert): a placeholder until the real one exists. */
export const SNAKEOIL = { cert: '/etc/ssl/certs/ssl-cert-snakeoil.pem', key: '/etc/ssl/private/ssl-cert-snakeoil.key' } as const;

/** A name usable for a file, a system user and an nginx upstream: the package name, else the folder's. */
export function appName(root: string): string {
  let name = '';
  try {
    name = String((JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name?: unknown }).name ?? '');
  } catch {
    // No readable package.json: the folder's name.
  }
  const clean = (name || path.basename(root))
    .replace(/^@[^/]+\//, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return clean || 'app';
}

/** The keys of an env file, or null when it is absent or cannot be read. */
export function readEnvFile(root: string, relative: string): Record<string, string> | null {
  try {
    return parseEnv(fs.readFileSync(path.join(root, relative), 'utf8'), relative);
  } catch {
    return null;
  }
}

/** The number a `key: <literal>` of config.ts gives (`5_242_880`, `20 * 1024 * 1024`), or null. */
export function configNumber(configText: string, key: string): number | null {
  const found = new RegExp(`\\b${key}\\s*:\\s*([0-9_]+(?:\\s*\\*\\s*[0-9_]+)*)\\s*[,}\\n]`).exec(configText);
  if (!found) return null;
  return found[1]!.split('*').reduce((product, factor) => product * Number(factor.trim().replace(/_/g, '')), 1);
}

export interface BodyLimit {
  /** Bytes the application accepts in one multipart body (upload_body_max_size, else body_max_size + 4 × upload_max_size). */
  readonly application: number;
  /** nginx's `client_max_body_size`, in MiB: the application's limit and the margin, rounded up. */
  readonly nginxMiB: number;
  /** Where the application's limit comes from. */
  readonly source: string;
}

/** The body limits of the project at `root` (its config.ts read as text). */
export function bodyLimit(root: string): BodyLimit {
  let text = '';
  try {
    text = fs.readFileSync(path.join(root, 'config.ts'), 'utf8');
  } catch {
    // No config.ts: the runtime's defaults.
  }
  const whole = configNumber(text, 'upload_body_max_size');
  const upload = configNumber(text, 'upload_max_size') ?? DEFAULT_UPLOAD_MAX_SIZE;
  const body = configNumber(text, 'body_max_size') ?? DEFAULT_BODY_MAX_SIZE;
  const application = whole ?? body + 4 * upload;
  const source = whole !== null ? 'upload_body_max_size' : 'body_max_size + 4 × upload_max_size';
  return { application, nginxMiB: Math.ceil((application + BODY_MARGIN) / MIB), source };
}

/** `client_max_body_size` of an nginx file in bytes (`22m`, `1g`, `512k`, `1048576`), or null. */
export function parseNginxSize(value: string): number | null {
  const found = /^(\d+)([kKmMgG]?)$/.exec(value.trim());
  if (!found) return null;
  const unit = { '': 1, k: 1024, m: MIB, g: 1024 * MIB }[found[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(found[1]) * unit;
}

export interface Certificate {
  readonly cert: string;
  readonly key: string;
  /** Where the paths come from, for the command's output. */
  readonly source: string;
}

/** `--domain`: Let's Encrypt's paths; else SSL_CERTFILE/SSL_KEYFILE (the command's environment, then env/prod); else Debian's snakeoil pair. */
export function certificatePaths(root: string, domain: string | undefined, prod: Record<string, string> | null): Certificate {
  if (domain) return { cert: `/etc/letsencrypt/live/${domain}/fullchain.pem`, key: `/etc/letsencrypt/live/${domain}/privkey.pem`, source: "Let's Encrypt" };
  const cert = process.env.SSL_CERTFILE || prod?.SSL_CERTFILE || '';
  const key = process.env.SSL_KEYFILE || prod?.SSL_KEYFILE || '';
  if (cert && key) return { cert: path.resolve(root, cert), key: path.resolve(root, key), source: 'SSL_CERTFILE, SSL_KEYFILE' };
  return { ...SNAKEOIL, source: 'ssl-cert (certificat autosigné de Debian, à remplacer)' };
}

/** The HOST:PORT nginx proxies to: env/prod's, loopback and 8000 by default, a wildcard host read as the loopback. */
export function upstreamAddress(prod: Record<string, string> | null): string {
  let host = (prod?.HOST || '127.0.0.1').trim();
  if (host === '0.0.0.0' || host === 'localhost') host = '127.0.0.1';
  if (host === '::') host = '[::1]';
  else if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return `${host}:${(prod?.PORT || '8000').trim()}`;
}

/** True when the project has the authentication module (its routes are registered). */
export function authInstalled(root: string): boolean {
  try {
    return /\bregisterAuthRoutes\b/.test(fs.readFileSync(path.join(root, 'mvc', 'routes.ts'), 'utf8'));
  } catch {
    return false;
  }
}

/** True when the project sends password-reset links (`registerPasswordResetRoutes` called in mvc/routes.ts). */
export function passwordResetInstalled(root: string): boolean {
  try {
    const code = fs.readFileSync(path.join(root, 'mvc', 'routes.ts'), 'utf8').replace(/\/\/.*$/gm, '');
    return /\bregisterPasswordResetRoutes\s*\(/.test(code);
  } catch {
    return false;
  }
}
