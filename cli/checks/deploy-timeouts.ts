/**
 * FW-DEPLOY-012 (docs/diagnostics.md "Deployment"): the nginx site's time-outs and retries against what `fw deploy:init`
 * writes (docs/deploy.md "Timeouts and retries"). nginx's defaults give a stalled instance 60 s to connect and 60 s
 * between two reads, and `proxy_next_upstream error timeout` only: one frozen instance then stalls every request
 * sent to it for a minute. WARN (the site works, only a stalled instance costs more): a connect time-out absent or over
 * 5 s, a read or send time-out absent or over 60 s, `proxy_next_upstream` off or without `error` and `timeout`.
 * Read from the site file alone, at the level of its `server` blocks.
 */
import { lastDirective, uncommented } from '../deploy/nginx-inspect.js';
import { result, type CheckDefinition, type CheckResult } from './check.js';

/** The longest connect time-out deploy:check accepts, and the longest read or send time-out, in seconds. */
export const MAX_CONNECT_SECONDS = 5;
export const MAX_READ_SECONDS = 60;

export interface SiteTimeouts {
  readonly connect: string | null;
  readonly read: string | null;
  readonly send: string | null;
  readonly nextUpstream: string[] | null;
}

/**
 * The last value of each directive at the level of the `server` blocks (comments left out): what a `location` sets
 * for itself (a slow export given a longer read time-out) is the user's choice and is not read.
 */
export function readSiteTimeouts(text: string): SiteTimeouts {
  let depth = 0;
  let code = '';
  for (const char of uncommented(text)) {
    if (char === '{') depth++;
    else if (char === '}') depth--;
    if (depth <= 1) code += char === '{' || char === '}' ? ';' : char;
  }
  const last = (name: string): string | null => lastDirective(code, name);
  const next = last('proxy_next_upstream');
  return {
    connect: last('proxy_connect_timeout'),
    read: last('proxy_read_timeout'),
    send: last('proxy_send_timeout'),
    nextUpstream: next === null ? null : next.split(/\s+/),
  };
}

/**
 * An nginx time in seconds (`15s`, `2`, `1m`, `500ms`, `1m30s`, `"1h 30m"`: units from the largest, optionally apart,
 * a number alone in seconds); null when it is not one.
 */
export function nginxSeconds(value: string): number | null {
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, M: 2_592_000, y: 31_536_000 };
  const text = value.replace(/^(["'])(.*)\1$/, '$2').replace(/\s+/g, '');
  const parts = [...text.matchAll(/(\d+)(ms|s|m|h|d|w|M|y)?/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) return null;
  return parts.reduce((sum, part) => sum + Number(part[1]) * units[part[2] ?? 's']!, 0);
}

/** What makes a stalled instance cost more than seconds, in words; empty when the site is as deploy:init writes it. */
export function timeoutProblems(site: SiteTimeouts): string[] {
  const problems: string[] = [];
  const over = (name: string, value: string | null, max: number): void => {
    if (value === null) problems.push(`${name} absent (60 s par défaut)`);
    else {
      const seconds = nginxSeconds(value);
      if (seconds === null) problems.push(`${name} ${value} : durée illisible`);
      else if (seconds > max) problems.push(`${name} ${value} au-delà de ${max} s`);
    }
  };
  over('proxy_connect_timeout', site.connect, MAX_CONNECT_SECONDS);
  over('proxy_read_timeout', site.read, MAX_READ_SECONDS);
  over('proxy_send_timeout', site.send, MAX_READ_SECONDS);
  const next = site.nextUpstream;
  if (next?.includes('off')) problems.push('proxy_next_upstream off : une requête sur une instance arrêtée échoue');
  else if (next !== null) {
    const missing = ['error', 'timeout'].filter((condition) => !next.includes(condition));
    if (missing.length > 0) problems.push(`proxy_next_upstream sans ${missing.join(' ni ')}`);
  }
  return problems;
}

export function siteTimeoutsCheck(definition: CheckDefinition, text: string, file: string): CheckResult {
  const site = readSiteTimeouts(text);
  const problems = timeoutProblems(site);
  if (problems.length > 0)
    return {
      ...result(
        definition,
        'WARN',
        `${problems.join(' ; ')} : une instance figée retiendrait ses requêtes jusque-là`,
        '« proxy_connect_timeout 2s; proxy_read_timeout 15s; proxy_send_timeout 15s; proxy_next_upstream error timeout http_502 http_503; » (docs/deploy.md « Timeouts and retries »), ou « fw deploy:init --force »',
      ),
      file,
    };
  return {
    ...result(definition, 'OK', `connexion ${site.connect}, lecture ${site.read}, reprise sur ${site.nextUpstream?.join(' ') ?? 'error timeout (défaut)'}`),
    file,
  };
}
