/**
 * `/media` against path traversal, over raw HTTP (no client normalises anything): more than 800 payloads made by
 * combining traversal tokens (plain, percent-encoded, double-encoded, overlong UTF-8, dot variants), separators
 * (slash, backslash, their encodings), depths and prefixes, plus absolute, UNC, URI-scheme, NUL and symbolic-link
 * escapes. A secret file sits beside the upload root and links inside the root point at it: no body may ever
 * contain it, no answer may be a 5xx or a 200, anonymous or signed in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sessionCookie } from './helpers/client.js';
import { startApp, type TestApp } from './helpers/server.js';
import { makeJpeg, uploadRoutes } from './helpers/uploads.js';

const SECRET = `TOP-SECRET-${process.pid}-${Date.now()}`;

let app: TestApp;
let cookie: string;

test.before(async () => {
  app = await startApp({ routes: uploadRoutes });
  const project = app.project.root;
  const root = path.join(project, 'storage', 'uploads');
  for (const dir of ['images/medium', 'documents', 'tmp']) fs.mkdirSync(path.join(root, dir), { recursive: true });
  fs.writeFileSync(path.join(project, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(project, 'storage', 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(root, 'images', 'ok.jpg'), await makeJpeg(20, 20));
  // Links inside the root that lead out: to the secret file, and to the project folder.
  fs.symlinkSync(path.join(project, 'secret.txt'), path.join(root, 'images', 'escape.jpg'));
  fs.symlinkSync(path.join(project, 'secret.txt'), path.join(root, 'documents', 'escape.pdf'));
  fs.symlinkSync(project, path.join(root, 'images', 'escdir'));
  fs.symlinkSync(project, path.join(root, 'documents', 'escdir'));
  fs.symlinkSync(path.join(project, 'storage'), path.join(root, 'tmp', 'up'));
  cookie = sessionCookie((await app.fetch('/signin')).cookies)!;
});
test.after(async () => {
  await app?.close();
});

/** Every payload: a request target starting with `/media/`. */
function corpus(projectRoot: string): string[] {
  const dots = [
    '..',
    '%2e%2e',
    '%2E%2E',
    '.%2e',
    '%2e.',
    '%252e%252e',
    '%25252e%25252e',
    '%c0%ae%c0%ae',
    '%e0%80%ae%e0%80%ae',
    '%f0%80%80%ae%f0%80%80%ae',
    '%uff0e%uff0e',
    '%ef%bc%8e%ef%bc%8e',
    '..%00',
    '..%2500',
    '...',
    '.%00.',
    '..;',
    '%2e%2e%20',
  ];
  const separators = ['/', '%2f', '%2F', '%252f', '\\', '%5c', '%5C', '%255c', '%c0%af', '%c1%9c', '%e0%80%af', '%c0%2f', '/./', '//'];
  const prefixes = ['/media/', '/media/images/', '/media/documents/', '/media/images/medium/'];
  const targets = ['secret.txt', 'storage/secret.txt', 'etc/passwd', 'storage%2fsecret.txt'];
  const out = new Set<string>();
  for (const dot of dots) {
    for (const sep of separators) {
      for (const depth of [1, 2, 3, 6]) {
        const prefix = prefixes[(depth + dot.length) % prefixes.length]!;
        const target = targets[(sep.length + depth) % targets.length]!;
        out.add(`${prefix}${`${dot}${sep}`.repeat(depth)}${target}`);
      }
    }
  }
  const absolute = path.join(projectRoot, 'secret.txt');
  const encodedAbsolute = encodeURIComponent(absolute);
  const specials = [
    `/media/${absolute}`,
    `/media/${encodedAbsolute}`,
    `/media//${absolute}`,
    `/media/images/${encodedAbsolute}`,
    `/media/images/%2f${absolute.slice(1)}`,
    '/media//etc/passwd',
    '/media/%2fetc%2fpasswd',
    '/media/%252fetc%252fpasswd',
    '/media/images//etc/passwd',
    '/media/C:%5cwindows%5cwin.ini',
    '/media/C:/windows/win.ini',
    '/media/c%3a%5cwindows',
    '/media/images/C:secret.txt',
    '/media/%5c%5cserver%5cshare%5csecret.txt',
    '/media/\\\\server\\share\\secret.txt',
    '/media/%5c%5c127.0.0.1%5cc$%5csecret.txt',
    `/media/file:%2f%2f${encodedAbsolute}`,
    '/media/file:///etc/passwd',
    '/media/http://127.0.0.1/secret.txt',
    '/media/http:%2f%2fexample.test%2fx',
    '/media/data:text/plain,secret',
    '/media/javascript:alert(1)',
    '/media/images/x:y.jpg',
    '/media/images/ok.jpg:stream',
    '/media/images/ok.jpg%00',
    '/media/images/ok.jpg%00.png',
    '/media/images%00/ok.jpg',
    '/media/%00',
    '/media/images/%00/../../secret.txt',
    '/media/images/escape.jpg',
    '/media/documents/escape.pdf',
    '/media/images/escdir/secret.txt',
    '/media/documents/escdir/secret.txt',
    '/media/tmp/up/secret.txt',
    '/media/images/escdir/storage/secret.txt',
    '/media/images/escdir/storage/uploads/images/ok.jpg',
    '/media/images/escdir',
    '/media/images/escdir/',
    '/media/images/%65scape.jpg',
    '/media/images/escape%2ejpg',
    '/media/images/./escape.jpg',
    '/media/images//escape.jpg',
    '/media/images/medium/../escape.jpg',
    '/media/images/medium/%2e%2e/escape.jpg',
    '/media/images/ok.jpg/../../../secret.txt',
    '/media/images/ok.jpg%2f..%2f..%2f..%2fsecret.txt',
    '/media/..',
    '/media/.',
    '/media/%2e',
    '/media/images/..%2f..%2f..%2fsecret.txt?x=1',
    '/media/images/..%2f..%2f..%2fsecret.txt#frag',
    '/media/images/%252e%252e%252f%252e%252e%252fsecret.txt',
    '/media/images/\u2025/secret.txt',
    '/media/images/%e2%80%a5/secret.txt',
    '/media/images/%ef%bc%8f..%ef%bc%8fsecret.txt',
  ];
  for (const special of specials) out.add(special);
  return [...out];
}

