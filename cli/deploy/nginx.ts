/**
 * The nginx site of `fw deploy:init` (cli/templates/deploy/nginx.conf filled in): the six security headers come from
 * the runtime (runtime/security/headers.ts) so that what nginx answers itself carries exactly the application's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { STATIC_SECURITY_HEADERS, buildCspHeader } from '../../runtime/security/headers.js';
import { packageInfo } from '../package-root.js';
import { NGINX_PROXY_ADDRESS, type BodyLimit, type Certificate } from './settings.js';
import { tlsLines } from './tls-profile.js';

export interface NginxValues {
  readonly app: string;
  readonly root: string;
  readonly serverName: string;
  readonly upstream: string;
  readonly certificate: Certificate;
  readonly body: BodyLimit;
}

/** The six headers in the order the application sends them, the CSP last (without a nonce: nginx has none). */
export function securityHeaders(): Array<readonly [string, string]> {
  return [...STATIC_SECURITY_HEADERS, ['Content-Security-Policy', buildCspHeader()]];
}

/** `add_header Name "value" always;` lines, indented. */
export function addHeaderLines(indent: string): string {
  return securityHeaders()
    .map(([name, value]) => `${indent}add_header ${name} "${value.replace(/(["\\])/g, '\\$1')}" always;`)
    .join('\n');
}

export function templateText(name: string): string {
  return fs.readFileSync(path.join(packageInfo().root, 'cli', 'templates', 'deploy', name), 'utf8');
}

/** Fills `__KEY__` placeholders; an unknown one is an error of the generator. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/__([A-Z_]+?)__/g, (whole, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`valeur manquante pour ${whole} dans un gabarit de déploiement`);
    return value;
  });
}

/** Debian's brotli module (libnginx-mod-http-brotli-static), where nginx loads its modules from. */
export const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/**
 * `brotli_static on;` when the module is installed on this machine (deploy:init runs on the server,
 * README_DEPLOY.md), else the same line commented out with the package to install: nginx refuses a directive
 * of a module it has not loaded.
 */
function brotliLine(indent: string): string {
  if (fs.existsSync(BROTLI_STATIC_MODULE)) return `${indent}brotli_static on;`;
  return `${indent}# brotli_static on;  # after apt-get install libnginx-mod-http-brotli-static`;
}

/** The text of deploy/nginx/<app>.conf. */
export function nginxSite(values: NginxValues): string {
  const mib = 1024 * 1024;
  return fill(templateText('nginx.conf'), {
    APP: values.app,
    ROOT: values.root,
    SERVER_NAME: values.serverName,
    UPSTREAM: values.upstream,
    CERT: values.certificate.cert,
    KEY: values.certificate.key,
    TLS: tlsLines(values.certificate.cert),
    TRUSTED: NGINX_PROXY_ADDRESS,
    BODY: `${values.body.nginxMiB}m`,
    BODY_NOTE: `The application accepts ${(values.body.application / mib).toFixed(2)} MiB in one body (${values.body.source}); nginx a little more, never less.`,
    HEADERS: `${addHeaderLines('    ')}\n`,
    HEADERS_INDENTED: addHeaderLines('        '),
    HEADERS_INNER: addHeaderLines('            '),
    BROTLI_STATIC: brotliLine('        '),
    BROTLI_STATIC_INNER: brotliLine('            '),
  });
}
