/** The session store contract (runtime spec, "Session") and the in-memory backend (DECISIONS §5). */
import { randomBytes } from 'node:crypto';

export type SessionData = Record<string, unknown>;

/** Operations every backend implements: create, get, set, delete, regenerate. */
export interface SessionStore {
  /** A new empty session; returns its id. */
  create(data?: SessionData): Promise<string>;
  /** The data of a live session, or null when unknown or expired. */
  get(id: string): Promise<SessionData | null>;
  /** Stores data under an id (creates the session when absent). */
  set(id: string, data: SessionData): Promise<void>;
  delete(id: string): Promise<void>;
  /** Copies the data to a new id and deletes the old one; returns the new id. */
  regenerate(oldId: string): Promise<string>;
}

/** A session id: 32 random bytes as 64 hexadecimal characters. */
export function newSessionId(): string {
  return randomBytes(32).toString('hex');
}

const ID_PATTERN = /^[0-9a-f]{64}$/;
export function isValidSessionId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

interface MemoryEntry {
  data: string;
  expiresAt: number;
}

/** In-process sessions, lost on restart; TTL 3600 s, sliding; expired sessions purged. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, MemoryEntry>();
  private lastPurge: number;

  constructor(readonly ttlSeconds = 3600, private readonly now: () => number = Date.now) {
    this.lastPurge = now();
  }

  async create(data: SessionData = {}): Promise<string> {
    this.purgeIfDue();
    const id = newSessionId();
    this.write(id, data);
    return id;
  }

  async get(id: string): Promise<SessionData | null> {
    const entry = this.sessions.get(id);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return null;
    }
    entry.expiresAt = this.now() + this.ttlSeconds * 1000;
    return JSON.parse(entry.data) as SessionData;
  }

  async set(id: string, data: SessionData): Promise<void> {
    this.purgeIfDue();
    this.write(id, data);
  }

  async delete(id: string): Promise<void> {
    this.sessions.delete(id);
  }

  async regenerate(oldId: string): Promise<string> {
    const data = (await this.get(oldId)) ?? {};
    this.sessions.delete(oldId);
    return this.create(data);
  }

  /** Number of live sessions (diagnostics and tests). */
  get size(): number {
    return this.sessions.size;
  }

  /** Removes every expired session. */
  purge(): void {
    const now = this.now();
    for (const [id, entry] of this.sessions) if (entry.expiresAt <= now) this.sessions.delete(id);
    this.lastPurge = now;
  }

  private purgeIfDue(): void {
    if (this.now() - this.lastPurge > 60_000) this.purge();
  }

  private write(id: string, data: SessionData): void {
    // Stored as JSON so that the memory store behaves like the file and database stores (no shared references).
    this.sessions.set(id, { data: JSON.stringify(data), expiresAt: this.now() + this.ttlSeconds * 1000 });
  }
}
