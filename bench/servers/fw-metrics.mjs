/**
 * fw-mvc with its Prometheus metrics on (METRICS_TOKEN set, docs/deploy.md "Metrics"): the same server as fw.mjs,
 * so that the HTTP section prints what measuring each request costs beside metrics off.
 */
process.env.METRICS_TOKEN ??= 'bench-metrics-token-0123456789abcdef';
await import('./fw.mjs');
