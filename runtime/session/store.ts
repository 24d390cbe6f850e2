/** The session store contract (docs/runtime.md "Session stores") and the in-memory backend (docs/decisions.md#session-stores). */
import { createHmac, randomBytes } from 'node:crypto';
import { get } from '../config.js';
import { appSecret } from '../security/app-secret.js';

export type SessionData = Record<string, unknown>;

/**
 * Operations every backend implements: create, get, set, update, delete, regenerate, deleteUser, purge. The memory,
 * file and database stores run one conformance suite (test/session-stores.test.ts); docs/runtime.md "Sessions".
 */
export interface SessionStore {
  /** A new empty session; returns its id. */
  create(data?: SessionData): Promise<string>;
  /** The data of a live session, or null when unknown or expired. */
  get(id: string): Promise<SessionData | null>;
  /** Stores data under an id (creates the session when absent). */
  set(id: string, data: SessionData): Promise<void>;
  /**
   * Replaces the data of a live session, never creating one: false when the id is unknown or expired (deleted
   * by a logout or `deleteUser()` meanwhile). The per-request session writes through it, so that a request in
   * flight cannot bring back a session ended while it ran.
   */
  update(id: string, data: SessionData): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** Copies the data to a new id and deletes the old one; returns the new id. */
  regenerate(oldId: string): Promise<string>;
  /**
   * Deletes every session of this user (see `sessionUserId`: signed in, or with a pending second-factor
   * challenge), ids compared as text (7 and '7' are the same user); returns how many were deleted. Called when a
   * user is disabled or changes password.
   */
  deleteUser(userId: string | number): Promise<number>;
  /** Removes the expired sessions; returns how many. */
  purge(): Promise<number>;
}

/** A session id: 32 random bytes as 64 hexadecimal characters. */
export function newSessionId(): string {
  return randomBytes(32).toString('hex');
}

const ID_PATTERN = /^[0-9a-f]{64}$/;
export function isValidSessionId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

/**
 * The key a session is kept under at rest by the file, database and Redis stores: the HMAC-SHA256 hex of the
 * cookie value under the application's secret (docs/decisions.md#session-stores). The cookie value is never
 * written, and a session is found only by the application that made it: another one, sharing the folder, the
 * table or the Redis prefix but not the secret, looks under other keys.
 */
export function sessionKey(id: string): string {
  return createHmac('sha256', appSecret()).update(`session:${id}`).digest('hex');
}

/**
 * A short tag of the application's secret (16 hex), for the keys a store shares between sessions (the Redis
 * store's per-user sets and expiry index): two applications on one prefix never touch each other's.
 */
export function applicationTag(): string {
  const secret = appSecret();
  if (tagged?.secret !== secret) tagged = { secret, tag: createHmac('sha256', secret).update('fw-application-tag').digest('hex').slice(0, 16) };
  return tagged.tag;
}
let tagged: { readonly secret: Buffer; readonly tag: string } | undefined;

/** The longest user id the stores keep (the width of `fw_sessions.user_id`). */
export const SESSION_USER_ID_MAX = 255;

/**
 * The session key of a pending second-factor challenge's user (the password checked, the code not yet): such a
 * session belongs to that user as much as a signed-in one, and is ended with the user's sessions.
 */
export const SESSION_MFA_USER_KEY = '_auth_mfa_user_id';

/**
 * The user a session belongs to, as text: `data.user.id` (a signed-in user), else `data._auth_mfa_user_id` (a
 * pending second-factor challenge), when it is a finite number or a non-empty string; else null. deleteUser()
 * deletes by it, so that disabling a user or changing its password also ends the challenges its password opened.
 * A longer id than SESSION_USER_ID_MAX throws: stored truncated, deleteUser() could never find it.
 */
export function sessionUserId(data: SessionData): string | null {
  const user = data.user;
  const signedIn = typeof user === 'object' && user !== null && !Array.isArray(user) ? userIdText((user as Record<string, unknown>).id) : null;
  return signedIn ?? userIdText(data[SESSION_MFA_USER_KEY]);
}

function userIdText(id: unknown): string | null {
  if (typeof id === 'number' ? !Number.isFinite(id) : typeof id !== 'string' || id === '') return null;
  const text = String(id);
  if (text.length > SESSION_USER_ID_MAX) {
    throw new Error(`Identifiant d'utilisateur trop long pour la session (${text.length} caractères, ${SESSION_USER_ID_MAX} au plus).`);
  }
  return text;
}

/** The user id deleteUser() looks for, as text; anything but a finite number or a non-empty string throws. */
export function userIdKey(userId: unknown): string {
  if ((typeof userId === 'number' && Number.isFinite(userId)) || (typeof userId === 'string' && userId !== '')) return String(userId);
  throw new Error(`deleteUser : identifiant d'utilisateur invalide (« ${String(userId)} ») ; attendu un nombre ou une chaîne non vide.`);
}

/**
 * Sliding expiry without a write on every read (file and database stores): a read pushes the expiry back only
 * when more than a tenth of the TTL has passed since it was last pushed (the expiry minus the TTL). A session
 * thus lives between 0.9 × TTL and TTL after its last use; the memory store, which writes nothing, slides exactly.
 */
export function expiryIsDue(expiresAt: number, now: number, ttlMs: number): boolean {
  return now - (expiresAt - ttlMs) > ttlMs / 10;
}

