/**
 * FW-DEPLOY-009 and FW-DEPLOY-010 (docs/diagnostics.md "Deployment"): what env/prod says about the addresses of a
 * server behind nginx. TRUSTED_PROXIES must not believe the whole Internet, HOST should not listen on every
 * interface (the server would be reachable without nginx), and APP_URL, the base of the links the application
 * mails, must be an https:// address whenever password reset is installed. Read from env/prod only.
 */
import net from 'node:net';
import { result, type CheckDefinition, type CheckResult } from './check.js';

/** The narrowest prefix believed without question: an IPv4 block wider than /8, or IPv6 wider than /16, is refused. */
export const WIDEST_IPV4_PREFIX = 8;
export const WIDEST_IPV6_PREFIX = 16;

/** The entries of TRUSTED_PROXIES that cover a large part of the Internet (`0.0.0.0/0`, `::/0`, `::ffff:0:0/96`…). */
export function broadProxyEntries(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => {
      const [address = '', bits] = entry.split('/');
      if (bits === undefined || !/^\d+$/.test(bits)) return false;
      const prefix = Number(bits);
      const family = net.isIP(address);
      if (family === 4) return prefix < WIDEST_IPV4_PREFIX;
      if (family !== 6) return false;
      // An IPv4-mapped block (::ffff:a.b.c.d/n) is an IPv4 block of n - 96 bits.
      if (/^::ffff:/i.test(address)) return prefix - 96 < WIDEST_IPV4_PREFIX;
      return prefix < WIDEST_IPV6_PREFIX;
    });
}

const WILDCARD_HOST = /^(0\.0\.0\.0|::|\[::\]|0:0:0:0:0:0:0:0)$/;

/** FW-DEPLOY-009: TRUSTED_PROXIES and HOST of env/prod behind nginx. */
export function proxyAddressesCheck(definition: CheckDefinition, prod: Readonly<Record<string, string>>, site: string | null): CheckResult {
  const broad = broadProxyEntries(prod.TRUSTED_PROXIES ?? '');
  if (broad.length > 0) {
    return result(
      definition,
      'FAIL',
      `TRUSTED_PROXIES de env/prod croit ${broad.join(', ')} : n'importe quel client choisit son adresse par X-Forwarded-For et échappe aux limites de connexion`,
      `TRUSTED_PROXIES=127.0.0.1 (l'adresse de nginx), ou les adresses exactes des proxys (un bloc d'au plus /${WIDEST_IPV4_PREFIX} en IPv4)`,
    );
  }
  const host = (prod.HOST ?? '').trim();
  if (site !== null && WILDCARD_HOST.test(host)) {
    return result(
      definition,
      'WARN',
      `HOST=${host} dans env/prod : le serveur écoute sur toutes les interfaces, on le joint sans passer par nginx (${site}), donc sans HTTPS`,
      "HOST=127.0.0.1 quand nginx est sur la même machine ; sinon l'adresse privée que nginx joint, derrière un pare-feu",
    );
  }
  return result(definition, 'OK', `HOST=${host || '127.0.0.1'}, TRUSTED_PROXIES=${prod.TRUSTED_PROXIES || '(vide)'}`);
}

/** FW-DEPLOY-010: APP_URL, the base of the links sent by mail (password reset), in env/prod. */
export function appUrlCheck(definition: CheckDefinition, prod: Readonly<Record<string, string>>, passwordReset: boolean): CheckResult {
  const value = (prod.APP_URL ?? '').trim();
  const fix = 'APP_URL=https://<votre-domaine> dans env/prod (sans chemin)';
  if (value === '') {
    return passwordReset
      ? result(
          definition,
          'FAIL',
          "APP_URL est vide dans env/prod alors que la réinitialisation du mot de passe est installée : en production, aucun lien n'est envoyé",
          fix,
        )
      : result(definition, 'OK', 'vide ; aucun lien envoyé par mail ne le demande (pas de réinitialisation du mot de passe)');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return result(definition, 'FAIL', `APP_URL « ${value} » n'est pas une adresse`, fix);
  }
  if (url.protocol === 'http:') {
    return result(
      definition,
      'FAIL',
      `APP_URL est en http:// (${url.host}) : les liens envoyés, leur jeton compris, passeraient en clair avant la redirection de nginx`,
      `APP_URL=https://${url.host}`,
    );
  }
  if (url.protocol !== 'https:') return result(definition, 'FAIL', `APP_URL « ${value} » n'est ni en https:// ni en http://`, fix);
  return result(definition, 'OK', value);
}
