/**
 * FW-SEC-005 to FW-SEC-007: the HTTPS files the server would load. The runtime listens in HTTPS when both
 * SSL_CERTFILE and SSL_KEYFILE are set (runtime/app/serve.ts, runtime/http/server.ts reads them with the project
 * root as working folder); these checks read the same two variables, resolve a relative path from the project
 * root, and parse the files with node:crypto (no openssl process): the certificate (`X509Certificate`, the first one
 * of a chain), the key (`createPrivateKey`, unencrypted as the server needs it), whether the key's public half is the
 * certificate's, and the days left before it expires. Files are read bounded in size; nothing is written.
 */
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { result, type CheckDefinition, type CheckResult } from './check.js';
import type { ProjectContext } from './context.js';

/** A PEM file larger than this is not a certificate or a key. */
const MAX_PEM_BYTES = 1024 * 1024;
/** Fewer days left than this before the certificate expires is a WARN. */
export const CERTIFICATE_WARNING_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface TlsDefinitions {
  readonly files: CheckDefinition;
  readonly keyMatch: CheckDefinition;
  readonly expiry: CheckDefinition;
}

type Read<T> = { readonly value: T } | { readonly problem: string };

/** The bytes of `file` (from the root when relative), or why they cannot be read. Never throws, never blocks on a FIFO. */
async function readPem(root: string, variable: string, file: string): Promise<Read<Buffer>> {
  const absolute = path.resolve(root, file);
  try {
    const stat = await fs.promises.stat(absolute);
    if (!stat.isFile()) return { problem: `${variable}=${file} n'est pas un fichier` };
    if (stat.size > MAX_PEM_BYTES) return { problem: `${variable}=${file} pèse ${stat.size} octets : ce n'est pas un fichier PEM` };
    const handle = await fs.promises.open(absolute, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    try {
      const buffer = Buffer.alloc(stat.size);
      const { bytesRead } = await handle.read(buffer, 0, stat.size, 0);
      return { value: buffer.subarray(0, bytesRead) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { problem: `${variable}=${file} : fichier introuvable` };
    if (code === 'EACCES' || code === 'EPERM') return { problem: `${variable}=${file} : fichier illisible (permissions)` };
    if (code === 'ELOOP') return { problem: `${variable}=${file} : boucle de liens symboliques` };
    return { problem: `${variable}=${file} : illisible (${code ?? (error as Error).message})` };
  }
}

function parseCertificate(variable: string, file: string, bytes: Buffer): Read<X509Certificate> {
  try {
    return { value: new X509Certificate(bytes) };
  } catch {
    return { problem: `${variable}=${file} n'est pas un certificat PEM lisible` };
  }
}

/** `-----BEGIN ENCRYPTED PRIVATE KEY-----` (PKCS#8) or `Proc-Type: 4,ENCRYPTED` (the older PEM form). */
const ENCRYPTED_PEM = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/;

function parseKey(variable: string, file: string, bytes: Buffer): Read<KeyObject> {
  const encrypted = { problem: `${variable}=${file} est chiffrée par une phrase secrète : le serveur ne peut pas la lire` };
  if (ENCRYPTED_PEM.test(bytes.toString('latin1'))) return encrypted;
  try {
    // An empty passphrase: an encrypted key the pattern missed fails here instead of waiting for a prompt.
    return { value: createPrivateKey({ key: bytes, passphrase: '' }) };
  } catch (error) {
    if (/passphrase|decrypt|interrupted/i.test((error as Error).message)) return encrypted;
    return { problem: `${variable}=${file} n'est pas une clé privée PEM lisible` };
  }
}

/** The certificate and the key as the server would load them, each parsed or with its problem; null when unset. */
async function loadCertificate(root: string, file: string | undefined): Promise<Read<X509Certificate> | null> {
  if (!file) return null;
  const bytes = await readPem(root, 'SSL_CERTFILE', file);
  return 'problem' in bytes ? bytes : parseCertificate('SSL_CERTFILE', file, bytes.value);
}

async function loadKey(root: string, file: string | undefined): Promise<Read<KeyObject> | null> {
  if (!file) return null;
  const bytes = await readPem(root, 'SSL_KEYFILE', file);
  return 'problem' in bytes ? bytes : parseKey('SSL_KEYFILE', file, bytes.value);
}

/** `YYYY-MM-DD` in UTC. */
function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** FW-SEC-007 over a parsed certificate, at `now`. */
export function expiryResult(definition: CheckDefinition, certificate: X509Certificate, now: Date): CheckResult {
  const validTo = new Date(certificate.validTo);
  const validFrom = new Date(certificate.validFrom);
  const renew = 'renouvelez le certificat (certbot renew, ou celui de votre autorité) puis redémarrez le serveur';
  if (Number.isNaN(validTo.getTime())) return result(definition, 'FAIL', `date d'expiration illisible (${certificate.validTo})`, renew);
  if (validTo.getTime() <= now.getTime()) return result(definition, 'FAIL', `expiré depuis le ${day(validTo)} : les navigateurs refusent la connexion`, renew);
  if (validFrom.getTime() > now.getTime()) {
    return result(definition, 'FAIL', `pas encore valide : valable à partir du ${day(validFrom)}`, "vérifiez l'horloge de la machine et le certificat");
  }
  const days = Math.floor((validTo.getTime() - now.getTime()) / DAY_MS);
  if (days < CERTIFICATE_WARNING_DAYS) return result(definition, 'WARN', `expire le ${day(validTo)}, dans ${days} jour(s)`, renew);
  return result(definition, 'OK', `expire le ${day(validTo)}, dans ${days} jours`);
}

/** FW-SEC-006: the public half of the key (`createPublicKey`) is the certificate's, compared as SPKI DER. */
function keyMatchResult(definition: CheckDefinition, cert: X509Certificate, privateKey: KeyObject, certFile: string, keyFile: string): CheckResult {
  let matches: boolean;
  try {
    const fromKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
    matches = fromKey.equals(cert.publicKey.export({ type: 'spki', format: 'der' }));
  } catch (error) {
    return result(definition, 'FAIL', `clé ou certificat inutilisable (${(error as Error).message})`, 'donnez un certificat et sa clé privée au format PEM');
  }
  if (matches) return result(definition, 'OK', `la clé correspond au certificat (${privateKey.asymmetricKeyType ?? 'clé'})`);
  return result(
    definition,
    'FAIL',
    `la clé ${keyFile} ne correspond pas au certificat ${certFile} : le serveur refuse de démarrer`,
    'donnez la clé privée avec laquelle ce certificat a été demandé',
  );
}

/** FW-SEC-005, FW-SEC-006 and FW-SEC-007, in that order. */
export async function tlsChecks(definitions: TlsDefinitions, context: ProjectContext, now: Date = new Date()): Promise<CheckResult[]> {
  const { files, keyMatch, expiry } = definitions;
  const certFile = process.env.SSL_CERTFILE || undefined;
  const keyFile = process.env.SSL_KEYFILE || undefined;
  if (!certFile && !keyFile) {
    const absent = context.production
      ? result(files, 'INFO', 'SSL_CERTFILE et SSL_KEYFILE vides : le serveur écoute en HTTP (HTTPS assuré par un proxy devant lui ?)')
      : result(files, 'SKIP', 'HTTPS non configuré (SSL_CERTFILE et SSL_KEYFILE vides)');
    return [absent, result(keyMatch, 'SKIP', 'HTTPS non configuré'), result(expiry, 'SKIP', 'HTTPS non configuré')];
  }
  const [certificate, key] = await Promise.all([loadCertificate(context.root, certFile), loadKey(context.root, keyFile)]);
  const problems: string[] = [];
  if (!certificate) problems.push('SSL_KEYFILE est défini sans SSL_CERTFILE : le serveur écoute en HTTP');
  if (!key) problems.push('SSL_CERTFILE est défini sans SSL_KEYFILE : le serveur écoute en HTTP');
  if (certificate && 'problem' in certificate) problems.push(certificate.problem);
  if (key && 'problem' in key) problems.push(key.problem);
  const filesResult =
    problems.length > 0
      ? result(
          files,
          'FAIL',
          problems.join(' ; '),
          'donnez à SSL_CERTFILE et SSL_KEYFILE deux fichiers PEM lisibles par le serveur (certificat, clé privée non chiffrée), ou videz les deux',
        )
      : result(files, 'OK', `certificat ${certFile} et clé ${keyFile} lus`);
  const cert = certificate && 'value' in certificate ? certificate.value : null;
  const privateKey = key && 'value' in key ? key.value : null;
  const matchResult =
    cert && privateKey ? keyMatchResult(keyMatch, cert, privateKey, certFile!, keyFile!) : result(keyMatch, 'SKIP', 'certificat ou clé non lu');
  const expiryResultValue = cert ? expiryResult(expiry, cert, now) : result(expiry, 'SKIP', 'certificat non lu');
  return [filesResult, matchResult, expiryResultValue];
}
