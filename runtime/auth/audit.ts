/**
 * Authentication audit records (docs/decisions.md#audit-events; docs/auth.md "Audit"): one record per event
 * on the logger `fw.auth.audit`, WARNING for failures and refusals, INFO for the rest. `logAuthEvent` never
 * throws, never touches the database, and never writes a secret: metadata is scrubbed first, and when anything
 * about it misbehaves (a throwing getter or `toJSON`, a cycle, a throwing sink) the record goes out without it.
 */
import { getLogger, type Level } from '../logger.js';

export const AUTH_AUDIT_LOGGER = 'fw.auth.audit';

/** Events logged at WARNING; every other event is INFO. */
export const AUTH_WARNING_EVENTS: ReadonlySet<string> = new Set([
  'login.failed',
  'login.rate_limited',
  'mfa.challenge.failed',
  'mfa.revalidation.failed',
  'mfa.rate_limited',
  'user.disabled',
  'password_reset.refused',
  'password_reset.rate_limited',
]);

/** The secret keys of the audit contract (docs/auth.md "Audit"), dropped wherever they appear (compared without case, `_`, `-` or spaces). */
export const AUTH_AUDIT_SECRET_KEYS: readonly string[] = [
  'password',
  'password_hash',
  'token',
  'raw_token',
  'access_token',
  'refresh_token',
  'id_token',
  'secret',
  'totp_secret',
  'recovery_code',
  'code_verifier',
];

/** Beyond that list: a key holding one of these parts is dropped too (`new_password`, `api_token`, `client_secret`…). */
const SECRET_PARTS = ['password', 'passwd', 'secret', 'token', 'recoverycode', 'codeverifier', 'sessionid', 'apikey', 'authorization', 'cookie'];
/** …and these exact keys: a one-time code is a secret while it is valid. */
const SECRET_EXACT = new Set([...AUTH_AUDIT_SECRET_KEYS.map(squash), 'code', 'otp', 'totp', 'pin']);

const MAX_DEPTH = 8;
const MAX_ENTRIES = 100;
const MAX_STRING = 2000;

/** Audit details; every field is optional. */
export interface AuthEventDetails {
  userId?: number | string | null;
  ip?: string | null;
  userAgent?: string | null;
  metadata?: Record<string, unknown>;
}

function squash(key: string): string {
  return key.toLowerCase().replace(/[\s_-]+/g, '');
}

/** True when a metadata key names a secret (`password`, `passwordHash`, `TOTP_SECRET`, `new_password`…). */
export function isSecretAuditKey(key: string): boolean {
  const squashed = squash(key);
  return SECRET_EXACT.has(squashed) || SECRET_PARTS.some((part) => squashed.includes(part));
}

/** Thrown inside the scrubber when a value cannot be read safely: the caller drops the whole metadata. */
class UnreadableMetadata extends Error {}

/**
 * Original name `sanitize_auth_audit_metadata()`: a plain copy of `metadata` without secret keys, at any depth
 * (objects, arrays, Maps), cycles cut (`[circular]`), sizes bounded. Never throws: metadata that cannot be read safely
 * gives `{}`.
 */
export function sanitizeAuthAuditMetadata(metadata: unknown): Record<string, unknown> {
  try {
    return scrubMetadata(metadata);
  } catch {
    return {};
  }
}

/** The scrubbed copy, or an exception when some part of it could not be read. */
function scrubMetadata(metadata: unknown): Record<string, unknown> {
  if (metadata === null || metadata === undefined) return {};
  const scrubbed = scrub(metadata, 0, new Set());
  return scrubbed !== null && typeof scrubbed === 'object' && !Array.isArray(scrubbed) ? (scrubbed as Record<string, unknown>) : { value: scrubbed };
}