/** Through a link that leads out and back into the root: the real place is inside, so the file is served. */
const BACK_INSIDE = new Set(['/media/images/escdir/storage/uploads/images/ok.jpg']);

interface Outcome {
  payload: string;
  status: number;
  leaked: boolean;
}

async function send(payload: string, withCookie: boolean): Promise<Outcome> {
  const head = `GET ${payload} HTTP/1.1\r\nHost: 127.0.0.1\r\n${withCookie ? `Cookie: ${cookie}\r\n` : ''}Connection: close\r\n\r\n`;
  const response = await app.raw(Buffer.from(head, 'latin1'));
  return { payload, status: response.status, leaked: response.body.includes(SECRET) };
}

/** Runs the payloads a few at a time. */
async function sendAll(payloads: readonly string[], withCookie: boolean): Promise<Outcome[]> {
  const results: Outcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < payloads.length) {
        const payload = payloads[next++]!;
        results.push(await send(payload, withCookie));
      }
    }),
  );
  return results;
}

test('the corpus: at least 800 payloads, zero escapes, zero 5xx, never a 200', async () => {
  const payloads = corpus(app.project.root);
  assert.ok(payloads.length >= 800, `${payloads.length} payloads`);
  // The control: the legitimate file and the secret are reachable the way they should be.
  const control = await send('/media/images/ok.jpg', false);
  assert.is(control.status, 200);
  for (const withCookie of [false, true]) {
    const results = await sendAll(payloads, withCookie);
    assert.is(results.length, payloads.length);
    const escapes = results.filter((r) => r.leaked);
    const serverErrors = results.filter((r) => r.status >= 500);
    const served = results.filter((r) => r.status === 200 && !BACK_INSIDE.has(r.payload));
    assert.equal(
      escapes.map((r) => r.payload),
      [],
      `escapes (${withCookie ? 'signed in' : 'anonymous'})`,
    );
    assert.equal(
      serverErrors.map((r) => `${r.status} ${r.payload}`),
      [],
      '5xx',
    );
    assert.equal(
      served.map((r) => r.payload),
      [],
      '200',
    );
    for (const payload of BACK_INSIDE) assert.is(results.find((r) => r.payload === payload)?.status, 200, payload);
    const statuses = new Set(results.filter((r) => !BACK_INSIDE.has(r.payload)).map((r) => r.status));
    for (const status of statuses) assert.ok([302, 400, 404].includes(status), `status ${status} (${withCookie ? 'signed in' : 'anonymous'})`);
    if (withCookie) assert.not.ok(statuses.has(302), 'signed in, nothing is a login redirect');
  }
  assert.is(fs.readFileSync(path.join(app.project.root, 'secret.txt'), 'utf8'), SECRET, 'the secret is untouched');
});

test.run();
