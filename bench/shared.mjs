/** What the bench servers and sections share: bodies, content types, the six security headers, the page context, the handshake with run.mjs, small helpers. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nunjucks from 'nunjucks';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const VIEWS_DIR = path.join(BENCH_DIR, 'views');

export const ROUTES = ['/hello', '/json', '/page'];
export const HELLO = 'Hello, World!';
export const TEXT_TYPE = 'text/plain; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';
export const PAGE_TEMPLATE = 'page.html';

/** A copy of runtime/security/headers.ts (run.mjs checks it against the built runtime before measuring). */
export const SECURITY_HEADERS = [
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
  [
    'Content-Security-Policy',
    "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:; frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'",
  ],
];
/** `[name, value, name, value, ...]` for writeHead. */
export const SECURITY_FLAT = SECURITY_HEADERS.flat();
export const SECURITY_OBJECT = Object.fromEntries(SECURITY_HEADERS);

/** The /page context: 20 rows whose cells need escaping. Built once per process, at startup. */
export const PAGE_CONTEXT = {
  title: 'Bench <page> & "friends"',
  heading: 'Twenty rows, escaped',
  rows: Array.from({ length: 20 }, (_, i) => ({
    id: i + 1,
    label: `<b>Row ${i + 1} & "quotes"</b>`,
    note: `it's <i>${i + 1}</i> > ${i}`,
    amount: ((i + 1) * 12.5).toFixed(2),
  })),
};

/** The nunjucks environment of the raw and fastify servers (same options as fw-mvc's renderer). */
export function nunjucksEnv() {
  return new nunjucks.Environment(new nunjucks.FileSystemLoader(VIEWS_DIR), { autoescape: true });
}

/** The median of a list of numbers. */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Prints an aligned table; the columns listed in `left` are left-aligned, the others right-aligned. */
export function printTable(head, lines, left = [0]) {
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (left.includes(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${fmt(head).trimEnd()}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const l of lines) console.log(fmt(l).trimEnd());
}

/** Prints the port, tells the parent (IPC) and answers its `rss` questions; exits with the parent. */
export function announce(name, server) {
  const { port } = server.address();
  process.stdout.write(`${name} listening on http://127.0.0.1:${port}\n`);
  if (!process.send) return;
  process.on('message', (msg) => {
    if (msg?.type === 'rss') process.send({ type: 'rss', rss: process.memoryUsage().rss });
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', port });
}

/** Deletes the Redis keys under `prefix` (REDIS_URL, else 127.0.0.1:6379): what a section's servers wrote. */
export async function dropRedisPrefix(prefix) {
  const { createClient } = await import('redis');
  const client = createClient({ url: process.env.REDIS_URL || 'redis://127.0.0.1:6379' });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
  await client.close();
}
