/**
 * env/prod as `fw deploy:init` writes it when it does not exist (never over an existing one): env/example's lines,
 * with the production values set where the example has the key (commented or not) and added at the end otherwise.
 * The file is created with mode 0600 (cli/commands/deploy/deploy-init.ts): it holds APP_SECRET and the database password.
 */
import { randomBytes } from 'node:crypto';
import { NGINX_PROXY_ADDRESS } from './settings.js';

/**
 * The production values; APP_SECRET is a fresh random one, the same for every process of the machine. APP_URL is
 * the site's https:// address when the domain is known, else left empty for the reader (deploy:check says when it
 * is needed).
 */
export function productionValues(auth: boolean, domain?: string): Array<readonly [string, string, string]> {
  const values: Array<readonly [string, string, string]> = [
    ['APP_ENV', 'prod', ''],
    ['HOST', '127.0.0.1', 'nginx seul joint le serveur'],
    ['TRUSTED_PROXIES', NGINX_PROXY_ADDRESS, "nginx, dont l'en-tête X-Forwarded-For donne l'adresse du client"],
    ['APP_SECRET', randomBytes(32).toString('hex'), ''],
    [
      'APP_URL',
      domain ? `https://${domain}` : '',
      domain ? 'la base des liens envoyés par mail' : 'https://<votre-domaine> : la base des liens envoyés par mail',
    ],
    ['SESSION_STORE', 'database', ''],
  ];
  if (auth) values.push(['RATE_LIMIT_STORE', 'database', '']);
  values.push(['SSL_CERTFILE', '', 'vides : nginx tient le certificat, le serveur parle HTTP à nginx'], ['SSL_KEYFILE', '', '']);
  return values;
}

/** env/example turned into env/prod. */
export function envProdText(example: string, auth: boolean, domain?: string): string {
  const lines = example.replace(/\r\n?/g, '\n').split('\n');
  const head = '# Environnement de production (non versionné), écrit par « fw deploy:init » depuis env/example.';
  const out = lines.map((line) => line);
  const tail: string[] = [];
  for (const [key, value, note] of productionValues(auth, domain)) {
    const at = out.findIndex((line) => new RegExp(`^\\s*#?\\s*(?:export\\s+)?${key}=`).test(line));
    const line = `${key}=${value}${note ? `  # ${note}` : ''}`;
    if (at === -1) tail.push(line);
    else out[at] = line;
  }
  const body = out.join('\n').trimEnd();
  return `${head}\n${body}\n${tail.length > 0 ? `\n# Production\n${tail.join('\n')}\n` : ''}`;
}
