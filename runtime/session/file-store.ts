/**
 * Sessions as JSON files, one per session (docs/decisions.md#session-stores, docs/runtime.md "Sessions"): they survive a
 * restart and are shared by the processes of one machine that use the same folder.
 *
 * - A file is named by `sessionKey(id)`, the hash of the session id keyed by the app secret (`<hash>.json`): the cookie value is never on disk.
 * - Files are written whole to a temporary file of the same folder (`.<hash>.<random>.tmp`, mode 0600), then
 *   renamed over the old one. A rename is atomic: a reader sees the old file or the new one, never a mix, and
 *   concurrent writes of one session end with one of them whole (the last renamed wins).
 * - A file that cannot be read or parsed is no session, and is removed.
 * - Expiry is UTC, sliding: see `expiryIsDue` (a read rewrites the file at most once per tenth of the TTL).
 */
import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { get, getPath } from '../config.js';
import { getLogger } from '../logger.js';
import { checkedTtl, expiryIsDue, newSessionId, sessionKey, sessionUserId, userIdKey, type SessionData, type SessionStore } from './store.js';

const log = getLogger('fw.session');

/** A session file: `<64 hex>.json`. */
const SESSION_FILE = /^([0-9a-f]{64})\.json$/;
/** A temporary file of a write in progress (or left by a process that died mid-write). */
const TEMP_FILE = /^\.[0-9a-f]{64}\.[0-9a-f]+\.tmp$/;
/** A temporary file older than this is a leftover: purge() removes it. */
const TEMP_MAX_AGE_MS = 3_600_000;
const PURGE_INTERVAL_MS = 60_000;

export interface FileSessionStoreOptions {
  /** The folder; relative to `project_root`. Default: `session_dir` (storage/sessions). */
  readonly dir?: string;
  /** Seconds a session lives without use. Default: `session_ttl` (3600). */
  readonly ttlSeconds?: number;
  /** The clock, in milliseconds (tests). */
  readonly now?: () => number;
}

/** What a session file holds. Dates are ISO 8601 in UTC. */
interface SessionRecord {
  data: SessionData;
  user_id: string | null;
  created_at: string;
  expires_at: string;
}

/** One read of a session file: its record (null when corrupt) and the identity of the file that was read. */
interface FileRead {
  readonly record: SessionRecord | null;
  readonly expiresAt: number;
  readonly stat: BigIntStats;
}

export class FileSessionStore implements SessionStore {
  readonly dir: string;
  readonly ttlSeconds: number;
  private readonly now: () => number;
  private ready: Promise<void> | undefined;
  private lastPurge: number;
  private purging: Promise<unknown> = Promise.resolve();

  constructor(options: FileSessionStoreOptions = {}) {
    this.dir = options.dir === undefined ? getPath('session_dir') : path.resolve(get('project_root'), options.dir);
    this.ttlSeconds = checkedTtl(options.ttlSeconds ?? get('session_ttl'), options.ttlSeconds === undefined ? 'session_ttl' : 'ttlSeconds');
    this.now = options.now ?? Date.now;
    this.lastPurge = this.now();
  }

  async create(data: SessionData = {}): Promise<string> {
    this.purgeInBackgroundIfDue();
    const id = newSessionId();
    await this.write(sessionKey(id), data, this.now());
    return id;
  }

  async get(id: string): Promise<SessionData | null> {
    const key = sessionKey(id);
    const read = await this.read(key);
    if (!read) return null;
    if (!read.record) {
      await this.removeIfUnchanged(key, read.stat);
      return null;
    }
    const now = this.now();
    if (read.expiresAt <= now) {
      await this.removeIfUnchanged(key, read.stat);
      return null;
    }
    const ttlMs = this.ttlSeconds * 1000;
    if (expiryIsDue(read.expiresAt, now, ttlMs)) {
      await this.write(key, read.record.data, Date.parse(read.record.created_at), read.stat);
    }
    return read.record.data;
  }

  async set(id: string, data: SessionData): Promise<void> {
    this.purgeInBackgroundIfDue();
    const key = sessionKey(id);
    const existing = await this.read(key);
    const live = existing?.record && existing.expiresAt > this.now();
    await this.write(key, data, live ? Date.parse(existing.record.created_at) : this.now());
  }

