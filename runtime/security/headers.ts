/** The six security headers and the Content-Security-Policy nonce (docs/runtime.md "Security headers"). */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

const CSP_BEFORE_SCRIPT = "default-src 'self'; style-src 'self'; script-src 'self'";
const CSP_AFTER_SCRIPT = "; img-src 'self' data:; frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'";

/** Headers that do not depend on the request, in the order they are sent. */
export const STATIC_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = Object.freeze([
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
] as const);

/** The Content-Security-Policy value, with `'nonce-<nonce>'` in script-src when a nonce is given. */
export function buildCspHeader(nonce?: string | null): string {
  return nonce ? `${CSP_BEFORE_SCRIPT} 'nonce-${nonce}'${CSP_AFTER_SCRIPT}` : CSP_BEFORE_SCRIPT + CSP_AFTER_SCRIPT;
}

/** A fresh 128-bit URL-safe nonce. */
export function generateNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** True when `APP_CSP_NONCE_ENABLED` is `true` (or 1 / yes / on). */
export function isNonceEnabled(): boolean {
  const value = (process.env.APP_CSP_NONCE_ENABLED ?? '').trim().toLowerCase();
  return value === 'true' || value === '1' || value === 'yes' || value === 'on';
}

const nonceStore = new AsyncLocalStorage<{ nonce: string | undefined }>();

/** Runs `fn` with a per-request nonce slot (the Node equivalent of a thread-local). */
export function runWithNonce<T>(nonce: string | undefined, fn: () => T): T {
  return nonceStore.run({ nonce }, fn);
}

/** Sets the nonce of the current request (inside runWithNonce), or starts a slot for the current async context. */
export function setRequestNonce(nonce: string | undefined): void {
  const slot = nonceStore.getStore();
  if (slot) slot.nonce = nonce;
  else nonceStore.enterWith({ nonce });
}

/** The nonce of the current request, or undefined. */
export function getRequestNonce(): string | undefined {
  return nonceStore.getStore()?.nonce;
}
