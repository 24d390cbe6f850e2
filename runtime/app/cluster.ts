/**
 * Several processes on one port (docs/deploy.md "Several processes"): with `WEB_CONCURRENCY=N` (or serve()'s
 * `workers`), the process started by `node dist/app.js` becomes a primary that forks N workers with node:cluster;
 * each worker runs the same entry point and serves as a single process would. The primary:
 * - replaces a worker that dies, waiting longer after each crash in a row (a crash loop does not spin);
 * - on SIGTERM/SIGINT, has every worker stop accepting, finish its requests in flight, stop its background jobs and
 *   close its pools, within a bounded time, then exits (docs/deploy.md "Stopping: SIGTERM");
 * - replaces a worker whose event loop has not answered its heartbeat for WORKER_TIMEOUT (docs/deploy.md "Frozen
 *   workers");
 * - on SIGHUP, restarts the workers one at a time, each replacement listening before the old one stops: a new
 *   build is served with no connection refused (the primary holds the listening socket throughout); under a
 *   release layout (APP_DIR, a `current` symlink) it first re-enters that folder, so that the workers it forks run
 *   the release the symlink now names (followRelease, docs/deploy.md "Releases").
 * State kept in a process (the memory session store, the memory limit store) would be split between workers:
 * with N > 1 they are refused before anything starts (stores.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import { getLogger } from '../logger.js';
import { entryInProject, followRelease } from './cluster-release.js';

const log = getLogger('fw.cluster');

/** Milliseconds a worker has to finish its requests on SIGTERM before the primary kills it. */
export const WORKER_STOP_MS = 15_000;
/** The longest wait before replacing a worker that keeps crashing. */
const MAX_BACKOFF_MS = 10_000;
/** A worker alive this long before it dies ends a run of crashes: the next replacement is immediate again. */
const STABLE_MS = 30_000;

/**
 * The number of processes: `value` (serve()'s `workers`), else WEB_CONCURRENCY, else 1; `auto` is the number of
 * cores. Anything but a whole number of at least 1 or `auto` throws.
 */
export function webConcurrency(value: number | string | undefined = process.env.WEB_CONCURRENCY): number {
  const text = typeof value === 'number' ? String(value) : (value ?? '').trim().toLowerCase();
  if (text === '') return 1;
  if (text === 'auto') return os.availableParallelism();
  if (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 1024) return Number(text);
  throw new Error(`WEB_CONCURRENCY vaut « ${String(value)} » : un nombre de processus (1 à 1024) ou « auto » (un par cœur).`);
}

/**
 * Milliseconds a worker's event loop may stay silent before the primary replaces it: WORKER_TIMEOUT in seconds
 * (default 30, as gunicorn's `--timeout`; `0` turns the heartbeat off). Anything but a number of seconds throws.
 */
export function workerTimeoutMs(value: string | undefined = process.env.WORKER_TIMEOUT): number {
  const text = (value ?? '').trim();
  if (text === '') return 30_000;
  if (/^\d+(\.\d+)?$/.test(text) && Number(text) <= 86_400) return Math.round(Number(text) * 1000);
  throw new Error(`WORKER_TIMEOUT vaut « ${value} » : un nombre de secondes (30 par défaut, 0 pour ne pas surveiller les processus).`);
}

export interface PrimaryOptions {
  workers: number;
  /** workerTimeoutMs(): a serving worker silent this long is killed and replaced; 0: never. */
  timeoutMs: number;
  /** Print the listening address once every worker listens. */
  announce: boolean;
  /** How to print it (the worker's address). */
  announceLine: (address: { address: string; port: number }) => string;
}

/** Runs the primary: forks the workers and supervises them until SIGTERM/SIGINT; resolves once they listen. */
export function runPrimary(options: PrimaryOptions): Promise<void> {
  const supervisor = new Supervisor(options);
  return supervisor.start();
}

/**
 * Keeps exactly `workers` processes serving. One loop (reconcile) does every change, one at a time, so that a
 * signal or a crash during a change never adds a process: a SIGHUP marks the processes serving as stale and the
 * loop replaces them one by one (a new one listens, then a stale one stops); a process that dies is replaced only
 * while fewer than `workers` serve; one too many (there should be none) is stopped.
 */