  /**
   * Rewrites a live session's file, never creating one. The file's presence is checked again just before the
   * rename: a removal (logout, deleteUser) that lands between that check and the rename is the one window left,
   * a few system calls wide.
   */
  async update(id: string, data: SessionData): Promise<boolean> {
    this.purgeInBackgroundIfDue();
    const key = sessionKey(id);
    const existing = await this.read(key);
    if (!existing) return false;
    if (!existing.record || existing.expiresAt <= this.now()) {
      await this.removeIfUnchanged(key, existing.stat);
      return false;
    }
    return this.write(key, data, Date.parse(existing.record.created_at), undefined, true);
  }

  async delete(id: string): Promise<void> {
    await removeFile(this.fileOf(sessionKey(id)));
  }

  /** The new session is written before the old one is removed: a crash in between leaves two, never none. */
  async regenerate(oldId: string): Promise<string> {
    const data = (await this.get(oldId)) ?? {};
    const next = await this.create(data);
    await this.delete(oldId);
    return next;
  }

  /**
   * Reads every session file of the folder (a rare operation: a user disabled, a password changed). A file of
   * the user is removed even if it was rewritten since it was read: better a session too many ended than one
   * left to a disabled user.
   */
  async deleteUser(userId: string | number): Promise<number> {
    const wanted = userIdKey(userId);
    let deleted = 0;
    for (const key of await this.sessionKeys()) {
      const read = await this.read(key);
      if (read?.record?.user_id === wanted && (await removeFile(this.fileOf(key)))) deleted++;
    }
    return deleted;
  }

  /**
   * Removes the expired session files and the unreadable ones (both counted), and temporary files left for more
   * than an hour by a process that died mid-write (not counted). Reads every file: it runs at most once a
   * minute on its own, in the background of create() and set().
   */
  async purge(): Promise<number> {
    this.lastPurge = this.now();
    let removed = 0;
    for (const name of await this.names()) {
      if (TEMP_FILE.test(name)) {
        const stat = await fs.stat(path.join(this.dir, name)).catch(() => null);
        if (stat && this.now() - stat.mtimeMs > TEMP_MAX_AGE_MS) await removeFile(path.join(this.dir, name));
        continue;
      }
      const key = SESSION_FILE.exec(name)?.[1];
      if (!key) continue;
      const read = await this.read(key);
      if (read && (!read.record || read.expiresAt <= this.now()) && (await this.removeIfUnchanged(key, read.stat))) removed++;
    }
    return removed;
  }

  /** Resolves once the background purge in progress, if any, is over (tests, graceful stop). */
  async whenIdle(): Promise<void> {
    await this.purging;
  }

  private purgeInBackgroundIfDue(): void {
    if (this.now() - this.lastPurge <= PURGE_INTERVAL_MS) return;
    this.lastPurge = this.now();
    this.purging = this.purging
      .then(() => this.purge())
      .catch((error: unknown) => log.warning(`Purge des sessions expirées de ${this.dir} impossible : ${(error as Error).message}`));
  }

  private fileOf(key: string): string {
    return path.join(this.dir, `${key}.json`);
  }

  /** The file of a session, or null when there is none. An unreadable or malformed file gives `record: null`. */
  private async read(key: string): Promise<FileRead | null> {
    const file = this.fileOf(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      // Unreadable (permissions): no session; removing it, when the folder allows, frees the name.
      await removeFile(file).catch(() => false);
      return null;
    }
    try {
      const stat = await handle.stat({ bigint: true });
      const record = parseRecord(await handle.readFile('utf8').catch(() => ''));
      return { record, expiresAt: record ? Date.parse(record.expires_at) : NaN, stat };
    } finally {
      await handle.close();
    }
  }