/** A TTL in seconds: a finite number above 0, else an error naming where it was read. */
export function checkedTtl(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} doit être un nombre de secondes supérieur à 0 (valeur lue : « ${String(value)} »).`);
  }
  return value;
}

interface MemoryEntry {
  data: string;
  expiresAt: number;
  /** `data.user.id` as text, for deleteUser(). */
  userId: string | null;
}

/** How many sessions the memory store holds when neither the store nor the configuration says (docs/runtime.md "Sessions"). */
export const SESSION_MEMORY_MAX_DEFAULT = 10_000;

/**
 * The cap of the memory store: `session_memory_max` when configured, else the `SESSION_MEMORY_MAX` environment
 * variable, else 10,000. A value that is not an integer of at least 1 throws (the limit is never silently dropped).
 */
export function sessionMemoryMax(): number {
  const configured = get('session_memory_max');
  if (configured !== null) return checkedMax(configured, 'session_memory_max');
  const fromEnv = process.env.SESSION_MEMORY_MAX;
  if (fromEnv === undefined || fromEnv.trim() === '') return SESSION_MEMORY_MAX_DEFAULT;
  return checkedMax(/^\s*\d+\s*$/.test(fromEnv) ? Number(fromEnv) : NaN, 'SESSION_MEMORY_MAX', fromEnv);
}

function checkedMax(value: number, name: string, shown: unknown = value): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} doit être un entier d'au moins 1 (valeur lue : « ${String(shown)} »).`);
  return value;
}

/**
 * In-process sessions, lost on restart; TTL 3600 s, sliding; expired sessions purged; at most `maxSessions`
 * (by default `sessionMemoryMax()`, read at each new session so that configure() applies). When full, the least
 * recently used anonymous session is evicted first; a session that belongs to a user (signed in, or with a
 * pending second-factor challenge: `sessionUserId`) only when no anonymous one is left.
 *
 * Two Maps, anonymous and owned, each in order of use: every read or write moves its entry to the end (delete +
 * set), so the first entry of each is its least recently used one and the one with the earliest expiry. Each
 * operation is O(1); the periodic purge stops at the first live entry of each. deleteUser() walks the owned
 * sessions (rare: a user disabled or a password changed), comparing the user id kept beside the data.
 */
export class MemorySessionStore implements SessionStore {
  private readonly anonymous = new Map<string, MemoryEntry>();
  private readonly owned = new Map<string, MemoryEntry>();
  private lastPurge: number;

  constructor(
    readonly ttlSeconds = 3600,
    private readonly now: () => number = Date.now,
    private readonly maxSessions?: number,
  ) {
    this.lastPurge = now();
    if (maxSessions !== undefined) checkedMax(maxSessions, 'maxSessions');
  }

  /** The cap in force. */
  get max(): number {
    return this.maxSessions ?? sessionMemoryMax();
  }

  async create(data: SessionData = {}): Promise<string> {
    this.purgeIfDue();
    const id = newSessionId();
    this.write(id, data);
    return id;
  }

  async get(id: string): Promise<SessionData | null> {
    const map = this.mapHolding(id);
    const entry = map?.get(id);
    if (!map || !entry) return null;
    map.delete(id);
    if (entry.expiresAt <= this.now()) return null;
    entry.expiresAt = this.now() + this.ttlSeconds * 1000;
    map.set(id, entry);
    return JSON.parse(entry.data) as SessionData;
  }

  async set(id: string, data: SessionData): Promise<void> {
    this.purgeIfDue();
    this.write(id, data);
  }

  async update(id: string, data: SessionData): Promise<boolean> {
    const map = this.mapHolding(id);
    const entry = map?.get(id);
    if (!map || !entry) return false;
    if (entry.expiresAt <= this.now()) {
      map.delete(id);
      return false;
    }
    this.write(id, data);
    return true;
  }

  async delete(id: string): Promise<void> {
    if (!this.anonymous.delete(id)) this.owned.delete(id);
  }

  async regenerate(oldId: string): Promise<string> {
    const data = (await this.get(oldId)) ?? {};
    await this.delete(oldId);
    return this.create(data);
  }

  async deleteUser(userId: string | number): Promise<number> {
    const key = userIdKey(userId);
    let deleted = 0;
    for (const [id, entry] of this.owned) {
      if (entry.userId === key && this.owned.delete(id)) deleted++;
    }
    return deleted;
  }

  /** Number of sessions held (diagnostics and tests). */
  get size(): number {
    return this.anonymous.size + this.owned.size;
  }

  /**
   * Removes the expired sessions. They are at the front of each Map (oldest use first), so each walk stops at
   * the first live one; should the clock go back, an expired entry left behind is still refused by get() and
   * evicted in its turn.
   */
  async purge(): Promise<number> {
    return this.purgeExpired();
  }

  private purgeExpired(): number {
    const now = this.now();
    let removed = 0;
    for (const map of [this.anonymous, this.owned]) {
      for (const [id, entry] of map) {
        if (entry.expiresAt > now) break;
        map.delete(id);
        removed++;
      }
    }
    this.lastPurge = now;
    return removed;
  }

  private purgeIfDue(): void {
    if (this.now() - this.lastPurge > 60_000) this.purgeExpired();
  }

  private mapHolding(id: string): Map<string, MemoryEntry> | undefined {
    return this.anonymous.has(id) ? this.anonymous : this.owned.has(id) ? this.owned : undefined;
  }

  private write(id: string, data: SessionData): void {
    // Stored as JSON so that the memory store behaves like the file and database stores (no shared references).
    const entry = { data: JSON.stringify(data), expiresAt: this.now() + this.ttlSeconds * 1000, userId: sessionUserId(data) };
    const known = this.anonymous.delete(id) || this.owned.delete(id);
    if (!known) {
      // A new session: make room by evicting the least recently used anonymous ones, then owned ones.
      const max = this.max;
      while (this.size >= max) {
        const from = this.anonymous.size > 0 ? this.anonymous : this.owned;
        from.delete(from.keys().next().value!);
      }
    }
    (entry.userId === null ? this.anonymous : this.owned).set(id, entry);
  }
}
