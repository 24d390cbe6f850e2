/**
 * An upload folder that refuses to store (docs/uploads.md "Errors"): full (a tiny tmpfs filled up: ENOSPC),
 * read-only (the tmpfs remounted read-only: EROFS) or not a folder (the upload root under a regular file:
 * ENOTDIR, which root meets too, where chmod would not stop it). saveUpload throws UploadStorageUnavailableError
 * (507, a message for the user) and leaves no file, not even a temporary one; the pages of `fw make:crud --media`
 * send the form back with 507, what was typed and the message under the file input, and store nothing.
 * The tmpfs cases need `mount` (the tests run as root); without it they say so and only the ENOTDIR case runs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Response, configure, resetConfig } from '../runtime/index.js';
import { UploadStorageError, UploadStorageUnavailableError, saveUpload } from '../runtime/uploads/index.js';
import { UploadedFile } from '../runtime/http/uploaded-file.js';
import { decode, inputValue } from './helpers/crud-html.js';
import { jpeg, PDF } from './helpers/crud-media.js';
import { startMediaApp, type MediaApp } from './helpers/crud-media-app.js';
import { startApp } from './helpers/server.js';
import { listFiles, multipart } from './helpers/uploads.js';

/** Mounts a tmpfs of `size` on `dir`; false when this machine does not let the test mount. */
function mountTmpfs(dir: string, size: string): boolean {
  fs.mkdirSync(dir, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir]).status === 0;
}
function run(args: string[]): void {
  const done = spawnSync(args[0]!, args.slice(1), { encoding: 'utf8' });
  assert.is(done.status, 0, `${args.join(' ')} : ${done.stderr}`);
}
/** Writes zeros into `dir` until the file system is full. */
function fill(dir: string): void {
  const fd = fs.openSync(path.join(dir, 'remplissage'), 'w');
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(4096));
  } catch (err) {
    assert.is((err as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
}

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  assert.unreachable('the promise should have been rejected');
  return undefined;
}

function assertRefused(err: unknown, label: string): void {
  assert.instance(err, UploadStorageUnavailableError, label);
  assert.instance(err, UploadStorageError, label);
  const refused = err as UploadStorageUnavailableError;
  assert.is(refused.status, 507, label);
  assert.is(refused.code, 'upload_storage_unavailable', label);
  assert.match(refused.message, "Le fichier « photo.jpg » n'a pas pu être enregistré : l'espace de stockage des fichiers est plein ou protégé en écriture.");
  assert.not.match(refused.message, '/', `${label}: no folder in the user's message`);
}

const Chain = suite('uploads-storage-full: saveUpload on a folder that refuses');
let dir: string;
let mounted = false;
Chain.before.each(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-h5-full-')));
  resetConfig();
  configure({ project_root: dir });
});
Chain.after.each(() => {
  if (mounted) spawnSync('umount', [path.join(dir, 'uploads')]);
  mounted = false;
  resetConfig();
  fs.rmSync(dir, { recursive: true, force: true });
});

Chain('the upload root under a regular file (ENOTDIR, root included): 507, nothing written', async () => {
  fs.writeFileSync(path.join(dir, 'fichier'), 'pas un dossier');
  configure({ upload_root: path.join(dir, 'fichier', 'uploads') });
  const photo = new UploadedFile('photo.jpg', 'image/jpeg', await jpeg(200, 100, { r: 10, g: 20, b: 30 }), 'photo');
  assertRefused(await failure(saveUpload(photo, { category: 'images', variants: true })), 'ENOTDIR');
  assert.is(fs.readFileSync(path.join(dir, 'fichier'), 'utf8'), 'pas un dossier');
});

Chain('a full upload folder (ENOSPC), then a read-only one (EROFS): 507, no file left, not even a temporary one', async () => {
  const uploads = path.join(dir, 'uploads');
  mounted = mountTmpfs(uploads, '256k');
  if (!mounted) {
    console.log('mount refusé sur cette machine : dossier plein et lecture seule non essayés');
    return;
  }
  configure({ upload_root: uploads });
  fs.mkdirSync(path.join(uploads, 'images'));
  fs.mkdirSync(path.join(uploads, 'documents'));
  fill(uploads);
  const photo = new UploadedFile('photo.jpg', 'image/jpeg', await jpeg(600, 400, { r: 10, g: 20, b: 30 }), 'photo');
  assertRefused(await failure(saveUpload(photo, { category: 'images', variants: true })), 'ENOSPC');
  assert.equal(listFiles(uploads), ['remplissage']);
  fs.rmSync(path.join(uploads, 'remplissage'));
  run(['mount', '-o', 'remount,ro', uploads]);
  assertRefused(await failure(saveUpload(photo, { category: 'images', variants: true })), 'EROFS');
  const pdf = new UploadedFile('photo.jpg', 'image/jpeg', await jpeg(60, 40, { r: 1, g: 2, b: 3 }), 'photo');
  assertRefused(await failure(saveUpload(pdf, { category: 'documents' })), 'EROFS, documents');
  assert.equal(listFiles(uploads), []);
  // Writable again: stored as usual.
  run(['mount', '-o', 'remount,rw', uploads]);
  const saved = await saveUpload(photo, { category: 'images', variants: true });
  assert.equal(listFiles(uploads), [saved.path, saved.variants!.medium, saved.variants!.thumbnail].sort());
});