class Supervisor {
  /** The workers serving or starting (not asked to stop). */
  private readonly serving = new Set<Worker>();
  /** Workers asked to stop (a rolling restart or the shutdown): their exit is expected. */
  private readonly retiring = new Set<Worker>();
  /** Serving workers a SIGHUP asked to replace. */
  private readonly stale = new Set<Worker>();
  /** During the shutdown: workers whose listener is closed, waiting for the others' (listenerClosed). */
  private readonly closedListeners = new Set<Worker>();
  private crashes = 0;
  /** When the next replacement of a crashed worker may start (the crash back-off). */
  private nextForkAt = 0;
  private stopping = false;
  /** A SIGHUP's restart is under way (its end is logged once). */
  private restarting = false;
  private reconciling = false;
  /** Something changed while the loop ran: it looks again before it ends. */
  private again = false;
  private address: { address: string; port: number } | undefined;

  /** The entry point relative to the folder the primary started in (`dist/app.js`), for followRelease. */
  private readonly entry = entryInProject();

  constructor(private readonly options: PrimaryOptions) {}

  start(): Promise<void> {
    // The workers accept connections themselves from the socket the primary shares with them, rather than the
    // primary accepting each and handing it over (round robin): on 2 cores that hand-off costs the primary a
    // share of a core. The socket stays open in the primary, so a worker that stops refuses nothing.
    if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
    process.on('SIGTERM', () => this.stop('SIGTERM'));
    process.on('SIGINT', () => this.stop('SIGINT'));
    process.on('SIGHUP', () => this.hangup());
    cluster.on('exit', (worker, code, signal) => this.exited(worker, code, signal));
    if (this.options.timeoutMs > 0) this.heartbeat();
    const started = Array.from({ length: this.options.workers }, () => this.listening(this.fork()));
    // Announced once every worker listens: the address printed means the whole pool serves.
    return Promise.all(started).then(() => {
      if (this.options.announce && this.address) process.stdout.write(this.options.announceLine(this.address));
    });
  }

  private fork(): Worker {
    const worker = cluster.fork();
    started.set(worker, Date.now());
    worker.on('message', (message: unknown) => {
      const kind = (message as { fw?: unknown })?.fw;
      if (kind === STOP_PING) this.listenerClosed(worker);
      else if (kind === HEARTBEAT_PONG) answered.set(worker, Date.now());
    });
    this.serving.add(worker);
    worker.once('listening', (address) => {
      this.address ??= { address: String(address.address ?? ''), port: address.port };
      answered.set(worker, Date.now());
    });
    return worker;
  }

