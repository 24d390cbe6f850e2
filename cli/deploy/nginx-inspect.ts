/**
 * The nginx site file as `fw deploy:check` reads it (the directives it compares with env/prod), and `nginx -t` over
 * a copy of it: a throw-away main configuration in a temporary folder includes the copy, with its own pid, logs and
 * temporary paths, so that the test needs neither root nor the system's nginx.conf (the test of the deployment
 * starts nginx the same way), and writes nothing outside that folder.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandboxSite } from './nginx-sandbox.js';

export interface NginxSiteFacts {
  readonly upstreams: string[];
  readonly bodySize: string | null;
  readonly staticAlias: string | null;
  readonly certificate: string | null;
  readonly certificateKey: string | null;
  readonly proxiesMedia: boolean;
}

/** A site file without its comments. */
export function uncommented(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .join('\n');
}

/** The value of the last `name …;` directive of `code` (comments already left out), trimmed; null when there is none. */
export function lastDirective(code: string, name: string): string | null {
  return [...code.matchAll(new RegExp(`(?:^|[\\s;{}])${name}\\s+([^;]+);`, 'g'))].at(-1)?.[1]?.trim() ?? null;
}

/** The directives of a site file, comments left out. */
export function readSiteFacts(text: string): NginxSiteFacts {
  const code = uncommented(text);
  const all = (pattern: RegExp): string[] => [...code.matchAll(pattern)].map((match) => match[1]!);
  const upstreamBlocks = all(/\bupstream\s+\S+\s*\{([^}]*)\}/g);
  const upstreams = upstreamBlocks.flatMap((block) => [...block.matchAll(/\bserver\s+([^\s;]+)/g)].map((match) => match[1]!));
  const media = /location\s+(?:\^~\s+)?\/media\/\s*\{([^}]*)\}/.exec(code);
  return {
    upstreams,
    bodySize: all(/\bclient_max_body_size\s+([^;\s]+)\s*;/g)[0] ?? null,
    staticAlias: /location\s+(?:\^~\s+)?\/static\/\s*\{[^}]*?\balias\s+([^;\s]+)\s*;/.exec(code)?.[1] ?? null,
    certificate: all(/\bssl_certificate\s+([^;\s]+)\s*;/g)[0] ?? null,
    certificateKey: all(/\bssl_certificate_key\s+([^;\s]+)\s*;/g)[0] ?? null,
    proxiesMedia: media !== null && /\bproxy_pass\b/.test(media[1]!) && !/\b(alias|root)\b/.test(media[1]!),
  };
}

/** The nginx executable: /usr/sbin/nginx, else one on PATH; null when none. */
export function nginxBinary(): string | null {
  const candidates = [
    '/usr/sbin/nginx',
    ...(process.env.PATH ?? '')
      .split(path.delimiter)
      .filter(Boolean)
      .map((dir) => path.join(dir, 'nginx')),
  ];
  for (const candidate of candidates) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Next candidate.
    }
  }
  return null;
}

/** A main configuration including `site`, whose files all live in `prefix` (pid, logs, temporary bodies). */
export function mainConfig(prefix: string, site: string): string {
  const temp = (name: string): string => `${name}_temp_path ${path.join(prefix, name)};`;
  const mimeTypes = fs.existsSync('/etc/nginx/mime.types') ? '    include /etc/nginx/mime.types;\n' : '';
  // The site's brotli_static needs Debian's module, which the system's nginx.conf loads through modules-enabled/.
  const brotli = fs.existsSync('/usr/lib/nginx/modules/ngx_http_brotli_static_module.so')
    ? 'load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;'
    : '';
  return [
    brotli,
    'worker_processes 1;',
    `pid ${path.join(prefix, 'nginx.pid')};`,
    `error_log ${path.join(prefix, 'error.log')} warn;`,
    'events { worker_connections 256; }',
    'http {',
    mimeTypes.trimEnd(),
    `    access_log ${path.join(prefix, 'access.log')};`,
    `    ${temp('client_body')}`,
    `    ${temp('proxy')}`,
    `    ${temp('fastcgi')}`,
    `    ${temp('uwsgi')}`,
    `    ${temp('scgi')}`,
    `    include ${site};`,
    '}',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** What `nginx -t` said over a site: null when nginx is absent. */
export type SiteTest = { readonly ok: boolean; readonly output: string } | { readonly refused: string } | null;

/**
 * `nginx -t` over the text of a site (`name`, the project-relative path its messages are given under): a copy of
 * it in a temporary folder, every path it would write pointed into that folder (cli/deploy/nginx-sandbox.ts), the
 * error log given on the command line (`-e`) so that nginx does not open its own before reading the configuration.
 * A site with an `include` is not tested: nginx would read that file, and quote it in its errors.
 */
export function testSite(text: string, name: string): SiteTest {
  const binary = nginxBinary();
  if (!binary) return null;
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-nginx-t-'));
  try {
    const sandboxed = sandboxSite(text, prefix);
    if (sandboxed.includes.length > 0) return { refused: sandboxed.includes.join(', ') };
    const site = path.join(prefix, 'site.conf');
    fs.writeFileSync(site, sandboxed.text);
    fs.writeFileSync(path.join(prefix, 'nginx.conf'), mainConfig(prefix, site));
    const args = ['-t', '-q', '-e', path.join(prefix, 'error.log'), '-p', prefix, '-c', path.join(prefix, 'nginx.conf')];
    const run = spawnSync(binary, args, { encoding: 'utf8', timeout: 10_000 });
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split(site).join(name).split(prefix).join('<test>');
    return { ok: run.status === 0, output: output || (run.error ? run.error.message : '') };
  } finally {
    fs.rmSync(prefix, { recursive: true, force: true });
  }
}
