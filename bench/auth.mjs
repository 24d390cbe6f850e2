/**
 * The auth section: the login POST (Argon2id verification included) and a page behind the login, beside the same
 * page served publicly, for each session store (memory, file, database on SQLite, redis on 127.0.0.1:6379 or
 * REDIS_URL). Prints logins/s and p99, the
 * signed-in page's req/s and p99, and the store's cost per request (µs) against the public page of the same server.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_DIR, median, printTable } from './shared.mjs';

const STORES = ['memory', 'file', 'database', 'redis'];
const CONNECTIONS = 50;
const LOGIN_WORKERS = 4;
/** The user of the signed-in pages (bench/servers/auth.mjs and scale.mjs create the same; bench/scale.mjs with fw auth:user:create). */
export const USER = { email: 'bench@example.test', password: 'bench-password-1234' };

function start(store) {
  const child = fork(path.join(BENCH_DIR, 'servers', 'auth.mjs'), {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_SESSION_STORE: store },
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`auth server (${store}) exited (${code}) before listening`)));
    child.on('message', (msg) => msg?.type === 'ready' && resolve({ child, port: msg.port, base: `http://127.0.0.1:${msg.port}` }));
  });
}

/** GET /login then POST /login; returns the signed-in cookie and the POST's duration (ms). */
export async function login(base) {
  const form = await fetch(`${base}/login`);
  // An anonymous visitor gets a session_id its CSRF token is bound to, stored nowhere.
  const cookie = /session_id=[0-9a-f]{64}/.exec(form.headers.get('set-cookie') ?? '')?.[0];
  const token = /name="csrf_token" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!cookie || !token) throw new Error(`GET /login gave no session or token (${form.status})`);
  const body = new URLSearchParams({ csrf_token: token, login: USER.email, password: USER.password }).toString();
  const started = process.hrtime.bigint();
  const answer = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await answer.text();
  if (answer.status !== 302) throw new Error(`POST /login answered ${answer.status}`);
  const signedIn = /session_id=[0-9a-f]{64}/.exec(answer.headers.get('set-cookie') ?? '')?.[0];
  if (!signedIn) throw new Error('POST /login set no new session cookie');
  return { cookie: signedIn, ms };
}

/** LOGIN_WORKERS clients signing in again and again for `duration` seconds. */
async function loginLoad(base, duration) {
  const times = [];
  const end = Date.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: LOGIN_WORKERS }, async () => {
      while (Date.now() < end) times.push((await login(base)).ms);
    }),
  );
  times.sort((a, b) => a - b);
  return { rps: times.length / duration, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))], count: times.length };
}

async function pageLoad(base, route, cookie, duration) {
  const result = await autocannon({ url: base + route, connections: CONNECTIONS, duration, headers: cookie ? { cookie } : {} });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(`${route}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  const seconds = (new Date(result.finish) - new Date(result.start)) / 1000;
  return { rps: result.requests.total / seconds, p99: result.latency.p99 };
}

export async function runAuthBench({ rounds, duration, warmup }) {
  const rows = [];
  let loginRow;
  for (const store of STORES) {
    const server = await start(store);
    try {
      const { cookie } = await login(server.base);
      await pageLoad(server.base, '/page', null, warmup);
      await pageLoad(server.base, '/private', cookie, warmup);
      const pub = [];
      const priv = [];
      for (let round = 0; round < rounds; round++) {
        pub.push(await pageLoad(server.base, '/page', null, duration));
        priv.push(await pageLoad(server.base, '/private', cookie, duration));
        console.log(
          `round ${round + 1}/${rounds}  ${store.padEnd(8)}  public ${pub.at(-1).rps.toFixed(0)} req/s  signed-in ${priv.at(-1).rps.toFixed(0)} req/s`,
        );
      }
      const publicRps = median(pub.map((x) => x.rps));
      const privateRps = median(priv.map((x) => x.rps));
      rows.push({
        store,
        publicRps,
        publicP99: median(pub.map((x) => x.p99)),
        privateRps,
        privateP99: median(priv.map((x) => x.p99)),
        overheadUs: (1 / privateRps - 1 / publicRps) * 1e6,
      });
      if (store === 'memory') {
        await loginLoad(server.base, warmup);
        loginRow = await loginLoad(server.base, Math.max(duration * rounds, 5));
        console.log(`login: ${loginRow.count} sign-ins, ${loginRow.rps.toFixed(1)} /s, p99 ${loginRow.p99.toFixed(1)} ms`);
      }
    } finally {
      server.child.kill();
    }
  }
  printTable(
    ['session store', 'public /page req/s', 'p99 ms', 'signed-in /private req/s', 'p99 ms', 'store cost µs/req'],
    rows.map((r) => [r.store, r.publicRps.toFixed(0), r.publicP99.toFixed(1), r.privateRps.toFixed(0), r.privateP99.toFixed(1), r.overheadUs.toFixed(1)]),
    [0],
  );
  console.log(
    `\nPOST /login (Argon2id m=19456 t=2 p=1 verification, ${LOGIN_WORKERS} clients): ${loginRow.rps.toFixed(1)} sign-ins/s, p99 ${loginRow.p99.toFixed(1)} ms`,
  );
  return {
    settings: { connections: CONNECTIONS, login_workers: LOGIN_WORKERS, rounds, duration, warmup },
    stores: rows.map((r) => ({ ...r, publicRps: Math.round(r.publicRps), privateRps: Math.round(r.privateRps), overheadUs: Number(r.overheadUs.toFixed(1)) })),
    login: { rps: Number(loginRow.rps.toFixed(1)), p99: Number(loginRow.p99.toFixed(1)), count: loginRow.count },
    targets: [],
  };
}
