/**
 * The Redis connection shared by the Redis session store and the Redis attempt-limit store (docs/deploy.md
 * "Several processes"): one client per process for `redis_url` / `REDIS_URL`, the `redis` package loaded on
 * first use only. While Redis cannot be reached, commands fail at once (no queue that would hold requests) with a
 * RedisUnavailableError, which the application answers 503 with `Retry-After`, as an unavailable database; the
 * client reconnects on its own, so service comes back without a restart.
 */
import { createHash } from 'node:crypto';
import { get } from '../config.js';
import { DatabaseUnavailableError } from '../db/errors.js';
import { RepeatedLog, getLogger, outsideRequest } from '../logger.js';

/** The client's errors: once per cause and interval, whatever the number of clients that meet it. */
const log = new RepeatedLog(getLogger('fw.redis'));

/** Redis cannot be used right now (refused, cut, timed out): a 503, like a database that cannot be reached. */
export class RedisUnavailableError extends DatabaseUnavailableError {
  constructor(target: string, cause: unknown) {
    super(
      'unreachable',
      `Redis injoignable sur ${target} (${(cause as Error)?.message ?? String(cause)}).`,
      'vérifiez que le serveur Redis tourne et REDIS_URL.',
      { cause },
    );
  }
}

/** The few commands the stores use, as the `redis` package's client offers them. */
export interface RedisCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  del(keys: string[]): Promise<number>;
  scanIterator?(options: { MATCH: string; COUNT?: number }): AsyncIterable<string[]>;
}

interface OpenClient extends RedisCommands {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  destroy(): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** The URL to connect to: `redis_url`, else REDIS_URL, else redis://127.0.0.1:6379. */
export function redisUrl(): string {
  const configured = get('redis_url');
  if (typeof configured === 'string' && configured.trim() !== '') return configured.trim();
  const fromEnv = process.env.REDIS_URL?.trim();
  return fromEnv ? fromEnv : 'redis://127.0.0.1:6379';
}

/**
 * `url` when the `redis` client can read it: `redis://` (or `rediss://`, TLS), a host, a port, a database number
 * (`redis://127.0.0.1:6379/0`); anything else throws, naming `source` and the value (its password hidden). Checked
 * when the server starts with a Redis store (runtime/app/stores.ts) and by `fw doctor` (FW-ENV-006), since the
 * client would refuse it at every request (503).
 */
export function checkedRedisUrl(url: string = redisUrl(), source = redisUrlSource()): string {
  let parsed: URL | null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (parsed && (parsed.protocol === 'redis:' || parsed.protocol === 'rediss:') && /^(\/\d*)?$/.test(parsed.pathname)) return url;
  const shown = url.replace(/(\/\/[^/@]*?:)[^/@]*@/, '$1***@');
  throw new Error(`${source} vaut « ${shown} » : une adresse Redis redis://hôte:port/base (rediss:// pour TLS), par exemple redis://127.0.0.1:6379/0.`);
}

/** Where redisUrl() reads its value: `redis_url` when set, else REDIS_URL. */
function redisUrlSource(): string {
  const configured = get('redis_url');
  return typeof configured === 'string' && configured.trim() !== '' ? 'redis_url' : 'REDIS_URL';
}

/** The key prefix when none is set (`fw doctor` warns about it: FW-ENV-006). */
export const DEFAULT_REDIS_PREFIX = 'fw:';

/** The prefix of every key the stores write: `redis_prefix`, else REDIS_PREFIX, else `fw:`. */
export function redisPrefix(): string {
  const configured = get('redis_prefix');
  if (typeof configured === 'string' && configured !== '') return configured;
  return process.env.REDIS_PREFIX || DEFAULT_REDIS_PREFIX;
}

/** The URL without its password, for messages. */
export function redisTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'REDIS_URL illisible';
  }
}

/** A connection to one Redis server; `run()` turns any failure to reach it into a RedisUnavailableError. */
export class RedisConnection {
  readonly target: string;
  #client: OpenClient | null = null;
  #connecting: Promise<OpenClient> | null = null;
  #closed = false;

  constructor(readonly url: string) {
    this.target = redisTarget(url);
  }

