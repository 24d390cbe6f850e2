/** Session helpers over the configured store, and the per-request session handle (docs/api-mapping.md "Sessions, CSRF, roles"). */
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { onConfigChange } from '../config.js';
import { sessionStoreFromConfig } from './select.js';
import { isValidSessionId, newSessionId, type SessionData, type SessionStore } from './store.js';

export const SESSION_COOKIE = 'session_id';
const COOKIE_ATTRIBUTES = 'HttpOnly; SameSite=Strict; Secure; Path=/';

/** The store in use: set with setSessionStore(), or built from the configuration on first use (null: not yet). */
let current: SessionStore | null = null;
let fromConfig = false;

/**
 * Replaces the session backend; `null` goes back to the configured one (`session_store`, `SESSION_STORE`),
 * built again on next use.
 */
export function setSessionStore(next: SessionStore | null): void {
  current = next;
  fromConfig = false;
}

/**
 * The store in use. Unless one was set, it is built on first use by `sessionStoreFromConfig()` (memory, file or
 * database), which throws on an unknown SESSION_STORE: the Application asks for it when it is constructed, so
 * that such a mistake stops the start rather than the first request.
 */
export function getSessionStore(): SessionStore {
  if (!current) {
    current = sessionStoreFromConfig();
    fromConfig = true;
  }
  return current;
}

// A store built from the configuration follows it: a change of what it was built from builds it again on next use.
const STORE_KEYS: ReadonlySet<string> = new Set(['session_store', 'session_dir', 'session_ttl', 'project_root']);
onConfigChange((keys) => {
  if (fromConfig && keys.some((key) => STORE_KEYS.has(key))) {
    current = null;
    fromConfig = false;
  }
});

export type FlashLevel = 'success' | 'error' | 'warning' | 'info';
export interface Flash {
  message: string;
  level: FlashLevel;
}
const FLASH_KEY = '_flash';

/** Normalises a flash level; `danger` is `error`, anything unknown is `info`. */
export function normalizeLevel(level: string): FlashLevel {
  if (level === 'danger') return 'error';
  return level === 'success' || level === 'error' || level === 'warning' || level === 'info' ? level : 'info';
}

// --- store-level helpers (the names of docs/api-mapping.md "Sessions, CSRF, roles") ---

export function createSession(): Promise<string> {
  return getSessionStore().create();
}
export function getSession(sessionId: string): Promise<SessionData | null> {
  return isValidSessionId(sessionId) ? getSessionStore().get(sessionId) : Promise.resolve(null);
}
export function deleteSession(sessionId: string): Promise<void> {
  return getSessionStore().delete(sessionId);
}
/** Copies the data to a new id, deletes the old session; returns the new id. */
export function regenerateSession(oldSessionId: string): Promise<string> {
  return getSessionStore().regenerate(oldSessionId);
}
/** Stores the user in a new session id (fixation protection); returns that id. */
export async function authenticateSession(sessionId: string, user: Record<string, unknown>): Promise<string> {
  const data = (await getSession(sessionId)) ?? {};
  await getSessionStore().delete(sessionId);
  return getSessionStore().create({ ...data, user });
}
export async function setFlash(sessionId: string, message: string, level = 'success'): Promise<void> {
  const data = (await getSession(sessionId)) ?? {};
  await getSessionStore().set(sessionId, { ...data, [FLASH_KEY]: { message, level: normalizeLevel(level) } });
}
/** Reads and consumes the flash of a session. */
export async function getFlash(sessionId: string): Promise<Flash | null> {
  const data = await getSession(sessionId);
  if (!data?.[FLASH_KEY]) return null;
  const flash = data[FLASH_KEY] as Flash;
  delete data[FLASH_KEY];
  await getSessionStore().set(sessionId, data);
  return flash;
}

// --- the per-request handle ---

/**
 * How a request's session began: `loaded` from the store under the client's id; `new`, an id the client does not
 * have yet (sent with the response once the session holds something); `adopted`, the well-formed id the client
 * sent that the store does not hold (an anonymous visitor's unstored id, docs/runtime.md "Sessions").
 */
export type SessionOrigin = 'loaded' | 'new' | 'adopted';

/** The session of one request: loaded before the handler, persisted after it. */
export class RequestSession {
  dirty = false;
  deleted = false;
  /** Set when the id is new for the client (created or rotated): the cookie must be sent. */
  issueCookie: boolean;
  /**
   * Set when an anonymous CSRF token was derived from this id during the request (docs/runtime.md "CSRF"): the
   * client must keep the cookie even if nothing is stored under it.
   */
  tokenBound = false;
  /** The id the client sent, to delete when rotated. */
  private readonly previousIds: string[] = [];
  /** True while `id` is the id the session was loaded under: it exists in the store, and is only updated. */
  private loaded: boolean;

  constructor(
    public id: string,
    public data: SessionData,
    origin: boolean | SessionOrigin,
  ) {
    // `true` / `false`: the former signature (new / loaded).
    const kind = origin === true ? 'new' : origin === false ? 'loaded' : origin;
    this.issueCookie = kind === 'new';
    this.dirty = kind === 'new';
    this.loaded = kind === 'loaded';
  }