  /**
   * Writes a session whole: a temporary file, then a rename over the session's file. With `unlessChangedFrom`
   * (a read's stat), the rename happens only when the file is still the one that was read, so that pushing the
   * expiry back never overwrites the data of a write that came in meanwhile. With `onlyIfPresent`, the rename
   * happens only when the session's file still exists. Returns whether the file was written.
   */
  private async write(key: string, data: SessionData, createdAt: number, unlessChangedFrom?: BigIntStats, onlyIfPresent = false): Promise<boolean> {
    const now = this.now();
    const record: SessionRecord = {
      data,
      user_id: sessionUserId(data),
      created_at: new Date(createdAt).toISOString(),
      expires_at: new Date(now + this.ttlSeconds * 1000).toISOString(),
    };
    const text = JSON.stringify(record);
    const temp = path.join(this.dir, `.${key}.${randomBytes(8).toString('hex')}.tmp`);
    await this.writeTemp(temp, text);
    try {
      const skip = unlessChangedFrom
        ? !sameFile(await statOrNull(this.fileOf(key)), unlessChangedFrom)
        : onlyIfPresent && (await statOrNull(this.fileOf(key))) === null;
      if (skip) {
        await removeFile(temp);
        return false;
      }
      await fs.rename(temp, this.fileOf(key));
      return true;
    } catch (error) {
      await removeFile(temp);
      throw error;
    }
  }

  private async writeTemp(temp: string, text: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await this.ensureDir();
      try {
        await fs.writeFile(temp, text, { mode: 0o600, flag: 'wx' });
        return;
      } catch (error) {
        // The folder was removed while the store was running: make it again, once.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 0) throw this.folderError(error);
        this.ready = undefined;
      }
    }
  }

  /**
   * Creates the folder, mode 0700, on first use. A folder that exists already (made by `fw new`, a checkout, a
   * deployment script) is brought to 0700 when it lets its group or others in: session files are 0600 and their
   * names are hashes, but a readable folder still shows how many sessions there are and when each was last used.
   * A folder this process does not own keeps its mode, with a warning.
   */
  private ensureDir(): Promise<void> {
    this.ready ??= fs.mkdir(this.dir, { recursive: true, mode: 0o700 }).then(
      () => this.restrictDir(),
      (error: unknown) => {
        this.ready = undefined;
        throw this.folderError(error);
      },
    );
    return this.ready;
  }

  private async restrictDir(): Promise<void> {
    const stats = await fs.stat(this.dir);
    if ((stats.mode & 0o077) === 0) return;
    try {
      await fs.chmod(this.dir, 0o700);
    } catch (error) {
      log.warning(
        `Le dossier des sessions ${this.dir} est lisible par d'autres (mode ${(stats.mode & 0o777).toString(8)}) et ses droits ne peuvent être réduits (${(error as Error).message}) : faites « chmod 700 ${this.dir} ».`,
      );
    }
  }

  private folderError(error: unknown): Error {
    const detail = (error as Error).message;
    return new Error(`Écriture impossible dans le dossier des sessions ${this.dir} (${detail}) ; vérifiez ses droits, ou changez session_dir.`, {
      cause: error,
    });
  }

  /** Removes a session file only if it is still the one read (a write in between made a new file). */
  private async removeIfUnchanged(key: string, read: BigIntStats): Promise<boolean> {
    const file = this.fileOf(key);
    if (!sameFile(await statOrNull(file), read)) return false;
    // Something that cannot be unlinked (a folder in its place) stays; it is no session all the same.
    return removeFile(file).catch(() => false);
  }

  private async names(): Promise<string[]> {
    try {
      return await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  private async sessionKeys(): Promise<string[]> {
    return (await this.names()).flatMap((name) => SESSION_FILE.exec(name)?.[1] ?? []);
  }
}

/** The record of a file's text, or null when it is not one (truncated, edited, another format). */
function parseRecord(text: string): SessionRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || !isObject(value.data)) return null;
  if (typeof value.expires_at !== 'string' || !Number.isFinite(Date.parse(value.expires_at))) return null;
  if (typeof value.created_at !== 'string' || !Number.isFinite(Date.parse(value.created_at))) return null;
  if (value.user_id !== null && typeof value.user_id !== 'string') return null;
  return value as unknown as SessionRecord;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function statOrNull(file: string): Promise<BigIntStats | null> {
  return fs.stat(file, { bigint: true }).catch(() => null);
}

/** The same file as when it was read: same inode, same modification time, same size. */
function sameFile(now: BigIntStats | null, then: BigIntStats): boolean {
  return now !== null && now.ino === then.ino && now.mtimeNs === then.mtimeNs && now.size === then.size;
}

/** Unlinks a file; true when it was removed, false when it was already gone. */
async function removeFile(file: string): Promise<boolean> {
  try {
    await fs.unlink(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