  /** Resolves when the worker listens, rejects when it exits first. */
  private listening(worker: Worker): Promise<void> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null, signal: string | null): void =>
        reject(new Error(`le processus ${worker.process.pid} s'est arrêté avant d'écouter (${signal ?? `code ${code}`})`));
      worker.once('exit', onExit);
      worker.once('listening', () => {
        worker.off('exit', onExit);
        resolve();
      });
    });
  }

  /**
   * A worker has closed its listener (primaryHandoffsDone). During a rolling restart the others still accept: it is
   * answered at once. During the shutdown, the answer waits until every worker has closed its own: the socket they
   * share is then closed (node:cluster closes the primary's copy with the last one), new connections are refused,
   * and no worker has yet told a client to open a new one (`Connection: close`) that would be queued and reset.
   */
  private listenerClosed(worker: Worker): void {
    if (!this.stopping) {
      worker.send({ fw: STOP_ACK }, () => undefined);
      return;
    }
    this.closedListeners.add(worker);
    this.answerClosedListeners();
  }

  private answerClosedListeners(): void {
    const alive = [...this.serving, ...this.retiring].filter((worker) => !worker.isDead());
    if (!alive.every((worker) => this.closedListeners.has(worker))) return;
    for (const worker of this.closedListeners) if (worker.isConnected()) worker.send({ fw: STOP_ACK }, () => undefined);
    this.closedListeners.clear();
  }

  private exited(worker: Worker, code: number | null, signal: string | null): void {
    this.serving.delete(worker);
    this.stale.delete(worker);
    this.closedListeners.delete(worker);
    if (this.stopping) this.answerClosedListeners();
    if (this.retiring.delete(worker) || this.stopping) {
      if (this.stopping && this.serving.size === 0 && this.retiring.size === 0) process.exit(0);
      return;
    }
    const lived = Date.now() - (started.get(worker) ?? 0);
    this.crashes = lived > STABLE_MS ? 1 : this.crashes + 1;
    const delay = this.crashes <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, 100 * 2 ** (this.crashes - 1));
    this.nextForkAt = Date.now() + delay;
    const replaced = this.serving.size < this.options.workers;
    for (const listener of restartListeners) listener(timedOut.has(worker) ? 'timeout' : 'exit');
    log.error(`Processus ${worker.process.pid} arrêté (${signal ?? `code ${code}`})${replaced ? ` : remplacé${delay ? ` dans ${delay} ms` : ''}` : ''}.`);
    void this.reconcile();
  }

  /**
   * Every interval, each serving worker that listens is asked for a pong, which its event loop sends: one whose
   * last pong is older than `timeoutMs` (a handler that computes without end, a stuck loop) is killed (SIGKILL, its
   * requests in flight cannot be answered anyway) and replaced as a crashed one. docs/deploy.md "Frozen workers".
   */
  private heartbeat(): void {
    const timeout = this.options.timeoutMs;
    const interval = Math.max(50, Math.min(5000, Math.round(timeout / 6)));
    const timer = setInterval(() => {
      const now = Date.now();
      for (const worker of this.serving) {
        const last = answered.get(worker);
        if (last === undefined || worker.isDead() || !worker.isConnected()) continue;
        if (now - last > timeout) {
          log.error(`Processus ${worker.process.pid} sans réponse depuis ${Math.round((now - last) / 1000)} s (WORKER_TIMEOUT=${timeout / 1000}) : arrêté.`);
          answered.delete(worker);
          timedOut.add(worker);
          worker.process.kill('SIGKILL');
          continue;
        }
        worker.send({ fw: HEARTBEAT_PING }, () => undefined);
      }
    }, interval);
    timer.unref();
  }

  /** SIGHUP: every worker serving now (those a restart in progress started included) is to be replaced. */
  private hangup(): void {
    if (this.stopping) return;
    const rolling = this.restarting;
    this.restarting = true;
    for (const worker of this.serving) this.stale.add(worker);
    followRelease(this.entry);
    log.info(
      rolling
        ? `SIGHUP reçu pendant un redémarrage : les ${this.serving.size} processus seront tous remplacés.`
        : `SIGHUP reçu : redémarrage des ${this.serving.size} processus un par un.`,
    );
    void this.reconcile();
  }

  /** Runs the loop, or has the running one look again. */
  private async reconcile(): Promise<void> {
    if (this.reconciling) {
      this.again = true;
      return;
    }
    this.reconciling = true;
    try {
      do {
        this.again = false;
        while (!this.stopping && (await this.step()));
      } while (this.again && !this.stopping);
    } finally {
      this.reconciling = false;
    }
  }

  /** One change towards `workers` fresh workers serving; false when there is nothing to do. */
  private async step(): Promise<boolean> {
    const wanted = this.options.workers;
    if (this.serving.size < wanted) {
      // A crashed worker's replacement, after the back-off.
      const wait = this.nextForkAt - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.stopping || this.serving.size >= wanted) return true;
      await this.listening(this.fork()).catch(() => undefined);
      return true;
    }
    const stale = [...this.stale].find((worker) => this.serving.has(worker));
    if (stale && this.serving.size === wanted) {
      // The new one listens before a stale one stops: the pool never serves with fewer than `wanted`.
      try {
        await this.listening(this.fork());
      } catch (error) {
        if (this.stopping) return false;
        log.error(`Redémarrage interrompu : ${(error as Error).message} ; les processus en place continuent.`);
        this.stale.clear();
        this.restarting = false;
      }
      return true;
    }
    if (this.serving.size > wanted) {
      // A stale worker first, else the most recent one.
      await this.retire(stale ?? [...this.serving].at(-1)!);
      return true;
    }
    // Nothing left to change: a restart under way has replaced every worker (or they were replaced after a crash).
    if (this.restarting) {
      this.restarting = false;
      log.info(`Redémarrage terminé : ${this.serving.size} processus.`);
    }
    return false;
  }

  /** Asks a worker to finish its requests and stop; kills it past WORKER_STOP_MS. Resolves when it has exited. */
  private retire(worker: Worker): Promise<void> {
    this.retiring.add(worker);
    this.serving.delete(worker);
    this.stale.delete(worker);
    return new Promise((resolve) => {
      if (worker.isDead()) return resolve();
      const timer = setTimeout(() => worker.process.kill('SIGKILL'), WORKER_STOP_MS);
      timer.unref();
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.process.kill('SIGTERM');
    });
  }

  private stop(signal: NodeJS.Signals): void {
    if (this.stopping) return;
    this.stopping = true;
    log.info(`${signal} reçu : arrêt des processus après leurs requêtes en cours.`);
    const all = [...this.serving, ...this.retiring];
    if (all.length === 0) process.exit(0);
    void Promise.all(all.map((worker) => this.retire(worker))).then(() => process.exit(0));
  }
}

