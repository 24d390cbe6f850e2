/**
 * `npm run soak` (not part of `npm test`; docs/performance.md "Soak"): a generated CRUD project built for
 * production (`tsc -p tsconfig.build.json`, then `node dist/app.js`, no wrapper) under autocannon for SOAK_SECONDS
 * (60) with SOAK_CONNECTIONS (50). Each connection loops over: an anonymous list page, two static files, an
 * anonymous form page (its session cookie and CSRF token kept), a valid form post (302) and the list page it
 * redirects to with that cookie. Prints requests, errors, unexpected statuses, p50/p99 and the server's RSS before
 * the load, after it, after a full GC (SIGUSR2 to a preload given --expose-gc) and after a second full GC once the
 * server has been quiet for SOAK_QUIET_SECONDS (10): V8 gives back the young generation it grew for the load only
 * at a full GC that sees a low allocation rate (docs/performance.md "Soak"). The memory session store keeps
 * its bound (SESSION_MEMORY_MAX from the environment when set). Exit code 1 on errors or unexpected statuses.
 * The server's node gets the flags of the project's `npm start` (`--max-semi-space-size=8`); SOAK_NODE_FLAGS replaces
 * them (`SOAK_NODE_FLAGS=` for none, `--max-semi-space-size=2`…); SOAK_TSX=1 serves app.ts through
 * tsx's loader instead of dist/app.js, for comparison.
 * SOAK_WORKERS=2: the cluster variant (docs/performance.md "Soak with two processes"): WEB_CONCURRENCY=2, sessions
 * and limits on Redis (127.0.0.1:6379 or REDIS_URL, a key prefix of its own, deleted after), a rolling restart
 * (SIGHUP) in the middle of the load; prints the RSS of each worker before, after the load and after the restart. Its
 * load is the same loop sent by Node's http client rather than autocannon (clientLoops says why).
 * Needs `npm run build` first (the `soak` npm script does it). Traffic goes to 127.0.0.1 only.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const cli = await import(pathToFileURL(path.join(REPO, 'dist', 'test', 'helpers', 'cli.js')).href);
const crud = await import(pathToFileURL(path.join(REPO, 'dist', 'test', 'helpers', 'crud-app.js')).href);

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 50);
const SEED_ROWS = Number(process.env.SOAK_ROWS ?? 1000);
const TSX = process.env.SOAK_TSX === '1';
const QUIET_SECONDS = Number(process.env.SOAK_QUIET_SECONDS ?? 10);
const WORKERS = Number(process.env.SOAK_WORKERS ?? 1);
const REDIS_PREFIX = `fwsoak:${process.pid}:`;

const NOTE_JSON = {
  format_version: 1,
  entity: 'Note',
  table: 'notes',
  fields: [
    { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true },
    { name: 'titre', sql_type: 'VARCHAR(100)', constraints: { not_empty: true }, list: { filter: true } },
    { name: 'contenu', sql_type: 'TEXT', nullable: true },
  ],
};

/** What each kind of request must answer; anything else is counted as unexpected. */
const EXPECTED = { list: 200, css: 200, js: 200, form: 200, post: 302, redirected: 200 };

function ok(project, args) {
  const run = project.run(args);
  if (run.status !== 0) throw new Error(`fw ${args.join(' ')} a échoué (${run.status}) :\n${run.stdout}${run.stderr}`);
}

/** The project: Note CRUD on SQLite, SEED_ROWS rows, compiled to dist/. */
function buildProject() {
  const project = cli.newProject('Soak');
  try {
    fillProject(project);
    return project;
  } catch (err) {
    void project.cleanup();
    throw err;
  }
}

