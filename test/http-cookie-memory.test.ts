/**
 * Cookie values are copies, not substrings of the `Cookie` header: the memory session store keeps the id a request
 * sent as its key, and a substring would keep the whole header alive with it. Measured over a real server in a
 * fresh Node process started with `--expose-gc` (heap in use after full GCs, before and after the requests).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const DIST = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const SESSIONS = 1000;
/** Another cookie sent beside the session id, as analytics or preference cookies are in a browser. */
const PADDING = 8000;
const WARM_UP = 2000;

test('a session kept by the memory store does not keep the Cookie header that named it', () => {
  const script = `
    const { startApp } = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'test', 'helpers', 'server.js')).href)});
    const runtime = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'runtime', 'index.js')).href)});
    const app = await startApp({
      routes: (router) => router.add('GET', '/', () => new runtime.Response(200, 'ok'), { public: true }),
    });
    const store = runtime.getSessionStore();
    const ids = [];
    for (let i = 0; i < ${SESSIONS}; i++) ids.push(await store.create({ n: i }));
    const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
    const send = async (cookie) => {
      const response = await fetch(app.base + '/', { headers: { cookie } });
      if (response.status !== 200) throw new Error('status ' + response.status);
      await response.text();
    };
    // The first thousand requests or so grow the heap whatever they carry (compiled code, the client's pool).
    for (let i = 0; i < ${WARM_UP}; i++) await send('prefs=' + 'y'.repeat(${PADDING}) + i);
    const before = heap();
    // Each header is a new string: a different padding per request.
    for (const [i, id] of ids.entries()) await send('prefs=' + 'x'.repeat(${PADDING}) + i + '; session_id=' + id);
    const after = heap();
    await app.close();
    process.stdout.write(JSON.stringify({ perSession: (after - before) / ${SESSIONS}, size: store.size }));
  `;
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: DIST, encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  const result = JSON.parse(run.stdout) as { perSession: number; size: number };
  assert.is(result.size, SESSIONS, 'every session is still in the store');
  // A substring would keep the 8000-byte header per session; a copy of the id is about a hundred bytes (what the
  // process grows by anyway, about ±200 bytes a request after the warm-up, is within the margin).
  assert.ok(result.perSession < 2048, `heap kept per session after the requests: ${Math.round(result.perSession)} bytes`);
});

test.run();
