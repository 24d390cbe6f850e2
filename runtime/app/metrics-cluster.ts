/**
 * The metrics of several processes (docs/deploy.md "Metrics"), and the port of their own. Under WEB_CONCURRENCY > 1
 * each worker measures its own requests; a scrape is answered with the figures of all of them added up (prom-client's
 * AggregatorRegistry: the primary asks every worker over the cluster's channel) and the primary's own, the workers
 * it replaced. A scrape that reaches a worker (`GET /metrics` with the token on the application's port) is passed
 * to the primary, which answers for the cluster; METRICS_PORT is listened on by the primary alone.
 */
import cluster from 'node:cluster';
import http from 'node:http';
import { getLogger } from '../logger.js';
import { onWorkerRestart } from './cluster.js';
import { METRICS_PATH, metricsState, setScrape, tokenAccepted, type MetricsSettings } from './metrics.js';

const log = getLogger('fw.metrics');

const SCRAPE_REQUEST = 'metrics-scrape';
const SCRAPE_ANSWER = 'metrics-text';
/** A worker waits this long for its primary's answer (prom-client's own wait for the workers is 5 s). */
const SCRAPE_WAIT_MS = 6000;

interface ScrapeMessage {
  readonly fw: string;
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

/**
 * In the primary, before it forks: the aggregator, the count of replaced workers, the answers to the workers'
 * scrapes, and METRICS_PORT when set.
 */
export async function startPrimaryMetrics(settings: MetricsSettings): Promise<void> {
  const client = await import('prom-client');
  const aggregator = new client.AggregatorRegistry();
  const own = new client.Registry();
  const restarts = new client.Counter({
    name: 'fw_worker_restarts_total',
    help: "Processus remplacés par le processus principal : arrêtés sans qu'on le leur demande (exit) ou muets au-delà de WORKER_TIMEOUT (timeout).",
    labelNames: ['reason'] as const,
    registers: [own],
  });
  restarts.inc({ reason: 'exit' }, 0);
  restarts.inc({ reason: 'timeout' }, 0);
  onWorkerRestart((reason) => restarts.inc({ reason }));
  const scrape = async (): Promise<string> => `${await aggregator.clusterMetrics()}\n${await own.metrics()}`;
  cluster.on('message', (worker, message: ScrapeMessage) => {
    if (message?.fw !== SCRAPE_REQUEST) return;
    const answer = (reply: Omit<ScrapeMessage, 'fw' | 'id'>): void => {
      if (worker.isConnected()) worker.send({ fw: SCRAPE_ANSWER, id: message.id, ...reply }, () => undefined);
    };
    scrape().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: (error as Error).message }),
    );
  });
  if (settings.port !== null) await listenMetricsPort(settings, scrape, aggregator.contentType);
}

/** In a worker: its scrapes are answered by the primary, for the whole cluster; its figures go to the aggregator. */
export async function useClusterScrape(): Promise<void> {
  const client = await import('prom-client');
  // Its constructor installs the worker's answer to the primary's requests (prom-client's cluster.js).
  new client.AggregatorRegistry();
  let next = 0;
  setScrape(
    () =>
      new Promise((resolve, reject) => {
        const id = next++;
        const timer = setTimeout(() => finish(new Error(`le processus principal n'a pas répondu en ${SCRAPE_WAIT_MS} ms`)), SCRAPE_WAIT_MS);
        function finish(error: Error | null, text = ''): void {
          clearTimeout(timer);
          process.off('message', onMessage);
          if (error) reject(error);
          else resolve(text);
        }
        function onMessage(message: ScrapeMessage): void {
          if (message?.fw !== SCRAPE_ANSWER || message.id !== id) return;
          finish(message.error === undefined ? null : new Error(message.error), message.text ?? '');
        }
        process.on('message', onMessage);
        process.send!({ fw: SCRAPE_REQUEST, id });
      }),
  );
}

/** METRICS_PORT in a single process: its own registry. */
export async function startProcessMetricsPort(settings: MetricsSettings): Promise<void> {
  const loaded = metricsState();
  if (!loaded || settings.port === null) return;
  await listenMetricsPort(settings, () => loaded.client.register.metrics(), loaded.client.register.contentType);
}

/**
 * `GET /metrics` on METRICS_HOST:METRICS_PORT (the token asked there too when METRICS_TOKEN is set); anything else
 * 404. The server does not keep the process alive: it stops with it.
 */
function listenMetricsPort(settings: MetricsSettings, scrape: () => Promise<string>, contentType: string): Promise<void> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const plain = (status: number, text: string, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers }).end(text);
    };
    if (path !== METRICS_PATH) return plain(404, 'Introuvable : seule /metrics est servie ici.\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(405, 'Méthode non autorisée.\n', { Allow: 'GET, HEAD' });
    if (settings.token !== null && !tokenAccepted(req.headers.authorization, settings.token))
      return plain(401, 'Jeton des métriques absent ou faux (Authorization: Bearer …).\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    scrape().then(
      (text) => res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? '' : text),
      (error: unknown) => {
        log.warning(`Métriques indisponibles : ${(error as Error).message}`);
        plain(503, 'Métriques momentanément indisponibles.\n', { 'Retry-After': '5' });
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: Error) => reject(new Error(`METRICS_PORT ${settings.port} sur ${settings.host} : ${error.message}`)));
    server.listen(settings.port!, settings.host, () => {
      server.unref();
      resolve();
    });
  });
}
