/**
 * The upload chain on a real disk (docs/uploads.md "The chain", "Paths and categories"): the path rules of normalizeMediaPath, safe
 * categories and names, metadata checks, writes that never replace a file and leave nothing behind on failure,
 * containment through symbolic links, deletions, and the image variants made with sharp from real images
 * (dimensions, EXIF orientation applied, metadata stripped; an undecodable image leaves nothing).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  UploadInvalidExtensionError,
  UploadInvalidImageError,
  UploadInvalidMimeTypeError,
  UploadPathError,
  UploadStorageError,
  UploadTooLargeError,
  UploadedFile,
  categoryDir,
  configure,
  deleteFile,
  deleteMediaFile,
  deleteUpload,
  ensureUploadDirs,
  generateImageVariants,
  generateUniqueFilename,
  getUploadPath,
  mediaPathToStoragePath,
  normalizeMediaPath,
  resetConfig,
  safeCategory,
  saveBytes,
  saveUpload,
  secureFilename,
  uploadRoot,
  validateUploadMetadata,
} from '../runtime/index.js';
import { listFiles, makeImage, makeJpeg } from './helpers/uploads.js';

let dir: string;
let root: string;
const SECRET = 'SECRET-outside-the-upload-root';

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

test.before.each(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-uploads-')));
  resetConfig();
  configure({ project_root: dir });
  root = uploadRoot();
  fs.writeFileSync(path.join(dir, 'secret.txt'), SECRET);
});
test.after.each(() => {
  resetConfig();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('normalizeMediaPath: the refusals of rule 3, and the normal forms', () => {
  const refused = [
    '',
    '/etc/passwd',
    '//server/share/a.jpg',
    '\\\\server\\share\\a.jpg',
    'C:\\Windows\\a.jpg',
    'C:/Windows/a.jpg',
    'c:a.jpg',
    'http://example.test/a.jpg',
    'file:///etc/passwd',
    'data:text/html,x',
    'javascript:alert(1)',
    '../secret.txt',
    'images/../../secret.txt',
    'images/..',
    '..',
    'images\\a.jpg',
    'images/a.jpg\0.png',
    'images/a\n.jpg',
    'images/\u007f.jpg',
  ];
  for (const value of refused)
    assert.throws(
      () => normalizeMediaPath(value),
      (err: Error) => err instanceof UploadPathError,
      JSON.stringify(value),
    );
  assert.is(normalizeMediaPath('images/a.jpg'), 'images/a.jpg');
  assert.is(normalizeMediaPath('images//./a.jpg'), 'images/a.jpg');
  assert.is(normalizeMediaPath('images/%2e%2e/a.jpg'), 'images/%2e%2e/a.jpg', 'percent-encoded dots stay literal names');
  assert.is(normalizeMediaPath('images/a.jpg/'), 'images/a.jpg');
});

test('safeCategory, secureFilename and generateUniqueFilename', () => {
  for (const ok of ['images', 'documents', 'tmp', 'Pieces_jointes-2']) assert.is(safeCategory(ok), ok);
  for (const bad of ['', 'a/b', '..', 'a b', 'é', 'images/../x', 'x'.repeat(65), 'a.b']) {
    assert.throws(
      () => safeCategory(bad),
      (err: Error) => err instanceof UploadPathError,
      bad,
    );
  }
  assert.is(secureFilename('../../Été 2024 (copie).JPG'), 'Ete_2024_copie.JPG');
  assert.is(secureFilename('C:\\fakepath\\mon fichier.pdf'), 'mon_fichier.pdf');
  assert.is(secureFilename('a\0b.jpg'), 'ab.jpg');
  assert.is(secureFilename('.htaccess'), 'htaccess');
  assert.is(secureFilename('...'), 'fichier');
  assert.is(secureFilename('con.jpg'), '_con.jpg');
  assert.is(secureFilename(`${'x'.repeat(300)}.png`).length, 104);
  const unique = generateUniqueFilename('Mon image.PNG');
  assert.match(unique, /^Mon_image_[0-9a-f]{32}\.png$/);
  assert.is.not(generateUniqueFilename('a.png'), generateUniqueFilename('a.png'));
});

test('validateUploadMetadata: size (empty accepted, negative refused), last extension, MIME without parameters', () => {
  assert.equal(validateUploadMetadata('photo.JPG', 0, 'IMAGE/JPEG; charset=binary'), { extension: 'jpg', mimeType: 'image/jpeg' });
  assert.equal(validateUploadMetadata('a.php.jpg', 10, 'image/jpeg'), { extension: 'jpg', mimeType: 'image/jpeg' });
  assert.throws(
    () => validateUploadMetadata('a.jpg.php', 10, 'image/jpeg'),
    (err: Error) => err instanceof UploadInvalidExtensionError && /« a\.jpg\.php ».*« php ».*jpg, jpeg, png, webp, pdf/.test(err.message),
  );
  assert.throws(
    () => validateUploadMetadata('README', 10, 'application/pdf'),
    (err: Error) => err instanceof UploadInvalidExtensionError && /n'a pas d'extension/.test(err.message),
  );
  assert.throws(
    () => validateUploadMetadata('a.pdf', 5_242_881, 'application/pdf'),
    (err: Error) => err instanceof UploadTooLargeError && err.message.includes('5242880 octets') && err.message.includes('« a.pdf »'),
  );
  assert.ok(validateUploadMetadata('a.pdf', 5_242_880, 'application/pdf'));
  assert.throws(() => validateUploadMetadata('a.pdf', -1, 'application/pdf'), /taille du fichier « a\.pdf » est invalide/);
  assert.throws(() => validateUploadMetadata('a.pdf', 1.5, 'application/pdf'), /invalide/);
  assert.throws(
    () => validateUploadMetadata('a.pdf', 3, 'text/html'),
    (err: Error) => err instanceof UploadInvalidMimeTypeError && /« text\/html ».*application\/pdf/.test(err.message),
  );
  assert.throws(() => validateUploadMetadata('', 3, 'application/pdf'), /Aucun fichier reçu/);
  configure({ upload_allowed_extensions: ['txt'], upload_allowed_mime_types: ['text/plain'] });
  assert.ok(validateUploadMetadata('notes.TXT', 3, 'text/plain'));
});

test('saveBytes: under the category, unique name, mode 0640, no temporary file left; a bad category writes nothing', async () => {
  const relative = await saveBytes(Buffer.from('%PDF-1.4 test'), '../Rapport final.pdf', 'documents');
  assert.match(relative, /^documents\/Rapport_final_[0-9a-f]{32}\.pdf$/);
  assert.is(fs.readFileSync(path.join(root, relative), 'utf8'), '%PDF-1.4 test');
  assert.is(fs.statSync(path.join(root, relative)).mode & 0o777 & ~0o640, 0, 'no more than rw-r-----');
  assert.equal(listFiles(root), [relative]);
  assert.ok((await failure(saveBytes(Buffer.from('x'), 'a.pdf', '../evil'))) instanceof UploadPathError);
  assert.ok((await failure(saveBytes(Buffer.from('x'), 'a.pdf', 'a/../../evil'))) instanceof UploadPathError);
  assert.equal(listFiles(root), [relative]);
  assert.not.ok(fs.existsSync(path.join(dir, 'evil')));
});

test('a category folder that is a symbolic link leading out of the root is refused, nothing is written there', async () => {
  const outside = path.join(dir, 'outside');
  fs.mkdirSync(outside);
  ensureUploadDirs();
  fs.symlinkSync(outside, path.join(root, 'evil'));
  let error: unknown;
  try {
    await saveBytes(Buffer.from('x'), 'a.pdf', 'evil');
  } catch (err) {
    error = err;
  }
  assert.ok(error instanceof UploadPathError, String(error));
  assert.equal(fs.readdirSync(outside), []);
  assert.throws(
    () => categoryDir('evil'),
    (err: Error) => err instanceof UploadPathError,
  );
});

test('paths through links: a link inside the root that points outside is refused for reading and deleting', async () => {
  ensureUploadDirs();
  fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(root, 'documents', 'escape.pdf'));
  fs.symlinkSync(dir, path.join(root, 'images', 'escdir'));
  fs.symlinkSync(path.join(dir, 'nowhere'), path.join(root, 'documents', 'dangling.pdf'));
  for (const p of ['documents/escape.pdf', 'images/escdir/secret.txt', 'images/escdir', 'documents/dangling.pdf']) {
    assert.throws(
      () => getUploadPath(p),
      (err: Error) => err instanceof UploadPathError,
      p,
    );
  }
  let refused = 0;
  for (const p of ['documents/escape.pdf', 'images/escdir/secret.txt']) {
    try {
      await deleteFile(p);
    } catch (err) {
      if (err instanceof UploadPathError) refused++;
    }
  }
  assert.is(refused, 2);
  assert.is(fs.readFileSync(path.join(dir, 'secret.txt'), 'utf8'), SECRET);
  // A root that is itself a link (storage moved to another disk) is fine: the real root is the reference.
  const real = path.join(dir, 'disk');
  fs.mkdirSync(real);
  fs.symlinkSync(real, path.join(dir, 'linked-root'));
  assert.is(mediaPathToStoragePath('documents/a.pdf', { root: path.join(dir, 'linked-root') }), path.join(dir, 'linked-root', 'documents', 'a.pdf'));
});

test('deleteFile, deleteMediaFile (absent variants are false), deleteUpload; a folder is never deleted', async () => {
  const relative = await saveBytes(Buffer.from('x'), 'a.pdf', 'documents');
  assert.is(await deleteFile(relative), true);
  assert.is(await deleteFile(relative), false);
  const image = await saveUpload(new UploadedFile('p.png', 'image/png', await makeImage('png', 40, 30)), { category: 'images' });
  assert.not.ok('variants' in image, 'no variants asked, none listed');
  const result = await deleteMediaFile(image.path, { variants: true });
  const file = image.filename;
  assert.equal(result, { [image.path]: true, [`images/medium/${file}`]: false, [`images/thumbnail/${file}`]: false });
  let error: unknown;
  try {
    await deleteFile('images');
  } catch (err) {
    error = err;
  }
  assert.ok(error instanceof UploadStorageError);
  assert.ok(fs.statSync(path.join(root, 'images')).isDirectory());
  const saved = await saveUpload(new UploadedFile('q.jpg', 'image/jpeg', await makeJpeg(64, 48)), { category: 'images', variants: true });
  assert.equal(Object.values(await deleteUpload(saved)), [true, true, true]);
  assert.equal(listFiles(root), []);
});

test('variants: medium 1280 and thumbnail 300 inside the box, upright from EXIF, metadata stripped, never enlarged', async () => {
  // Orientation 6: stored 2400 × 1600, shown rotated 90°, so 1600 wide and 2400 high.
  const jpeg = await makeJpeg(2400, 1600, { orientation: 6 });
  assert.is((await sharp(jpeg).metadata()).orientation, 6);
  const saved = await saveUpload(new UploadedFile('Vacances été.jpg', 'image/jpeg', jpeg), { category: 'images', variants: true });
  assert.equal(Object.keys(saved).sort(), ['filename', 'path', 'size', 'variants']);
  assert.is(saved.size, fs.statSync(path.join(root, saved.path)).size, 'the stored size');
  assert.equal(saved.variants, { medium: `images/medium/${saved.filename}`, thumbnail: `images/thumbnail/${saved.filename}` });
  const original = await sharp(path.join(root, saved.path)).metadata();
  assert.equal(
    [original.width, original.height, original.orientation, original.exif?.length],
    [2400, 1600, 6, 32],
    'the original is as received, its EXIF reduced to the orientation (uploads-exif.test.ts)',
  );
  const medium = await sharp(path.join(root, saved.variants!.medium)).metadata();
  const thumbnail = await sharp(path.join(root, saved.variants!.thumbnail)).metadata();
  assert.equal([medium.format, medium.width, medium.height], ['jpeg', 853, 1280]);
  assert.equal([thumbnail.format, thumbnail.width, thumbnail.height], ['jpeg', 200, 300]);
  for (const meta of [medium, thumbnail]) {
    assert.is(meta.orientation, undefined);
    assert.is(meta.exif, undefined);
    assert.is(meta.icc, undefined);
  }
  for (const file of [saved.path, saved.variants!.medium])
    assert.not.ok(fs.readFileSync(path.join(root, file)).includes('Secret Artist'), `${file}: EXIF text gone`);

  const small = await saveUpload(new UploadedFile('petit.png', 'image/png', await makeImage('png', 120, 80)), { category: 'images', variants: true });
  for (const name of ['medium', 'thumbnail'] as const) {
    const meta = await sharp(path.join(root, small.variants![name])).metadata();
    assert.equal([meta.format, meta.width, meta.height], ['png', 120, 80], `${name} not enlarged`);
  }
  const wide = await saveUpload(new UploadedFile('large.webp', 'image/webp', await makeImage('webp', 3000, 600)), { category: 'images', variants: true });
  const wideThumb = await sharp(path.join(root, wide.variants!.thumbnail)).metadata();
  assert.equal([wideThumb.format, wideThumb.width, wideThumb.height], ['webp', 300, 60]);
});

test('a file that is not a decodable image fails with nothing left behind; variants are for images only', async () => {
  ensureUploadDirs();
  const before = listFiles(root);
  const cases: Array<[string, string, Buffer]> = [
    ['faux.jpg', 'image/jpeg', Buffer.from('this is not a jpeg at all')],
    ['tronque.jpg', 'image/jpeg', (await makeJpeg(400, 300)).subarray(0, 2000)],
    ['vide.png', 'image/png', Buffer.alloc(0)],
    ['dessin.png', 'image/png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>')],
  ];
  for (const [name, type, data] of cases) {
    let error: unknown;
    try {
      await saveUpload(new UploadedFile(name, type, data), { category: 'images', variants: true });
    } catch (err) {
      error = err;
    }
    assert.ok(error instanceof UploadInvalidImageError, `${name}: ${String(error)}`);
    assert.is((error as UploadInvalidImageError).status, 422);
    assert.equal(listFiles(root), before, `${name}: nothing written`);
  }
  let pdfError: unknown;
  try {
    await saveUpload(new UploadedFile('doc.pdf', 'application/pdf', Buffer.from('%PDF')), { category: 'images', variants: true });
  } catch (err) {
    pdfError = err;
  }
  assert.ok(pdfError instanceof UploadInvalidExtensionError && /jpg, jpeg, png, webp/.test(pdfError.message));
  let typeError: unknown;
  try {
    await saveUpload(new UploadedFile('doc.pdf', 'application/pdf', Buffer.from('%PDF')), { category: 'documents', variants: true });
  } catch (err) {
    typeError = err;
  }
  assert.ok(typeError instanceof TypeError && /catégorie images/.test(typeError.message));
  assert.equal(listFiles(root), before);
});

test('a variant that cannot be written removes the original and the variant already written', async () => {
  const jpeg = await makeJpeg(500, 400);
  ensureUploadDirs();
  // The thumbnail folder is a file: the medium is written, then the thumbnail fails.
  fs.rmSync(path.join(root, 'images', 'thumbnail'), { recursive: true });
  fs.writeFileSync(path.join(root, 'images', 'thumbnail'), 'not a folder');
  const before = listFiles(root);
  let error: unknown;
  try {
    await saveUpload(new UploadedFile('photo.jpg', 'image/jpeg', jpeg), { category: 'images', variants: true });
  } catch (err) {
    error = err;
  }
  assert.ok(error instanceof UploadStorageError, String(error));
  assert.equal(listFiles(root), before);
});

test('generateImageVariants on a stored image: both or none, never over an existing variant', async () => {
  const saved = await saveUpload(new UploadedFile('photo.jpg', 'image/jpeg', await makeJpeg(1600, 1200)), { category: 'images' });
  const paths = await generateImageVariants(saved.path);
  assert.equal(paths, { medium: `images/medium/${saved.filename}`, thumbnail: `images/thumbnail/${saved.filename}` });
  assert.is((await sharp(path.join(root, paths.medium)).metadata()).width, 1280);
  // Again: the medium exists, so nothing is replaced and nothing new is left.
  fs.rmSync(path.join(root, paths.thumbnail));
  const before = listFiles(root);
  let error: unknown;
  try {
    await generateImageVariants(saved.path);
  } catch (err) {
    error = err;
  }
  assert.ok(error instanceof UploadStorageError && /existe déjà/.test(error.message), String(error));
  assert.equal(listFiles(root), before);
  let other: unknown;
  try {
    await generateImageVariants('documents/a.pdf');
  } catch (err) {
    other = err;
  }
  assert.match(String(other), /n'a pas de variantes/);
  // Another root.
  const elsewhere = path.join(dir, 'elsewhere');
  fs.mkdirSync(path.join(elsewhere, 'images'), { recursive: true });
  fs.writeFileSync(path.join(elsewhere, 'images', 'x.png'), await makeImage('png', 50, 50));
  assert.equal(await generateImageVariants('images/x.png', { root: elsewhere }), { medium: 'images/medium/x.png', thumbnail: 'images/thumbnail/x.png' });
  assert.ok(fs.existsSync(path.join(elsewhere, 'images', 'thumbnail', 'x.png')));
});

test('ensureUploadDirs: the five folders once, then nothing', () => {
  assert.equal(ensureUploadDirs(), ['.', 'images', 'images/medium', 'images/thumbnail', 'documents', 'tmp']);
  assert.equal(ensureUploadDirs(), []);
  assert.is(fs.statSync(path.join(root, 'documents')).mode & 0o777 & ~0o750, 0);
});

test.run();