  /**
   * Runs `fn` on the connected client; Redis unreachable, cut mid-command or silent past `redis_timeout_ms`:
   * RedisUnavailableError. A silent server's connection is dropped, so that the next call starts a new one
   * rather than queue behind the stalled commands.
   */
  async run<T>(fn: (client: RedisCommands) => Promise<T>): Promise<T> {
    let client: OpenClient;
    try {
      client = await this.#ready();
    } catch (error) {
      throw new RedisUnavailableError(this.target, error);
    }
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(`pas de réponse en ${redisTimeoutMs()} ms`)), redisTimeoutMs());
    });
    try {
      return await Promise.race([fn(client), silent]);
    } catch (error) {
      if (isConnectionError(error) || error instanceof TimeoutError) {
        if (error instanceof TimeoutError) this.#drop(client);
        throw new RedisUnavailableError(this.target, error);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a Lua script by its SHA-1, sending its text only when Redis does not know it yet (NOSCRIPT). */
  async script(source: LuaScript, keys: string[], args: Array<string | number>): Promise<unknown> {
    const options = { keys, arguments: args.map(String) };
    return this.run(async (client) => {
      try {
        return await client.evalSha(source.sha, options);
      } catch (error) {
        if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
        return client.eval(source.text, options);
      }
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = null;
    this.#connecting = null;
    if (!client) return;
    try {
      if (client.isReady) await (client.close ?? client.quit)!.call(client);
      else client.destroy();
    } catch {
      client.destroy();
    }
  }

  async #ready(): Promise<OpenClient> {
    if (this.#closed) throw new Error('connexion Redis fermée');
    if (this.#client) {
      if (!this.#client.isReady) throw new Error('connexion en cours de rétablissement');
      return this.#client;
    }
    this.#connecting ??= this.#open().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  async #open(): Promise<OpenClient> {
    const { createClient } = await import('redis');
    let ready = false;
    const client = createClient({
      url: this.url,
      // No queue while disconnected: a request fails at once (503) rather than waiting for Redis to come back.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: redisTimeoutMs(),
        // The first connection fails at once (503; the next request tries again); once connected, the client
        // reconnects for ever, waiting longer each time up to 2 s: Redis back, the stores work again.
        reconnectStrategy: (retries: number, cause: Error) => (ready ? Math.min(50 * 2 ** Math.min(retries, 6), 2000) : cause),
      },
    }) as unknown as OpenClient;
    client.on('error', (error) => {
      // The client keeps reconnecting, and every request of an outage opens one that fails: once per interval.
      const message = (error as Error)?.message ?? String(error);
      // Not of the request whose call opened the connection: its line carries no request id.
      outsideRequest(() => log.warning(`${this.target} ${message}`, `Redis (${this.target}) : ${message}`));
    });
    client.on('ready', () => {
      ready = true;
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      // Bounded: a server that accepts the connection and never answers does not hold the request.
      await Promise.race([
        client.connect(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new TimeoutError(`pas de réponse en ${redisTimeoutMs()} ms`)), redisTimeoutMs());
        }),
      ]);
    } catch (error) {
      client.destroy();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (this.#closed) {
      client.destroy();
      throw new Error('connexion Redis fermée');
    }
    this.#client = client;
    return client;
  }

  /** Forgets a client that stopped answering; the next call opens a new one. */
  #drop(client: OpenClient): void {
    if (this.#client === client) this.#client = null;
    try {
      client.destroy();
    } catch {
      // Already closed.
    }
  }
}

class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** Milliseconds Redis has to answer a command or accept a connection: `redis_timeout_ms` (default 2000). */
function redisTimeoutMs(): number {
  const value = Number(get('redis_timeout_ms'));
  return Number.isFinite(value) && value > 0 ? value : 2000;
}

function isConnectionError(error: unknown): boolean {
  const { name, message, code } = (error ?? {}) as { name?: unknown; message?: unknown; code?: unknown };
  if (typeof code === 'string' && /^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH)$/.test(code)) return true;
  return (
    name === 'ClientClosedError' ||
    name === 'ClientOfflineError' ||
    name === 'SocketClosedUnexpectedlyError' ||
    name === 'ConnectionTimeoutError' ||
    name === 'DisconnectsClientError' ||
    /closed|offline|disconnect/i.test(String(message ?? ''))
  );
}

/** A Lua script and its SHA-1 (EVALSHA). */
export interface LuaScript {
  readonly text: string;
  readonly sha: string;
}

export function lua(text: string): LuaScript {
  return { text, sha: createHash('sha1').update(text).digest('hex') };
}

const connections = new Map<string, RedisConnection>();

/** The connection of this process to `url` (default: redisUrl()), opened on first use. */
export function sharedRedis(url = redisUrl()): RedisConnection {
  let connection = connections.get(url);
  if (!connection) {
    connection = new RedisConnection(url);
    connections.set(url, connection);
  }
  return connection;
}

/** Closes every shared connection (the server's graceful stop). */
export async function closeSharedRedis(): Promise<void> {
  const open = [...connections.values()];
  connections.clear();
  await Promise.all(open.map((connection) => connection.close()));
}