Chain('thrown out of a handler that does not catch it: the 507 page with the message (or the envelope), the disk in the log', async () => {
  fs.writeFileSync(path.join(dir, 'fichier'), 'pas un dossier');
  const t = await startApp({
    config: { upload_root: path.join(dir, 'fichier', 'uploads') },
    routes: (router) =>
      router.add(
        'POST',
        '/depot',
        async (request) => {
          await saveUpload(request.files.photo!, { category: 'documents' });
          return new Response(201, 'ok');
        },
        { public: true, csrf: false },
      ),
  });
  try {
    const { body, contentType } = multipart([{ name: 'photo', filename: 'photo.jpg', type: 'image/jpeg', data: await jpeg(60, 40, { r: 1, g: 2, b: 3 }) }]);
    const page = await t.fetch('/depot', { method: 'POST', headers: { 'Content-Type': contentType }, body });
    assert.is(page.status, 507, page.text.slice(0, 300));
    assert.match(page.text, 'Stockage des fichiers impossible');
    assert.match(decode(page.text), "Le fichier « photo.jpg » n'a pas pu être enregistré");
    assert.not.match(page.text, 'Erreur interne du serveur');
    assert.not.match(page.text, dir, 'no folder on the page');
    const api = await t.fetch('/depot', { method: 'POST', headers: { 'Content-Type': contentType, Accept: 'application/json' }, body });
    assert.is(api.status, 507);
    assert.is(api.json().error.code, 'upload_storage_unavailable');
    assert.match(t.logs.text(), /Stockage impossible sur POST \/depot : Impossible de créer le dossier de dépôt « documents » sous .*ENOTDIR/);
  } finally {
    await t.close();
  }
});

Chain.run();

const Pages = suite('uploads-storage-full: the pages of make:crud --media when the upload folder is full or read-only');
let app: MediaApp;
let mountedPages = false;
Pages.before(async () => {
  app = await startMediaApp('sqlite');
});
Pages.after(async () => {
  if (mountedPages) spawnSync('umount', [app.project.path('storage/uploads')]);
  await app?.stop();
});

Pages('507 with the form as typed and the message under the file input; no record, no file; served again once writable', async () => {
  const uploads = app.project.path('storage/uploads');
  mountedPages = mountTmpfs(uploads, '256k');
  if (!mountedPages) {
    console.log('mount refusé sur cette machine : pages non essayées');
    return;
  }
  const client = app.client();
  const photo = await jpeg(800, 500, { r: 40, g: 90, b: 160 });
  const send = () =>
    client.postMultipart(
      '/produits',
      [
        ['nom', 'Fauteuil « club » en cuir'],
        ['reference', 'PLEIN-1'],
        ['photo.alt', 'Fauteuil bleu'],
      ],
      [
        ['photo', 'bleu.jpg', photo, 'image/jpeg'],
        ['notice', 'notice.pdf', PDF, 'application/pdf'],
      ],
      '/produits/new',
    );
  const rows = async () => (await app.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM produits')).map((r) => Number(r.n))[0];
  const before = await rows();
  for (const state of ['full', 'read-only'] as const) {
    if (state === 'full') fill(uploads);
    else {
      fs.rmSync(path.join(uploads, 'remplissage'));
      run(['mount', '-o', 'remount,ro', uploads]);
    }
    const res = await send();
    assert.is(res.status, 507, `${state}: ${res.text.slice(0, 300)}`);
    assert.is(inputValue(res.text, 'nom'), 'Fauteuil « club » en cuir', state);
    assert.is(inputValue(res.text, 'reference'), 'PLEIN-1', state);
    const message = /<div id="media-(\w+)-error"[^>]*>([\s\S]*?)<\/div>/.exec(res.text);
    assert.ok(message, `${state}: a message under a file input`);
    assert.match(decode(message![2]!), "n'a pas pu être enregistré : l'espace de stockage des fichiers est plein ou protégé en écriture.");
    assert.not.match(res.text, 'Erreur interne du serveur');
    assert.is(await rows(), before, `${state}: no record`);
    assert.equal(listFiles(uploads), state === 'full' ? ['remplissage'] : [], `${state}: no file left`);
  }
  assert.match(app.output(), /Dépôt de « (bleu\.jpg|notice\.pdf) » impossible, formulaire renvoyé \(507\) : /);
  run(['mount', '-o', 'remount,rw', uploads]);
  const stored = await send();
  assert.is(stored.status, 302, stored.text.slice(0, 300));
  assert.is(await rows(), before! + 1);
});

Pages.run();