/**
 * In a worker, from the moment the runtime is loaded: SIGHUP is the primary's (a rolling restart). A signal sent
 * to the whole group (`kill -HUP -PGID`, `systemctl kill -s HUP`, which signals every process of the unit) would
 * otherwise end the worker at once, its requests in flight cut; it is ignored, and the primary replaces the worker
 * as part of its restart.
 */
if (cluster.isWorker) process.on('SIGHUP', () => undefined);

const STOP_PING = 'stopping';
const STOP_ACK = 'stopping-ack';
const HEARTBEAT_PING = 'ping';
const HEARTBEAT_PONG = 'pong';

/** In a worker: the event loop answers the primary's heartbeat (a loop that stops turning stops answering). */
if (cluster.isWorker) {
  process.on('message', (message: unknown) => {
    if ((message as { fw?: unknown })?.fw === HEARTBEAT_PING && process.connected) process.send!({ fw: HEARTBEAT_PONG }, undefined, {}, () => undefined);
  });
}

/** When each worker last answered the heartbeat (or began to listen). */
const answered = new WeakMap<Worker, number>();

/**
 * In a worker whose listener is closed: resolves once the primary has answered a message sent after the close
 * (listenerClosed in the Supervisor). Under a rolling restart the answer comes at once; under the shutdown, once
 * every worker has closed its listener, so that the shared socket is closed and nothing can be queued on it any
 * more. With the round-robin policy the primary also hands each new connection over the IPC channel, which keeps
 * the order: one sent just before the primary learned of the close is refused by node:cluster and goes to another
 * worker, which needs this worker still there. Bounded (2 s); elsewhere: at once.
 */
export function primaryHandoffsDone(): Promise<void> {
  if (!cluster.isWorker || !process.send) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, 2000);
    function done(): void {
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve();
    }
    function onMessage(message: unknown): void {
      if ((message as { fw?: unknown })?.fw === STOP_ACK) done();
    }
    process.on('message', onMessage);
    process.send!({ fw: STOP_PING });
  });
}

/** Workers the heartbeat killed; told to the restart listeners. */
const timedOut = new WeakSet<Worker>();
const restartListeners: Array<(reason: 'exit' | 'timeout') => void> = [];

/** In the primary: `listener` hears of each worker that stopped unasked (`exit`) or was killed by the heartbeat (`timeout`). */
export function onWorkerRestart(listener: (reason: 'exit' | 'timeout') => void): void {
  restartListeners.push(listener);
}

/** When each worker was forked (for the crash back-off). */
const started = new WeakMap<Worker, number>();
