/**
 * What a generated app pays for at start: importing the runtime loads neither kysely (about a thousand modules)
 * nor a database driver nor busboy nor argon2 (a native addon); the first query loads kysely and that dialect's
 * driver only, the first multipart body busboy, the first password check argon2. The opt-in second factor stays
 * out of apps that do not import it: neither `fw-mvc` nor `fw-mvc/auth` loads otplib or qrcode, and `fw-mvc/mfa`
 * loads qrcode only for its first QR code. sharp (a native addon) waits for the first image, in the image process only: neither
 * `fw-mvc`, `fw-mvc/media`, a document upload nor the `/media` route loads it. Observed in a fresh Node
 * process through a module resolve hook (what `import` loads, CommonJS packages included) and `require.cache`
 * (what `require` loads: kysely's CommonJS build, lighter than its ESM one, docs/performance.md "Soak").
 * prom-client is not loaded either: metrics are off unless METRICS_TOKEN or METRICS_PORT is set (test/deploy-metrics.test.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const WATCHED = ['argon2', 'kysely', 'mysql2', 'better-sqlite3', 'busboy', 'otplib', 'prom-client', 'qrcode', 'sharp'];

/** `import()` of a subpath entry of the built package (`auth`, `mfa`, `rbac`), for the scripts below. */
function importEntry(entry: string): string {
  return `await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'dist', 'runtime', entry, 'index.js')).href)});`;
}

/** The watched packages loaded through `import` (esm) and through `require` (cjs), each sorted. */
interface Loads {
  readonly esm: string[];
  readonly cjs: string[];
  /** What the image process started by the script loaded through `import`. */
  readonly image: string[];
}

/** Runs `body` after importing the runtime in a fresh process; returns the watched packages that were loaded, sorted. */
function loadedPackages(body: string): string[] {
  const { esm, cjs } = loads(body);
  return WATCHED.filter((name) => esm.includes(name) || cjs.includes(name)).sort();
}

