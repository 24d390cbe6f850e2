/**
 * The reset section: the answer time of `POST /password/forgot` for a known and for an unknown address, side by
 * side (docs/auth.md: the answer is composed before anything is read about the address, so both take the same
 * time). Requests alternate between the two kinds (the order swapped every round); before each one the server
 * finishes the work of the previous request and starts its limits afresh, so neither the work beside the answer
 * nor a 429 weighs on a measure. Prints the medians, p90 and the spread (median absolute deviation) of each kind;
 * the target: the medians differ by less than 10 times the spread of all the measures (at least 0.2 ms).
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { BENCH_DIR, median, printTable } from './shared.mjs';

const KNOWN = 'bench@example.test';

function start() {
  const child = fork(path.join(BENCH_DIR, 'servers', 'reset.mjs'), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`reset server exited (${code}) before listening`)));
    child.on('message', (msg) => msg?.type === 'ready' && resolve({ child, base: `http://127.0.0.1:${msg.port}` }));
  });
}

/** Waits until the server has finished the work of every request so far and forgotten the limits. */
function settle(child) {
  return new Promise((resolve) => {
    const onMessage = (msg) => {
      if (msg?.type !== 'settled') return;
      child.off('message', onMessage);
      resolve();
    };
    child.on('message', onMessage);
    child.send({ type: 'settle' });
  });
}

/** The form's session cookie and CSRF token. */
async function formToken(base) {
  const form = await fetch(`${base}/password/forgot`);
  const cookie = /session_id=[0-9a-f]{64}/.exec(form.headers.get('set-cookie') ?? '')?.[0];
  const token = /name="csrf_token" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!cookie || !token) throw new Error(`GET /password/forgot gave no session or token (${form.status})`);
  return { cookie, token };
}

/** One POST of the form; returns its duration (ms) up to the whole answer read. */
async function ask(base, { cookie, token }, email) {
  const body = new URLSearchParams({ csrf_token: token, email }).toString();
  const started = process.hrtime.bigint();
  const answer = await fetch(`${base}/password/forgot`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  await answer.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (answer.status !== 200) throw new Error(`POST /password/forgot (${email}) answered ${answer.status}`);
  return ms;
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
const spread = (values) => {
  const center = median(values);
  return median(values.map((value) => Math.abs(value - center)));
};

export async function runResetBench({ rounds, warmup }) {
  const server = await start();
  const times = { known: [], unknown: [] };
  try {
    const form = await formToken(server.base);
    for (let round = 0; round < warmup + rounds; round++) {
      for (const kind of round % 2 ? ['known', 'unknown'] : ['unknown', 'known']) {
        await settle(server.child);
        const ms = await ask(server.base, form, kind === 'known' ? KNOWN : `inconnu${round}@example.test`);
        if (round >= warmup) times[kind].push(ms);
      }
    }
    await settle(server.child);
  } finally {
    server.child.kill();
  }
  const rows = ['known', 'unknown'].map((kind) => ({
    kind,
    requests: times[kind].length,
    median: median(times[kind]),
    p90: quantile(times[kind], 0.9),
    spread: spread(times[kind]),
  }));
  printTable(
    ['address', 'requests', 'median ms', 'p90 ms', 'spread ms'],
    rows.map((r) => [r.kind, String(r.requests), r.median.toFixed(2), r.p90.toFixed(2), r.spread.toFixed(2)]),
    [0],
  );
  const noise = Math.max(0.2, spread([...times.known, ...times.unknown]));
  const difference = Math.abs(rows[0].median - rows[1].median);
  console.log(
    `\nmedians: known ${rows[0].median.toFixed(2)} ms, unknown ${rows[1].median.toFixed(2)} ms; difference ${difference.toFixed(2)} ms, spread ${noise.toFixed(2)} ms`,
  );
  const round2 = (value) => Number(value.toFixed(2));
  return {
    settings: { rounds, warmup },
    addresses: rows.map((r) => ({ ...r, median: round2(r.median), p90: round2(r.p90), spread: round2(r.spread) })),
    targets: [
      {
        target: 'POST /password/forgot: known and unknown medians within 10 × the spread',
        value: `${rows[0].median.toFixed(2)} ms vs ${rows[1].median.toFixed(2)} ms`,
        note: `difference ${difference.toFixed(2)} ms, spread ${noise.toFixed(2)} ms`,
        pass: difference < 10 * noise,
      },
    ],
  };
}