function scrub(value: unknown, depth: number, path: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
      return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
      return null;
    case 'symbol':
    case 'function':
      return undefined;
    default:
      break;
  }
  if (value === null) return null;
  const object = value as object;
  if (path.has(object)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[trop profond]';
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
  if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) return `[binaire ${(object as ArrayBuffer).byteLength} octets]`;
  if (object instanceof Error) return { name: scrub(object.name, depth + 1, path), message: scrub(object.message, depth + 1, path) };
  path.add(object);
  try {
    if (Array.isArray(object)) return scrubList(object, depth, path);
    if (object instanceof Set) return scrubList([...object], depth, path);
    if (object instanceof Map)
      return scrubEntries(
        [...object].map(([k, v]) => [String(k), v] as const),
        depth,
        path,
      );
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      // What JSON.stringify would write, scrubbed in turn (it may hold a password too).
      return scrub(toJSON.call(object), depth + 1, path);
    }
    return scrubEntries(
      Object.keys(object).map((k) => [k, (object as Record<string, unknown>)[k]] as const),
      depth,
      path,
    );
  } catch (err) {
    throw err instanceof UnreadableMetadata ? err : new UnreadableMetadata();
  } finally {
    path.delete(object);
  }
}

function scrubList(items: readonly unknown[], depth: number, path: Set<object>): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < items.length && i < MAX_ENTRIES; i++) {
    const item = scrub(items[i], depth + 1, path);
    out.push(item === undefined ? null : item);
  }
  if (items.length > MAX_ENTRIES) out.push(`[${items.length - MAX_ENTRIES} de plus]`);
  return out;
}

function scrubEntries(entries: ReadonlyArray<readonly [string, unknown]>, depth: number, path: Set<object>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const [key, raw] of entries) {
    if (isSecretAuditKey(key)) continue;
    if (kept === MAX_ENTRIES) {
      out['…'] = 'clés omises';
      break;
    }
    const item = scrub(raw, depth + 1, path);
    if (item === undefined) continue;
    // defineProperty: a key named __proto__ stays a plain key.
    Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    kept++;
  }
  return out;
}

/** The level of an event: WARNING for failures and refusals (docs/decisions.md#audit-events), INFO otherwise. */
export function authEventLevel(eventType: string): Level {
  return AUTH_WARNING_EVENTS.has(eventType) ? 'WARNING' : 'INFO';
}

/** A short single-line text, or null (ids, addresses and user agents come from the client). */
function plainText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

function plainUserId(value: unknown): number | string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return value.toString();
  return plainText(value, 100);
}

/** Reads a field of `details` without trusting it: a throwing getter gives undefined. */
function readField(details: unknown, name: keyof AuthEventDetails): { ok: boolean; value: unknown } {
  try {
    return { ok: true, value: details !== null && typeof details === 'object' ? (details as Record<string, unknown>)[name] : undefined };
  } catch {
    return { ok: false, value: undefined };
  }
}

/**
 * Original name `log_auth_event()`: one record on `fw.auth.audit` with the event as message and the fields `event`,
 * `user_id`, `ip`, `user_agent` and the scrubbed `metadata`. Never throws.
 */
export function logAuthEvent(eventType: string, details: AuthEventDetails = {}): void {
  let event = 'unknown';
  let level: Level = 'INFO';
  let base: Record<string, unknown> = { event, user_id: null, ip: null, user_agent: null };
  try {
    event = plainText(eventType, 100) ?? 'unknown';
    level = authEventLevel(event);
    base = {
      event,
      user_id: plainUserId(readField(details, 'userId').value),
      ip: plainText(readField(details, 'ip').value, 100),
      user_agent: plainText(readField(details, 'userAgent').value, 512),
    };
  } catch {
    // `base` keeps what could be read.
  }
  const logger = getLogger(AUTH_AUDIT_LOGGER);
  let fields: Record<string, unknown> = base;
  try {
    const metadata = readField(details, 'metadata');
    if (!metadata.ok) throw new UnreadableMetadata();
    if (metadata.value !== undefined && metadata.value !== null) fields = { ...base, metadata: scrubMetadata(metadata.value) };
  } catch {
    fields = { ...base, metadata_dropped: true };
  }
  try {
    logger.log(level, event, fields);
    return;
  } catch {
    // The sink failed, perhaps on the metadata: try once more with the minimal record.
  }
  try {
    logger.log(level, event, { ...base, metadata_dropped: true });
  } catch {
    try {
      process.stderr.write(
        `${new Date().toISOString()} ERROR ${AUTH_AUDIT_LOGGER}: événement « ${event} » non journalisé (la sortie des journaux a échoué).\n`,
      );
    } catch {
      // Nothing left to try: an audit failure never breaks the request.
    }
  }
}