  get<T = unknown>(key: string): T | undefined {
    return this.data[key] as T | undefined;
  }
  set(key: string, value: unknown): void {
    this.data[key] = value;
    this.dirty = true;
  }
  remove(key: string): void {
    if (key in this.data) {
      delete this.data[key];
      this.dirty = true;
    }
  }
  /** New id, same data; the old id is deleted from the store when the response is sent. */
  rotate(): void {
    this.previousIds.push(this.id);
    this.id = newSessionId();
    this.loaded = false;
    this.issueCookie = true;
    this.dirty = true;
  }
  /** Ends the session: data removed on the server, cookie expired on the client. */
  destroy(): void {
    this.deleted = true;
    this.data = {};
  }
  /**
   * After destroy(): the request goes on as a new anonymous visitor, under a new id (the ended one is still
   * deleted from the store, and the new cookie replaces the old one on the client).
   */
  restartAnonymous(): void {
    this.previousIds.push(this.id);
    this.id = newSessionId();
    this.deleted = false;
    this.data = {};
    this.loaded = false;
    this.issueCookie = true;
    this.dirty = false;
  }

  /**
   * Writes the session to the store and sets the cookie on the response, when it holds anything: an empty
   * session is not stored (a loaded one that became empty is deleted from the store; its cookie stays, as the
   * anonymous CSRF tokens of the visitor's open pages are derived from it). A session loaded from the store under
   * its id is written with `update()`, which never creates: if it was ended while the request ran (logout,
   * `deleteUser()` on a disabled user or a changed password), it stays ended, and no cookie is sent. A new,
   * adopted or rotated id is created with `set()`. A new id bound to a CSRF token is sent even when empty.
   */
  async persist(response: Response): Promise<void> {
    const store = getSessionStore();
    for (const old of this.previousIds) await store.delete(old);
    if (this.deleted) {
      await store.delete(this.id);
      response.addCookie(`${SESSION_COOKIE}=; Max-Age=0; ${COOKIE_ATTRIBUTES}`);
      return;
    }
    if (Object.keys(this.data).length === 0) {
      // Nothing worth keeping (docs/runtime.md "Sessions"): a new session is never stored, and a stored one that
      // became empty (its flash read) is deleted from the store. Its cookie stays: the forms of the visitor's open
      // pages carry the anonymous token of that id, and an id the store does not know is an anonymous visitor's.
      if (this.loaded) {
        await store.delete(this.id);
      } else if (this.issueCookie && this.tokenBound) {
        response.addCookie(sessionCookie(this.id));
      }
      return;
    }
    if (this.dirty) {
      if (!this.loaded) await store.set(this.id, this.data);
      else if (!(await store.update(this.id, this.data))) {
        this.deleted = true;
        this.data = {};
        return;
      }
    }
    if (this.issueCookie) response.addCookie(sessionCookie(this.id));
  }
}

/** The `Set-Cookie` value for a session id. */
export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; ${COOKIE_ATTRIBUTES}`;
}

/** The session id sent by the client, when well-formed. */
export function getSessionId(request: Request): string | undefined {
  const id = request.cookies[SESSION_COOKIE];
  return isValidSessionId(id) ? id : undefined;
}

/** Loads the client's session into the request (once). Called by the Application before the handler. */
export async function loadRequestSession(request: Request): Promise<RequestSession | undefined> {
  if (request.state.session) return request.state.session as RequestSession;
  const id = getSessionId(request);
  if (!id) return undefined;
  const data = await getSessionStore().get(id);
  if (!data) return undefined;
  const session = new RequestSession(id, data, 'loaded');
  request.state.session = session;
  return session;
}

/**
 * The request's session, created on first need. Its id is the client's `session_id` when well-formed but not
 * stored (an anonymous visitor's id, so that the CSRF tokens of its open pages stay valid), else a new id sent as
 * a cookie with the response. Signing in and starting a second-factor challenge rotate it (docs/auth.md).
 */
export function requestSession(request: Request): RequestSession {
  let session = request.state.session as RequestSession | undefined;
  if (!session) {
    const sent = getSessionId(request);
    session = sent ? new RequestSession(sent, {}, 'adopted') : new RequestSession(newSessionId(), {}, 'new');
    request.state.session = session;
  }
  return session;
}

/**
 * The id an anonymous CSRF token is derived from (docs/runtime.md "CSRF"): the request's session id (the
 * client's, or a new one then sent as `session_id` with the response even though nothing is stored). A session
 * ended during the request is replaced by a new anonymous one.
 */
export function tokenSessionId(request: Request): string {
  const session = requestSession(request);
  if (session.deleted) session.restartAnonymous();
  session.tokenBound = true;
  return session.id;
}

/** The request's session if one exists, without creating one. */
export function existingSession(request: Request): RequestSession | undefined {
  return request.state.session as RequestSession | undefined;
}

export function isAuthenticated(request: Request): boolean {
  return Boolean(existingSession(request)?.get('user'));
}

export function getUser(request: Request): Record<string, unknown> | undefined {
  return existingSession(request)?.get<Record<string, unknown>>('user');
}

export function userHasRole(request: Request, role: string): boolean {
  const roles = getUser(request)?.roles;
  return Array.isArray(roles) && roles.includes(role);
}

/** True when the session user holds the permission (in `user.permissions`) or the `admin` role. */
export function userCan(request: Request | undefined, permission: string): boolean {
  if (!request) return false;
  const user = getUser(request);
  if (!user) return false;
  const permissions = user.permissions;
  if (Array.isArray(permissions) && permissions.includes(permission)) return true;
  const roles = user.roles;
  return Array.isArray(roles) && roles.includes('admin');
}

/** Stores a flash on the request's session (created when needed). */
export function setRequestFlash(request: Request, message: string, level = 'success'): void {
  requestSession(request).set(FLASH_KEY, { message, level: normalizeLevel(level) });
}

/** Reads and consumes the request's flash, without creating a session. */
export function takeRequestFlash(request: Request): Flash | undefined {
  const session = existingSession(request);
  const flash = session?.get<Flash>(FLASH_KEY);
  if (flash) session!.remove(FLASH_KEY);
  return flash;
}
