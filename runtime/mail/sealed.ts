/**
 * The body of a queued message at rest (docs/mail.md "The body at rest"): while a row of `mail_log` waits, its
 * `message` column holds the rendered message and its expiry sealed with AES-256-GCM, under a key derived (HKDF-
 * SHA-256) from the application's secret (`app_secret` / `APP_SECRET`, runtime/security/app-secret.ts). A copy of
 * the database, a backup or a reader of the table sees `fwmail1:` and random bytes, never a link or a code; the
 * sender opens it at send time. A row written before the bodies were sealed (plain JSON) is still read.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { appSecret } from '../security/app-secret.js';
import type { OutgoingMessage } from './transports.js';

/** What a sealed body starts with (the version of the format). */
export const SEALED_PREFIX = 'fwmail1:';
const INFO = 'fw-mvc mail outbox v1';
const IV_BYTES = 12;

/** What the sender needs of a queued row: the message, and when its content stops being valid. */
export interface QueuedPayload {
  readonly message: OutgoingMessage;
  /** ISO 8601 (UTC); null: the message does not expire. */
  readonly expiresAt: string | null;
}

/** A body that cannot be opened: not a message, or sealed under another secret. */
export class SealedMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedMessageError';
  }
}

const keys = new WeakMap<Buffer, Buffer>();

/** The key of the outbox for the current secret (derived once per secret). */
function outboxKey(): Buffer {
  const secret = appSecret();
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), INFO, 32))));
  return key;
}

/** The text written in `mail_log.message`: `fwmail1:<iv>.<tag>.<ciphertext>`, each part in base64url. */
export function sealPayload(payload: QueuedPayload): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', outboxKey(), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
  return SEALED_PREFIX + [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

/** The payload of a row's `message`; throws `SealedMessageError` when it cannot be read. */
export function openPayload(text: string | null): QueuedPayload {
  if (!text) throw new SealedMessageError('Message absent de mail_log.');
  if (!text.startsWith(SEALED_PREFIX)) {
    // A row queued by a version that stored the body in clear.
    try {
      return { message: JSON.parse(text) as OutgoingMessage, expiresAt: null };
    } catch {
      throw new SealedMessageError('Message illisible dans mail_log.');
    }
  }
  const [iv, tag, sealed] = text
    .slice(SEALED_PREFIX.length)
    .split('.')
    .map((part) => Buffer.from(part, 'base64url'));
  try {
    if (!iv || !tag || !sealed || iv.length !== IV_BYTES) throw new Error('format');
    const decipher = createDecipheriv('aes-256-gcm', outboxKey(), iv);
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
    const payload = JSON.parse(plain) as QueuedPayload;
    return { message: payload.message, expiresAt: payload.expiresAt ?? null };
  } catch {
    throw new SealedMessageError(
      'Message chiffré illisible dans mail_log : APP_SECRET (ou app_secret) a changé depuis sa mise en file, ou la ligne est abîmée.',
    );
  }
}
