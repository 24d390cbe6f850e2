/**
 * The nginx site file as `fw deploy:check` reads it (the directives it compares with env/prod), and `nginx -t` over
 * it: a throw-away main configuration in a temporary folder includes the site, with its own pid, logs and temporary
 * paths, so that the test needs neither root nor the system's nginx.conf (the test of the deployment starts nginx
 * the same way).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface NginxSiteFacts {
  readonly upstreams: string[];
  readonly bodySize: string | null;
  readonly staticAlias: string | null;
  readonly certificate: string | null;
  readonly certificateKey: string | null;
  readonly proxiesMedia: boolean;
}

/** The directives of a site file, comments left out. */
export function readSiteFacts(text: string): NginxSiteFacts {
  const code = text
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .join('\n');
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
  return [
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

/** `nginx -t` over `site`: null when nginx is absent, else whether it passed and what it said. */
export function testSite(site: string): { ok: boolean; output: string } | null {
  const binary = nginxBinary();
  if (!binary) return null;
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-nginx-t-'));
  try {
    fs.writeFileSync(path.join(prefix, 'nginx.conf'), mainConfig(prefix, site));
    const run = spawnSync(binary, ['-t', '-q', '-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { encoding: 'utf8', timeout: 10_000 });
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();
    return { ok: run.status === 0, output: output || (run.error ? run.error.message : '') };
  } finally {
    fs.rmSync(prefix, { recursive: true, force: true });
  }
}