function fillProject(project) {
  project.useSqlite();
  project.write('mvc/entities/note/note.json', JSON.stringify(NOTE_JSON, null, 2) + '\n');
  ok(project, ['make:crud', 'Note', '--public']);
  ok(project, ['sync:relations']);
  ok(project, ['db:init']);
  ok(project, ['db:apply']);
  crud.linkFramework(project);
  const db = new Database(project.path('storage/database.sqlite'));
  const insert = db.prepare('INSERT INTO notes (titre, contenu) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= SEED_ROWS; i++) insert.run(`Note ${i}`, `Contenu de la note ${i}`);
  })();
  db.close();
  const build = spawnSync(process.execPath, [cli.TSC, '-p', 'tsconfig.build.json'], { cwd: project.root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build a échoué :\n${build.stdout}${build.stderr}`);
  // Full GC on SIGUSR2, then the process's own figures into SOAK_GC_FILE (the soak reads RSS from /proc as well).
  project.write(
    'soak-gc.cjs',
    `process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  const fs = require('node:fs');
  fs.writeFileSync(process.env.SOAK_GC_FILE + '.tmp', JSON.stringify(process.memoryUsage()));
  fs.renameSync(process.env.SOAK_GC_FILE + '.tmp', process.env.SOAK_GC_FILE);
});
`,
  );
}

/** The node flags of the project's `npm start` (`node <flags> dist/app.js`), so that the soak measures what it runs. */
function startFlags(project) {
  const start = JSON.parse(fs.readFileSync(project.path('package.json'), 'utf8')).scripts?.start ?? '';
  return /^node\s+(.*?)\s*dist\/app\.js$/.exec(start)?.[1] ?? '';
}

/** `node <flags> --expose-gc --require soak-gc.cjs dist/app.js` on an ephemeral port (flags: startFlags or SOAK_NODE_FLAGS). */
async function serve(project) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('DB_') && key !== 'APP_ENV') env[key] = value;
  const flags = (process.env.SOAK_NODE_FLAGS ?? startFlags(project)).split(/\s+/).filter((flag) => flag !== '');
  // SOAK_TSX=1: the TypeScript through tsx's loader in the same process, for comparison (npm run dev without watch).
  const entry = TSX ? ['--import', 'tsx', 'app.ts'] : ['dist/app.js'];
  const child = spawn(process.execPath, [...flags, '--expose-gc', '--require', './soak-gc.cjs', ...entry], {
    cwd: project.root,
    env: {
      ...env,
      HOST: '127.0.0.1',
      PORT: '0',
      SOAK_GC_FILE: project.path('storage/gc.json'),
      ...(WORKERS > 1 ? { WEB_CONCURRENCY: String(WORKERS), SESSION_STORE: 'redis', RATE_LIMIT_STORE: 'redis', REDIS_PREFIX } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`le serveur n'a pas démarré en 30 s :\n${output}`)), 30_000);
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /fw-mvc : (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`le serveur s'est arrêté (code ${code}) :\n${output}`));
    });
  });
  return { child, url, flags, output: () => output };
}

