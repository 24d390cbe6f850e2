/**
 * FW-DEPLOY-011 (docs/diagnostics.md "Deployment"): the TLS of the nginx site against the profile `fw deploy:init`
 * writes (cli/deploy/tls-profile.ts). FAIL: a protocol other than TLS 1.2 and 1.3, `ssl_ciphers` absent (nginx's
 * default admits CBC suites and the RSA key exchange) or naming a suite outside the six ECDHE AEAD ones. WARN: the
 * certificate names an OCSP responder and the site does not staple. Read from the site file and the certificate.
 */
import { readSiteTls, ocspResponder, tlsProblems } from '../deploy/tls-profile.js';
import { result, type CheckDefinition, type CheckResult } from './check.js';

export function siteTlsCheck(definition: CheckDefinition, text: string, file: string, certificate: string | null): CheckResult {
  const site = readSiteTls(text);
  const problems = tlsProblems(site);
  if (problems.length > 0)
    return {
      ...result(
        definition,
        'FAIL',
        problems.join(' ; '),
        '« ssl_protocols TLSv1.2 TLSv1.3; » et les six suites ECDHE AES-GCM / CHACHA20 de « fw deploy:init » (docs/deploy.md « TLS »), ou « fw deploy:init --force »',
      ),
      file,
    };
  const responder = certificate === null ? null : ocspResponder(certificate);
  if (responder !== null && !site.stapling)
    return {
      ...result(
        definition,
        'WARN',
        `le certificat nomme un répondeur OCSP (${responder}) et le site ne l'agrafe pas`,
        '« ssl_stapling on; ssl_stapling_verify on; » avec un « resolver » (docs/deploy.md « TLS »)',
      ),
      file,
    };
  return { ...result(definition, 'OK', `TLS 1.2 et 1.3, ${site.ciphers!.length} suites ECDHE AEAD${site.stapling ? ', agrafage OCSP' : ''}`), file };
}
