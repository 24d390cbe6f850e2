/**
 * The TLS of the nginx site (docs/deploy.md "TLS"): Mozilla's "intermediate" profile narrowed to forward-secret
 * AEAD suites, TLS 1.2 and 1.3 only; for TLS 1.2 the six ECDHE suites with AES-GCM or ChaCha20-Poly1305 (no CBC, no
 * RSA key exchange, no DHE), TLS 1.3's own three suites being all AEAD and forward-secret. OCSP stapling is written
 * on when the certificate names an OCSP responder, and left out, with the reason, when it does not (a self-signed
 * certificate, a certificate of Let's Encrypt since 2025): `ssl_stapling on` without a responder only warns at
 * `nginx -t`, but a site that says it staples and never does misleads its reader. Read by `fw deploy:init` (the
 * lines written) and `fw deploy:check` (FW-DEPLOY-011, cli/checks/deploy-tls.ts).
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { lastDirective, uncommented } from './nginx-inspect.js';

export const TLS_PROTOCOLS = ['TLSv1.2', 'TLSv1.3'] as const;

/** OpenSSL's names of the TLS 1.2 suites allowed, in Mozilla's order. */
export const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
] as const;

/** TLS 1.3's suites (nginx's `ssl_ciphers` does not set them; a site may still name them). */
export const TLS13_CIPHERS = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'] as const;

export const TLS_CURVES = 'X25519:prime256v1:secp384r1';

/** Debian's bundle of trusted roots (package ca-certificates): what an OCSP answer is verified against. */
export const SYSTEM_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The OCSP responder a certificate names (its Authority Information Access), null when none or unreadable. */
export function ocspResponder(certFile: string): string | null {
  try {
    const text = fs.readFileSync(certFile, 'utf8');
    const info = new X509Certificate(text).infoAccess ?? '';
    return /OCSP - URI:(\S+)/.exec(info)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** The first nameservers of /etc/resolv.conf (the resolver nginx asks for the responder's address). */
function nameservers(): string[] {
  try {
    return [...fs.readFileSync('/etc/resolv.conf', 'utf8').matchAll(/^\s*nameserver\s+(\S+)/gm)]
      .map((match) => match[1]!)
      .map((address) => (address.includes(':') ? `[${address}]` : address))
      .slice(0, 2);
  } catch {
    return [];
  }
}

/** The TLS lines of the site's `server { listen 443 … }` block, indented by four spaces. */
export function tlsLines(certFile: string): string {
  const responder = ocspResponder(certFile);
  const stapling =
    responder === null
      ? [
          `# OCSP stapling: off, the certificate (${certFile}) names no OCSP responder, or was not readable when this file`,
          "# was written (a self-signed certificate; Let's Encrypt's since 2025). With one that does: `ssl_stapling on;`,",
          `# \`ssl_stapling_verify on;\`, \`ssl_trusted_certificate ${SYSTEM_CA_BUNDLE};\` and a \`resolver\` (docs/deploy.md "TLS").`,
        ]
      : [
          `# OCSP stapling: the certificate names its responder (${responder}); nginx fetches the answer and sends it in`,
          '# the handshake, checked against the system roots, through the resolver of /etc/resolv.conf.',
          'ssl_stapling on;',
          'ssl_stapling_verify on;',
          `ssl_trusted_certificate ${SYSTEM_CA_BUNDLE};`,
          `resolver ${(nameservers().length > 0 ? nameservers() : ['127.0.0.1']).join(' ')} valid=300s;`,
          'resolver_timeout 5s;',
        ];
  return [
    '# Mozilla\'s "intermediate" profile, forward-secret AEAD suites only (docs/deploy.md "TLS"): TLS 1.2 and 1.3; for',
    "# TLS 1.2, ECDHE with AES-GCM or ChaCha20-Poly1305 (TLS 1.3's three suites are all of that kind). `fw deploy:check`",
    '# reports a site below it (FW-DEPLOY-011).',
    `ssl_protocols ${TLS_PROTOCOLS.join(' ')};`,
    `ssl_ciphers ${TLS12_CIPHERS.join(':')};`,
    `ssl_ecdh_curve ${TLS_CURVES};`,
    'ssl_prefer_server_ciphers off;',
    ...stapling,
  ]
    .map((line) => `    ${line}`)
    .join('\n');
}

export interface SiteTls {
  readonly protocols: string[] | null;
  readonly ciphers: string[] | null;
  readonly stapling: boolean;
}

/** The TLS directives of a site's text (comments left out); the last of each wins, as in nginx. */
export function readSiteTls(text: string): SiteTls {
  const code = uncommented(text);
  const last = (name: string): string | null => lastDirective(code, name);
  const protocols = last('ssl_protocols');
  const ciphers = last('ssl_ciphers');
  return {
    protocols: protocols === null ? null : protocols.split(/\s+/),
    ciphers:
      ciphers === null
        ? null
        : ciphers
            .replace(/^["']|["']$/g, '')
            .split(':')
            .filter(Boolean),
    stapling: last('ssl_stapling') === 'on',
  };
}

/** What puts a site below the profile, in words; empty when it meets it. */
export function tlsProblems(site: SiteTls): string[] {
  const problems: string[] = [];
  const allowedProtocols: readonly string[] = TLS_PROTOCOLS;
  if (site.protocols === null) problems.push('ssl_protocols absent (nginx 1.22 accepte alors TLS 1.0 et 1.1)');
  else {
    const old = site.protocols.filter((protocol) => !allowedProtocols.includes(protocol));
    if (old.length > 0) problems.push(`ssl_protocols accepte ${old.join(', ')}`);
  }
  const allowedCiphers: readonly string[] = [...TLS12_CIPHERS, ...TLS13_CIPHERS];
  if (site.ciphers === null)
    problems.push('ssl_ciphers absent (le défaut de nginx, HIGH:!aNULL:!MD5, admet CBC et les échanges sans confidentialité persistante)');
  else {
    const weak = site.ciphers.filter((cipher) => !allowedCiphers.includes(cipher));
    if (weak.length > 0) problems.push(`ssl_ciphers hors du profil : ${weak.join(', ')}`);
  }
  return problems;
}