/** VmRSS of a process, in MB. */
function rssMb(pid) {
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

/** Full GC in the server; resolves with its RSS (from /proc) and heap afterwards, in MB. */
async function afterGc(project, child) {
  const file = project.path('storage/gc.json');
  fs.rmSync(file, { force: true });
  child.kill('SIGUSR2');
  // Written then renamed by the preload: once it exists, it is whole.
  for (let i = 0; i < 600 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const own = JSON.parse(fs.readFileSync(file, 'utf8'));
  const mb = (bytes) => bytes / 2 ** 20;
  return { rss: rssMb(child.pid), heap: mb(own.heapUsed), heapTotal: mb(own.heapTotal), external: mb(own.external) };
}

/** The request loop of one connection, with a tally of statuses per kind. */
function requests(tally) {
  const count = (kind) => (status, body, context, headers) => {
    const key = `${kind} ${status}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    if (kind === 'form') {
      // autocannon keeps the raw header names: Set-Cookie as the server wrote it.
      const setCookie = Object.entries(headers).find(([name]) => name.toLowerCase() === 'set-cookie')?.[1] ?? '';
      // The session cookie (for an anonymous form, the unstored id its CSRF token is bound to).
      const cookies = (Array.isArray(setCookie) ? setCookie : [setCookie]).map((line) => /^session_id=[^;]*/.exec(String(line))?.[0]);
      context.cookie = cookies.filter(Boolean).join('; ');
      context.token = /name="csrf_token" value="([^"]+)"/.exec(body)?.[1] ?? '';
    }
  };
  let serial = 0;
  const withCookie = (request, context) => ({ ...request, headers: { ...request.headers, cookie: context.cookie ?? '' } });
  return [
    { method: 'GET', path: '/notes', onResponse: count('list') },
    { method: 'GET', path: '/static/tailwind.css', onResponse: count('css') },
    { method: 'GET', path: '/static/js/app.js', onResponse: count('js') },
    { method: 'GET', path: '/notes/new', onResponse: count('form') },
    {
      method: 'POST',
      path: '/notes',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      setupRequest: (request, context) => {
        serial += 1;
        const body = new URLSearchParams({ csrf_token: context.token ?? '', titre: `Soak ${serial}`, contenu: 'Envoyée par le soak.' }).toString();
        return withCookie({ ...request, body }, context);
      },
      onResponse: count('post'),
    },
    { method: 'GET', path: '/notes', setupRequest: withCookie, onResponse: count('redirected') },
  ];
}

/** The pids of the primary's workers (its child processes). */
function workerPids(pid) {
  return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

function workersRss(pid) {
  return workerPids(pid)
    .map((worker) => `${worker}: ${rssMb(worker).toFixed(1)} MB`)
    .join(', ');
}

async function dropRedisPrefix() {
  const { createClient } = await import('redis');
  const client = createClient({ url: process.env.REDIS_URL || 'redis://127.0.0.1:6379' });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${REDIS_PREFIX}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
  await client.close();
}

/**
 * The cluster variant's load: CONNECTIONS clients, each looping over the requests of `requests()` through Node's
 * http client (keep-alive), counted like autocannon's. Not autocannon here: a restarting worker answers with
 * `Connection: close`, and autocannon writes its next request on that connection anyway, then on the close
 * reconnects and steps its request sequence once more; from then on each response of that connection is counted
 * against the request before it and the next form post carries the cookie and token of the wrong page (the 403s,
 * and 200s where a post's 302 was expected, of the first two-process runs). Node's client, like browsers and
 * nginx, opens a new connection after `Connection: close`.
 */
async function clientLoops(url, tally) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const { hostname, port } = new URL(url);
  const latencies = [];
  let errors = 0;
  let timeouts = 0;
  let serial = 0;
  const end = Date.now() + SECONDS * 1000;
  const send = (method, route, headers = {}, body = undefined) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const sized = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const request = http.request({ hostname, port, path: route, method, headers: sized, agent, timeout: 10_000 }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          latencies.push(performance.now() - started);
          resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(Object.assign(new Error('time-out'), { code: 'SOAK_TIMEOUT' })));
      request.on('error', reject);
      request.end(body);
    });
  const count = (kind, answer) => {
    const key = `${kind} ${answer.status}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    return answer;
  };
  const client = async () => {
    while (Date.now() < end) {
      try {
        count('list', await send('GET', '/notes'));
        count('css', await send('GET', '/static/tailwind.css'));
        count('js', await send('GET', '/static/js/app.js'));
        const form = count('form', await send('GET', '/notes/new'));
        // The session cookie (for an anonymous form, the unstored id its CSRF token is bound to).
        const cookie = (form.headers['set-cookie'] ?? [])
          .map((line) => /^session_id=[^;]*/.exec(line)?.[0])
          .filter(Boolean)
          .join('; ');
        const token = /name="csrf_token" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
        serial += 1;
        const body = new URLSearchParams({ csrf_token: token, titre: `Soak ${serial}`, contenu: 'Envoyée par le soak.' }).toString();
        count('post', await send('POST', '/notes', { 'content-type': 'application/x-www-form-urlencoded', cookie }, body));
        count('redirected', await send('GET', '/notes', { cookie }));
      } catch (error) {
        if (error.code === 'SOAK_TIMEOUT') timeouts += 1;
        else errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0);
  return { requests: { total: latencies.length, average: latencies.length / SECONDS }, errors, timeouts, latency: { p50: at(0.5), p99: at(0.99) } };
}

/** The cluster variant: the load with a rolling restart in its middle, the RSS of each worker. */
async function soakCluster(server) {
  const { child, url } = server;
  for (let i = 0; i < 4; i++)
    for (const route of ['/notes', '/static/tailwind.css', '/static/js/app.js', '/notes/new']) await (await fetch(url + route)).arrayBuffer();
  const before = workersRss(child.pid);
  const tally = new Map();
  const restart = setTimeout(() => child.kill('SIGHUP'), (SECONDS * 1000) / 2);
  const result = await clientLoops(url, tally);
  clearTimeout(restart);
  const restarted = /Redémarrage terminé/.test(server.output());
  const after = workersRss(child.pid);
  let unexpected = 0;
  for (const [key, n] of tally) if (EXPECTED[key.split(' ')[0]] !== Number(key.split(' ')[1])) unexpected += n;
  console.log(
    `\nSoak : ${SECONDS} s, ${CONNECTIONS} connexions, WEB_CONCURRENCY=${WORKERS}, sessions et limites sur Redis, SIGHUP à ${SECONDS / 2} s, Node ${process.version}`,
  );
  row('requêtes', `${result.requests.total} (${Math.round(result.requests.average)} req/s)`);
  row('erreurs / time-outs', `${result.errors} / ${result.timeouts}`);
  row('statuts inattendus', `${unexpected}`);
  row('latence p50 / p99', `${result.latency.p50} ms / ${result.latency.p99} ms`);
  row('redémarrage un par un', restarted ? 'terminé' : 'PAS terminé');
  row('RSS par processus avant', before);
  row('RSS par processus après', after);
  console.log('  statuts par sorte de requête :');
  for (const [key, n] of [...tally].sort()) console.log(`    ${key.padEnd(18)} ${n}`);
  if (result.errors > 0 || result.timeouts > 0 || unexpected > 0 || !restarted) {
    console.error(
      `\nErreur : ${result.errors} erreur(s), ${result.timeouts} time-out(s), ${unexpected} statut(s) inattendu(s).\n${server.output().slice(-2000)}`,
    );
    process.exitCode = 1;
  }
}

function row(label, value) {
  console.log(`  ${label.padEnd(34)} ${value}`);
}

const project = buildProject();
let server;
try {
  server = await serve(project);
  if (WORKERS > 1) {
    await soakCluster(server);
  } else {
    const { child, url } = server;
    // Warm-up: every kind of request once, so that "before" counts the code and templates already loaded.
    for (const route of ['/notes', '/static/tailwind.css', '/static/js/app.js', '/notes/new']) await (await fetch(url + route)).arrayBuffer();
    const before = await afterGc(project, child);

    const tally = new Map();
    const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, requests: requests(tally) });
    const after = rssMb(child.pid);
    const gc = await afterGc(project, child);
    // No request during this wait: the server is idle, as after a burst of traffic.
    await new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000));
    const quiet = await afterGc(project, child);
    const heap = (figures) => `tas ${figures.heap.toFixed(1)} / ${figures.heapTotal.toFixed(1)} MB, external ${figures.external.toFixed(1)} MB`;

    let unexpected = 0;
    for (const [key, n] of tally) {
      const [kind, status] = key.split(' ');
      if (EXPECTED[kind] !== Number(status)) unexpected += n;
    }
    const bound = process.env.SESSION_MEMORY_MAX ? `SESSION_MEMORY_MAX=${process.env.SESSION_MEMORY_MAX}` : 'borne par défaut du magasin mémoire';
    console.log(
      `\nSoak : ${SECONDS} s, ${CONNECTIONS} connexions, ${['node', ...server.flags, ...(TSX ? ['--import tsx app.ts'] : ['dist/app.js'])].join(' ')} (SQLite, ${SEED_ROWS} lignes au départ, ${bound}), Node ${process.version}`,
    );
    row('requêtes', `${result.requests.total} (${Math.round(result.requests.average)} req/s)`);
    row('erreurs / time-outs', `${result.errors} / ${result.timeouts}`);
    row('non-2xx (dont les 302 des POST)', `${result.non2xx}`);
    row('statuts inattendus', `${unexpected}`);
    row('latence p50 / p99', `${result.latency.p50} ms / ${result.latency.p99} ms`);
    row('RSS avant (après GC)', `${before.rss.toFixed(1)} MB (${heap(before)})`);
    row('RSS après', `${after.toFixed(1)} MB`);
    row('RSS après GC', `${gc.rss.toFixed(1)} MB (${heap(gc)})`);
    row(`RSS après ${QUIET_SECONDS} s de calme et un GC`, `${quiet.rss.toFixed(1)} MB (${heap(quiet)})`);
    console.log('  statuts par sorte de requête :');
    for (const [key, n] of [...tally].sort()) console.log(`    ${key.padEnd(18)} ${n}`);
    if (result.errors > 0 || unexpected > 0) {
      console.error(`\nErreur : ${result.errors} erreur(s) et ${unexpected} statut(s) inattendu(s) pendant le soak.\n${server.output().slice(-2000)}`);
      process.exitCode = 1;
    }
  }
} finally {
  if (server && server.child.exitCode === null) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
  await project.cleanup();
  if (WORKERS > 1) await dropRedisPrefix();
}