function loads(body: string): Loads {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-lazy-'));
  try {
    const hook = path.join(dir, 'hook.mjs');
    const log = path.join(dir, 'loaded.txt');
    // The hooks run on their own thread: a synchronous append is on disk before the import it resolves goes on,
    // where a write to stderr from that thread could still be lost when the process exits (seen under load).
    fs.writeFileSync(
      hook,
      `
      import { appendFileSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const result = await next(specifier, context);
        const match = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(result.url);
        // The image process (runtime/uploads/image-jobs.ts) inherits this hook: its loads are told apart.
        if (match) appendFileSync(${JSON.stringify(log)}, (process.env.FW_IMAGE_PROCESS ? 'image-' : '') + 'esm:' + match[1] + '\\n');
        return result;
      }
    `,
    );
    const register = path.join(dir, 'register.mjs');
    fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
    const script = `
      const runtime = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'dist', 'runtime', 'index.js')).href)});
      ${body}
      const { appendFileSync } = await import('node:fs');
      const { createRequire } = await import('node:module');
      for (const file of Object.keys(createRequire(${JSON.stringify(REPO + '/')}).cache)) {
        const match = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file);
        if (match) appendFileSync(${JSON.stringify(log)}, 'cjs:' + match[1] + '\\n');
      }
    `;
    const run = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, '--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8' });
    assert.is(run.status, 0, run.stderr);
    const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
    const loaded = (kind: string): string[] => {
      const names = new Set([...text.matchAll(new RegExp(`^${kind}:(\\S+)$`, 'gm'))].map((m) => m[1]!));
      return WATCHED.filter((name) => names.has(name)).sort();
    };
    return { esm: loaded('esm'), cjs: loaded('cjs'), image: loaded('image-esm') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('importing the runtime loads neither kysely nor a driver nor busboy nor argon2', () => {
  assert.equal(loadedPackages(''), []);
});

const PASSWORDS = JSON.stringify(pathToFileURL(path.join(REPO, 'dist', 'runtime', 'auth', 'passwords.js')).href);

test('importing the password module, or checking a policy or a PBKDF2 hash, loads no argon2; the first Argon2 use does', () => {
  assert.equal(
    loadedPackages(
      `const p = await import(${PASSWORDS}); p.checkPasswordPolicy('12345678'); p.passwordNeedsRehash('$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g');`,
    ),
    [],
  );
  assert.equal(
    loadedPackages(
      `const p = await import(${PASSWORDS}); if (!(await p.verifyPassword('secret-password', p.legacyPbkdf2Hash('secret-password')))) process.exit(3);`,
    ),
    [],
  );
  assert.equal(loadedPackages(`const p = await import(${PASSWORDS}); await p.hashPassword('secret-password');`), ['argon2']);
  assert.equal(loadedPackages(`await runtime.dummyVerifyPassword('secret-password');`), ['argon2']);
});

test('opening a handle loads nothing; the first SQLite query loads kysely and better-sqlite3 only', () => {
  assert.equal(loadedPackages(`runtime.openDatabase({ driver: 'sqlite', file: ':memory:' });`), []);
  assert.equal(loadedPackages(`const db = runtime.openDatabase({ driver: 'sqlite', file: ':memory:' }); await db.fetchOne('SELECT 1'); await db.close();`), [
    'better-sqlite3',
    'kysely',
  ]);
});

test('the first MariaDB query loads kysely and mysql2 only', () => {
  assert.equal(
    loadedPackages(
      `const db = runtime.openDatabase({ driver: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '' }); await db.fetchOne('SELECT 1'); await db.close();`,
    ),
    ['kysely', 'mysql2'],
  );
});

test('kysely is loaded once, as its CommonJS build: never its ESM modules as well', () => {
  const { esm, cjs } = loads(`const db = runtime.openDatabase({ driver: 'sqlite', file: ':memory:' }); await db.fetchOne('SELECT 1'); await db.close();`);
  assert.ok(cjs.includes('kysely'), `kysely through require: ${JSON.stringify(cjs)}`);
  assert.not.ok(esm.includes('kysely'), `kysely through import as well: ${JSON.stringify(esm)}`);
});

/** A real server (the test helper) with a POST route, one request with `body`, then stop. */
function postForm(body: string): string {
  return `
    const { startApp } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'dist', 'test', 'helpers', 'server.js')).href)});
    const app = await startApp({
      routes: (router) => router.add('POST', '/form', (request) => new runtime.Response(200, String(request.body.a)), { public: true, csrf: false }),
    });
    const response = await fetch(app.base + '/form', { method: 'POST', body: ${body} });
    const text = await response.text();
    await app.close();
    if (text !== '1') throw new Error('réponse inattendue : ' + response.status + ' ' + text);
  `;
}

test('busboy is loaded by the first multipart body only, not by a URL-encoded form', () => {
  assert.equal(loadedPackages(postForm(`new URLSearchParams({ a: '1' })`)), []);
  assert.equal(loadedPackages(postForm(`(() => { const form = new FormData(); form.set('a', '1'); return form; })()`)), ['busboy']);
});

test('closing a handle that never ran a query loads nothing', () => {
  assert.equal(loadedPackages(`const db = runtime.openDatabase({ driver: 'sqlite', file: ':memory:' }); await db.close();`), []);
});

test('fw-mvc/auth and fw-mvc/rbac load neither otplib nor qrcode', () => {
  assert.equal(loadedPackages(`${importEntry('auth')} ${importEntry('rbac')}`), []);
});

test('fw-mvc/mfa loads otplib; qrcode waits for the first QR code', () => {
  assert.equal(loadedPackages(importEntry('mfa')), ['otplib']);
  assert.equal(loadedPackages(`const mfa = ${importEntry('mfa')} await mfa.qrCodeSvg('otpauth://totp/x', 'QR');`), ['otplib', 'qrcode']);
});

test('sharp waits for the first image, and only in the image process: fw-mvc/media and a document load nothing; an image loads it there (its metadata is removed and checked)', () => {
  // A 1 × 1 PNG, written out so that the script needs no image library to make it.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
  const setup = `
    const fs = await import('node:fs');
    const dir = fs.mkdtempSync((await import('node:path')).join((await import('node:os')).tmpdir(), 'fw-lazy-up-'));
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    runtime.configure({ project_root: dir });
    const png = Buffer.from(${JSON.stringify(png)}, 'base64');
  `;
  assert.equal(
    loadedPackages(`${importEntry('media')} ${setup}
    await runtime.saveUpload(new runtime.UploadedFile('a.pdf', 'application/pdf', Buffer.from('%PDF')));
    if (runtime.serveMediaFile('images/absent.png').status !== 404) process.exit(3);
  `),
    [],
  );
  for (const variants of [false, true]) {
    const { esm, cjs, image } = loads(`${setup}
      const saved = await runtime.saveUpload(new runtime.UploadedFile('a.png', 'image/png', png), { category: 'images', variants: ${variants} });
      if (Boolean(saved.variants) !== ${variants}) process.exit(3);
    `);
    // The server never loads sharp: the image process does (docs/uploads.md "Image processing and memory").
    assert.equal(
      WATCHED.filter((name) => esm.includes(name) || cjs.includes(name)),
      [],
      `variants: ${variants}`,
    );
    assert.ok(image.includes('sharp'), `variants: ${variants}: ${image.join(', ')}`);
  }
});

test.run();
