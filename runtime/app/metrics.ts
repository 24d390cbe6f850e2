/**
 * Prometheus metrics (docs/deploy.md "Metrics"), off unless METRICS_TOKEN or METRICS_PORT is set: prom-client is
 * then loaded by serve() before anything listens, and never otherwise (metrics off cost nothing, not even the
 * import). What is measured:
 * - each request's duration, by method, route pattern (`/produits/{id}`, never the raw path) and status, written
 *   by the server's tracing once the response is written (withMetrics);
 * - the database pools of the process (runtime/db/pool-usage.ts), and what a module registers with onMetrics (the
 *   mail outbox's queue, runtime/mail/index.ts);
 * - Node's own figures (prom-client's default metrics: CPU, memory, event loop, GC);
 * - in a cluster, the workers replaced by the primary (runtime/app/metrics-cluster.ts, which adds every worker's
 *   figures up).
 * Served as `GET /metrics` on the application's port with `Authorization: Bearer <METRICS_TOKEN>`, or on a port of
 * its own (METRICS_PORT, on METRICS_HOST, default 127.0.0.1), or both.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import type { RequestTracing } from '../http/server.js';
import { poolUsage } from '../db/pool-usage.js';
import { getLogger } from '../logger.js';
import { LIVENESS_PATH, READINESS_PATH } from './health.js';

type PromClient = typeof import('prom-client');
type Histogram = import('prom-client').Histogram<'method' | 'route' | 'status'>;
type Observer = ReturnType<Histogram['labels']>;

export const METRICS_PATH = '/metrics';
/** Request durations' buckets, in seconds: a page answered in 1 ms is told from one answered in 5. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** The methods counted by name; any other is `OTHER` (a client chooses the method: the labels stay bounded). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const log = getLogger('fw.metrics');

export interface MetricsSettings {
  /** The bearer token of `GET /metrics` on the application's port; null: not served there. */
  readonly token: string | null;
  /** A port of its own (the primary's in a cluster); null: none. */
  readonly port: number | null;
  readonly host: string;
}

/**
 * METRICS_TOKEN (24 characters at least, letters, digits and `-._~+/=`) and METRICS_PORT (1 to 65535) of the
 * environment; null when neither is set (metrics off). Anything else throws: the server does not start.
 */
export function metricsSettings(env: NodeJS.ProcessEnv = process.env): MetricsSettings | null {
  const token = env.METRICS_TOKEN?.trim() ?? '';
  const portText = env.METRICS_PORT?.trim() ?? '';
  if (token === '' && portText === '') return null;
  if (token !== '' && !/^[A-Za-z0-9._~+/=-]{24,}$/.test(token))
    throw new Error('METRICS_TOKEN : 24 caractères au moins (lettres, chiffres, « -._~+/= ») ; « openssl rand -hex 24 » en donne un.');
  if (portText !== '' && !(/^\d+$/.test(portText) && Number(portText) >= 1 && Number(portText) <= 65535))
    throw new Error(`METRICS_PORT vaut « ${portText} » : un port (1 à 65535), distinct de PORT.`);
  return { token: token === '' ? null : token, port: portText === '' ? null : Number(portText), host: env.METRICS_HOST?.trim() || '127.0.0.1' };
}

/** A gauge a module adds (onMetrics): its value(s) read at each scrape. */
export interface GaugeSource {
  readonly name: string;
  readonly help: string;
  /** How a cluster's workers' values combine: `max` for a figure they all read from one place (a table), `sum` for their own. */
  readonly aggregator: 'max' | 'sum';
  read(): Promise<number | null> | number | null;
}

const sources: GaugeSource[] = [];

/** Registers a gauge (a module does it when imported; it is created only if metrics are on). */
export function onMetrics(source: GaugeSource): void {
  sources.push(source);
  if (state) addGauge(state.client, source);
}

interface MetricsState {
  readonly client: PromClient;
  readonly settings: MetricsSettings;
  readonly duration: Histogram;
  /** One observer per method, route and status met (children of the histogram, looked up once). */
  readonly observers: Map<string, Observer>;
  /** The text of a scrape: this process's registry, or the cluster's sum (metrics-cluster.ts sets it in a worker). */
  scrape: () => Promise<string>;
}

let state: MetricsState | null = null;

/** The loaded client and settings, null when metrics are off (metrics-cluster.ts reads them). */
export function metricsState(): Pick<MetricsState, 'client' | 'settings'> | null {
  return state;
}

/** Loads prom-client and creates the metrics of this process, once; null (and nothing loaded) when metrics are off. */
export async function loadMetrics(settings: MetricsSettings | null = metricsSettings()): Promise<MetricsSettings | null> {
  if (state || !settings) return state?.settings ?? null;
  const client: PromClient = await import('prom-client');
  client.collectDefaultMetrics();
  const duration = new client.Histogram({
    name: 'fw_http_request_duration_seconds',
    help: 'Durée des requêtes, de la réception à la réponse écrite, par méthode, motif de route et statut (son _count compte les requêtes).',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
  });
  const pool = (name: string, help: string, read: (usage: ReturnType<typeof poolUsage>) => number): void => {
    new client.Gauge({
      name,
      help,
      collect() {
        this.set(read(poolUsage()));
      },
    });
  };
  pool('fw_db_pool_connections_max', 'Connexions que les pools de la base peuvent ouvrir (MariaDB ; 0 sous SQLite).', (usage) => usage.size);
  pool('fw_db_pool_connections_in_use', 'Connexions prêtées à une requête en ce moment.', (usage) => usage.inUse);
  pool('fw_db_pool_waiting', 'Demandes qui attendent une connexion libre.', (usage) => usage.waiting);
  state = { client, settings, duration, observers: new Map(), scrape: () => client.register.metrics() };
  for (const source of sources) addGauge(client, source);
  return settings;
}

function addGauge(client: PromClient, source: GaugeSource): void {
  new client.Gauge({
    name: source.name,
    help: source.help,
    aggregator: source.aggregator,
    async collect() {
      try {
        const value = await source.read();
        if (value === null) this.reset();
        else this.set(value);
      } catch (error) {
        // Left out of this scrape (an absent series is what an alert on it sees): the page of metrics still answers.
        this.reset();
        log.debug(`${source.name} non lue : ${(error as Error).message}`);
      }
    },
  });
}

/** Replaces how a scrape is answered (a cluster's worker asks its primary: metrics-cluster.ts). */
export function setScrape(scrape: () => Promise<string>): void {
  if (state) state.scrape = scrape;
}

/** The route label of a request: its route's pattern, else a family of paths answered before routing, else `unmatched`. */
export function routeLabel(request: Request): string {
  if (request.routePattern !== '') return request.routePattern;
  const path = request.path;
  if (path.startsWith('/static/')) return '/static/*';
  if (path.startsWith('/media/')) return '/media/*';
  if (path === LIVENESS_PATH || path === READINESS_PATH || path === METRICS_PATH || path === '/favicon.ico') return path;
  return 'unmatched';
}

/** The server's tracing, with each written response measured when metrics are on; `tracing` itself when off. */
export function withMetrics(tracing: RequestTracing): RequestTracing {
  const loaded = state;
  if (!loaded) return tracing;
  const { duration, observers } = loaded;
  return {
    idOf: (message) => tracing.idOf(message),
    run: (request, fn) => tracing.run(request, fn),
    written(request, status, bytes) {
      tracing.written(request, status, bytes);
      if (request.receivedAt === 0) return;
      const method = METHODS.has(request.originalMethod) ? request.originalMethod : 'OTHER';
      const route = routeLabel(request);
      const key = `${method} ${status} ${route}`;
      let observer = observers.get(key);
      if (!observer) {
        observer = duration.labels(method, route, String(status));
        observers.set(key, observer);
      }
      observer.observe((performance.now() - request.receivedAt) / 1000);
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** `Authorization: Bearer <token>`, compared in constant time. */
export function tokenAccepted(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/** The text of a scrape, with its content type; a failure (a worker that does not answer) is a 503. */
export async function scrapeResponse(): Promise<Response> {
  const loaded = state!;
  try {
    const text = await loaded.scrape();
    return new Response(200, text, loaded.client.register.contentType, { 'Cache-Control': 'no-store' });
  } catch (error) {
    log.warning(`Métriques indisponibles : ${(error as Error).message}`);
    return new Response(503, 'Métriques momentanément indisponibles.\n', 'text/plain; charset=utf-8', { 'Retry-After': '5', 'Cache-Control': 'no-store' });
  }
}

/**
 * The answer of `GET /metrics` on the application's port (before routing, as the health routes), or null when the
 * request is not for it or METRICS_TOKEN is not set (the path is then the application's, a 404 by default).
 */
export function metricsResponse(request: Request): Response | Promise<Response> | null {
  if (request.path !== METRICS_PATH || state?.settings.token == null) return null;
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return new Response(405, 'Méthode non autorisée.\n', 'text/plain; charset=utf-8', { Allow: 'GET, HEAD' });
  if (!tokenAccepted(request.headers.authorization, state.settings.token))
    return new Response(401, 'Jeton des métriques absent ou faux (Authorization: Bearer …).\n', 'text/plain; charset=utf-8', {
      'WWW-Authenticate': 'Bearer realm="metrics"',
      'Cache-Control': 'no-store',
    });
  return scrapeResponse();
}
