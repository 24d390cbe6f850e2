/**
 * Image originals are stored without their metadata (docs/uploads.md "Metadata of originals"), on a real server:
 * JPEG, PNG and WebP uploads carrying EXIF (GPS position, camera serial), XMP, IPTC, comments and text chunks are
 * read back from disk and through GET /media/…: no metadata left (sharp's metadata and the bytes), the ICC profile
 * kept, the pixels identical; with EXIF orientation 6, a JPEG or PNG keeps that tag alone in a minimal EXIF block
 * (Chromium shows it turned, the variants are upright), a WebP is turned upright (Chromium ignores the tag there); the
 * size returned and the media row's are the stored file's; a damaged image is refused with no file left.
 */
import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemoryRateLimitStore, apiSuccess, closeDatabase, mediaUrl, saveUpload, setRateLimitStore, stripImageMetadata, type Router } from '../runtime/index.js';
import { attachMediaToEntity } from '../runtime/media/index.js';
import type { AuthDatabase } from './helpers/auth-client.js';
import { CHROMIUM, launchChromium } from './helpers/crud-browser.js';
import { startApp, type TestApp } from './helpers/server.js';
import { listFiles, makeJpeg, multipart, openMediaDatabase, uploadRoutes } from './helpers/uploads.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the functions given to evaluate run in the browser (no DOM types here) */

const SECRETS = ['Jean Secret', 'SecretCam', 'SN-123456', 'Secret XMP', 'Secret IPTC', 'Secret comment', 'Secret text'];
const CAMERA_EXIF = {
  IFD0: { Make: 'SecretCam', Model: 'Z-9', Artist: 'Jean Secret' },
  IFD2: { BodySerialNumber: 'SN-123456', DateTimeOriginal: '2026:01:02 03:04:05' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' },
};
const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Secret XMP"/></rdf:RDF></x:xmpmeta>';

/** Noise, so that a wrong rotation or a lossy step shows in the pixels. */
function noise(width: number, height: number, channels: 3 | 4 = 3): ReturnType<typeof sharp> {
  const raw = Buffer.alloc(width * height * channels);
  let seed = width * 7 + height;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = (seed >> 16) & 0xff;
  }
  return sharp(raw, { raw: { width, height, channels } });
}

function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** The Exif APP1 segment sharp writes for these tags (taken from a small JPEG). */
async function exifSegment(orientation: number): Promise<Buffer> {
  const donor = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
    .jpeg()
    .withMetadata({ orientation })
    .withExif(CAMERA_EXIF)
    .toBuffer();
  let at = 2;
  while (donor[at + 1] !== 0xe1) at += 2 + donor.readUInt16BE(at + 2);
  return donor.subarray(at, at + 2 + donor.readUInt16BE(at + 2));
}

/**
 * A P3 JPEG (ICC profile) with a JFIF thumbnail, EXIF with GPS and serial, XMP, IPTC (Photoshop APP13), a comment; and
 * after its end, a second JPEG with its own EXIF (as the extra pictures of an MPF file).
 */
async function cameraJpeg(width: number, height: number, orientation: number): Promise<Buffer> {
  const base = await noise(width, height).jpeg({ quality: 85 }).withIccProfile('p3').toBuffer();
  const iptc = Buffer.concat([
    Buffer.from('Photoshop 3.0\0' + '8BIM', 'latin1'),
    Buffer.from([4, 4, 0, 0, 0, 0, 0, 14, 0x1c, 2, 0x50, 0, 11]),
    Buffer.from('Secret IPTC'),
  ]);
  const extras = [
    await exifSegment(orientation),
    segment(0xe1, Buffer.from(`http://ns.adobe.com/xap/1.0/\0${XMP}`, 'latin1')),
    segment(0xed, iptc),
    segment(0xfe, Buffer.from('Secret comment', 'latin1')),
  ];
  // JFIF with a 2 × 1 thumbnail (a thumbnail may show the picture before it was cropped).
  const jfif = segment(0xe0, Buffer.concat([Buffer.from('JFIF\0', 'latin1'), Buffer.from([1, 1, 0, 0, 1, 0, 1, 2, 1]), Buffer.from('THUMB!', 'latin1')]));
  const afterFirst = 4 + base.readUInt16BE(4);
  const trailer = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .jpeg()
    .withExif(CAMERA_EXIF)
    .toBuffer();
  return Buffer.concat([base.subarray(0, 2), jfif, base.subarray(2, afterFirst), ...extras, base.subarray(afterFirst), trailer]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A P3 PNG with eXIf and XMP (from sharp), and tEXt, zTXt and tIME chunks before its first IDAT. */
async function cameraPng(width: number, height: number, orientation: number): Promise<Buffer> {
  const base = await noise(width, height, 4).png().withMetadata({ orientation }).withIccProfile('p3').withExif(CAMERA_EXIF).withXmp(XMP).toBuffer();
  const idat = base.indexOf('IDAT', 8, 'latin1') - 4;
  const extras = [
    pngChunk('tEXt', Buffer.from('Author\0Secret text', 'latin1')),
    pngChunk('zTXt', Buffer.from('Comment\0\0x\x9c\x03\x00\x00\x00\x00\x01', 'latin1')),
    pngChunk('tIME', Buffer.from([0x07, 0xea, 1, 2, 3, 4, 5])),
  ];
  return Buffer.concat([base.subarray(0, idat), ...extras, base.subarray(idat)]);
}

/** A P3 WebP (lossy or lossless) with EXIF and XMP chunks, as sharp writes them (VP8X flags set). */
function cameraWebp(width: number, height: number, orientation: number, lossless: boolean): Promise<Buffer> {
  return noise(width, height)
    .webp(lossless ? { lossless: true } : { quality: 90 })
    .withMetadata({ orientation })
    .withIccProfile('p3')
    .withExif(CAMERA_EXIF)
    .withXmp(XMP)
    .toBuffer();
}

const raw = (data: Buffer, autoOrient = false) => (autoOrient ? sharp(data).autoOrient() : sharp(data)).raw().toBuffer({ resolveWithObject: true });

let app: TestApp;
let root: string;
let database: AuthDatabase;

function mediaRoutes(router: Router): void {
  uploadRoutes(router);
  router.add(
    'POST',
    '/api/media',
    async (request) => {
      const saved = await saveUpload(request.files.file!, { category: 'images', variants: true });
      return apiSuccess(await attachMediaToEntity(saved, 'Photo', '1'), 201);
    },
    { public: true, csrf: false, api: true },
  );
}

test.before(async () => {
  database = await openMediaDatabase('sqlite');
  app = await startApp({ routes: mediaRoutes, config: database.config });
  root = path.join(app.project.root, 'storage', 'uploads');
});
test.after(async () => {
  await app?.close();
  setRateLimitStore(null);
  await closeDatabase();
  await database?.close();
});
// A fresh memory store for each test: some send more than 10 files.
test.before.each(() => setRateLimitStore(new MemoryRateLimitStore()));

interface Stored {
  path: string;
  size: number;
  variants?: { medium: string; thumbnail: string };
  disk: Buffer;
  served: Buffer;
}

/** Uploads through POST /api/upload and reads the original back from disk and through GET /media/…. */
async function upload(filename: string, type: string, data: Buffer, variants = true): Promise<Stored> {
  const { body, contentType } = multipart([
    { name: 'category', value: 'images' },
    ...(variants ? [{ name: 'variants', value: '1' }] : []),
    { name: 'file', filename, type, data },
  ]);
  const response = await app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': contentType }, body });
  assert.is(response.status, 201, response.text);
  const saved = response.json().data;
  const disk = fs.readFileSync(path.join(root, saved.path));
  const media = await fetch(`${app.base}${mediaUrl(saved.path)}`);
  assert.is(media.status, 200);
  const served = Buffer.from(await media.arrayBuffer());
  assert.ok(served.equals(disk), 'GET /media/… sends the stored bytes');
  assert.is(saved.size, disk.length, 'the size returned is the stored one');
  assert.is(media.headers.get('content-length'), String(disk.length));
  return { ...saved, disk, served };
}

/**
 * The tags of an EXIF block's IFD0 (an `Exif\0\0` prefix accepted), and the offset of the next IFD (0: none, so no
 * EXIF sub-IFD, GPS IFD nor thumbnail can hang from IFD1).
 */
function ifd0(block: Buffer): { tags: number[]; next: number; size: number } {
  const tiff = block.toString('latin1', 0, 6) === 'Exif\0\0' ? block.subarray(6) : block;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const at = u32(4);
  const count = u16(at);
  return { tags: Array.from({ length: count }, (_, i) => u16(at + 2 + 12 * i)), next: u32(at + 2 + 12 * count), size: tiff.length };
}

/**
 * No XMP nor IPTC for sharp, and none of the secret strings nor metadata markers in the bytes; no EXIF either, or
 * (`orientation` given) an EXIF block holding the Orientation tag (0x0112) alone, with that value.
 */
async function assertClean(
  bytes: Buffer,
  label: string,
  markers: readonly string[],
  orientation?: number,
): Promise<Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>> {
  const meta = await sharp(bytes).metadata();
  if (orientation === undefined) {
    assert.is(meta.exif, undefined, `${label}: EXIF`);
  } else {
    assert.ok(meta.exif, `${label}: the EXIF block with the orientation`);
    assert.equal(ifd0(meta.exif), { tags: [0x0112], next: 0, size: 26 }, `${label}: the Orientation tag alone, in 26 bytes`);
  }
  assert.is(meta.orientation, orientation, `${label}: orientation`);
  assert.is(meta.xmp, undefined, `${label}: XMP`);
  assert.is(meta.iptc, undefined, `${label}: IPTC`);
  for (const text of [...SECRETS, ...markers]) assert.not.ok(bytes.includes(text, 0, 'latin1'), `${label}: « ${text} » left in the bytes`);
  return meta;
}

/** What Chromium's <img> reports for the stored original (naturalWidth and naturalHeight follow the EXIF orientation). */
async function browserSizes(paths: string[]): Promise<number[][]> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const sources = paths.map((stored) => `${app.base}${mediaUrl(stored)}`);
    await page.setContent(sources.map((src) => `<img src="${src}">`).join(''));
    return await page.locator('img').evaluateAll((images: any[]) =>
      Promise.all(
        images.map(async (img) => {
          await img.decode();
          return [img.naturalWidth as number, img.naturalHeight as number];
        }),
      ),
    );
  } finally {
    await browser.close();
  }
}

test('JPEG, orientation 1: EXIF (GPS, serial), XMP, IPTC, comment and trailing picture cut out; ICC and pixels kept', async () => {
  const input = await cameraJpeg(640, 480, 1);
  const before = await sharp(input).metadata();
  assert.ok(before.exif && before.xmp && before.iptc && before.icc, 'the test image carries every kind of metadata');
  assert.ok(input.includes('SN-123456', 0, 'latin1'));
  const stored = await upload('Vacances.jpg', 'image/jpeg', input);
  const meta = await assertClean(stored.disk, 'jpeg', ['Exif\0\0', 'http://ns.adobe.com/xap', 'Photoshop 3.0', '8BIM', 'THUMB!']);
  assert.equal([...stored.disk.subarray(0, 6)], [0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF kept, without its thumbnail');
  assert.equal([meta.format, meta.width, meta.height], ['jpeg', 640, 480]);
  assert.ok(meta.icc?.equals(before.icc!), 'the ICC profile is kept as is');
  const [a, b] = [await raw(input), await raw(stored.disk)];
  assert.ok(a.data.equals(b.data), 'same pixels: the compressed picture was not touched');
  assert.ok(stored.size < input.length);
  assert.is(stored.disk.readUInt16BE(stored.disk.length - 2), 0xffd9, "ends at the first picture's end marker");
  for (const variant of Object.values(stored.variants!)) await assertClean(fs.readFileSync(path.join(root, variant)), variant, []);
});

test('JPEG and PNG, orientation 6: pixels untouched, the Orientation tag alone kept; Chromium and the variants show them upright', async () => {
  const input = await cameraJpeg(640, 480, 6);
  assert.is((await sharp(input).metadata()).orientation, 6);
  const stored = await upload('Portrait.jpg', 'image/jpeg', input);
  const meta = await assertClean(stored.disk, 'jpeg 6', ['http://ns.adobe.com/xap', 'Photoshop 3.0', '8BIM', 'THUMB!'], 6);
  assert.equal([meta.format, meta.width, meta.height], ['jpeg', 640, 480], 'stored as it came, not turned');
  assert.ok(meta.icc?.equals((await sharp(input).metadata()).icc!), 'the ICC profile is kept as is');
  assert.ok((await raw(input)).data.equals((await raw(stored.disk)).data), 'same pixels: the compressed picture was not touched');
  // SOI, JFIF without its thumbnail, then the minimal Exif segment: big-endian TIFF header, one entry.
  assert.equal([...stored.disk.subarray(0, 6)], [0xff, 0xd8, 0xff, 0xe0, 0, 16]);
  assert.equal(stored.disk.toString('latin1', 20, 38), '\xff\xe1\x00\x22Exif\0\0MM\x00\x2a\x00\x00\x00\x08');
  assert.is(stored.disk.indexOf('Exif\0\0', 0, 'latin1'), stored.disk.lastIndexOf('Exif\0\0', undefined, 'latin1'), 'one Exif block');
  assert.ok(stored.size < input.length);
  const medium = await sharp(path.join(root, stored.variants!.medium)).metadata();
  assert.equal([medium.width, medium.height, medium.orientation, medium.exif], [480, 640, undefined, undefined], 'the variants are upright, without EXIF');
  assert.ok((await raw(input, true)).data.equals((await raw(stored.disk, true)).data), 'sharp turns it as it turned the input');

  const pngInput = await cameraPng(300, 200, 6);
  const png = await upload('tourne.png', 'image/png', pngInput);
  const pngMeta = await assertClean(png.disk, 'png 6', ['tEXt', 'iTXt', 'zTXt', 'tIME', 'com.adobe.xmp'], 6);
  assert.equal([pngMeta.width, pngMeta.height], [300, 200]);
  assert.ok(pngMeta.icc, 'ICC kept');
  assert.ok((await raw(pngInput)).data.equals((await raw(png.disk)).data), 'same pixels');
  assert.ok(png.disk.indexOf('eXIf', 0, 'latin1') < png.disk.indexOf('IDAT', 0, 'latin1'), 'eXIf before the first IDAT');
  const pngMedium = await sharp(path.join(root, png.variants!.medium)).metadata();
  assert.equal([pngMedium.width, pngMedium.height, pngMedium.exif], [200, 300, undefined]);

  // A missing browser is a failure, never a silent skip: CI (.ci/run) installs Debian's chromium.
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} est introuvable`);
  assert.equal(
    await browserSizes([stored.path, png.path]),
    [
      [480, 640],
      [200, 300],
    ],
    'Chromium applies the orientation',
  );
});

test('PNG: eXIf, tEXt, iTXt (XMP), zTXt, tIME removed, ICC and pixels kept', async () => {
  const input = await cameraPng(300, 200, 1);
  const before = await sharp(input).metadata();
  assert.ok(before.exif && before.xmp && before.icc);
  const stored = await upload('schema.png', 'image/png', input);
  const meta = await assertClean(stored.disk, 'png', ['eXIf', 'tEXt', 'iTXt', 'zTXt', 'tIME', 'com.adobe.xmp']);
  assert.equal([meta.format, meta.width, meta.height], ['png', 300, 200]);
  assert.ok(meta.icc?.equals(before.icc!));
  assert.ok((await raw(input)).data.equals((await raw(stored.disk)).data), 'same pixels');
});

test('WebP, lossy and lossless: EXIF and XMP chunks removed, VP8X flags fixed, ICC and pixels kept; orientation 6 turned upright', async () => {
  for (const lossless of [false, true]) {
    const input = await cameraWebp(320, 240, 1, lossless);
    const before = await sharp(input).metadata();
    assert.ok(before.exif && before.xmp && before.icc);
    const stored = await upload(`photo-${lossless}.webp`, 'image/webp', input);
    const meta = await assertClean(stored.disk, `webp ${lossless}`, ['EXIF', 'XMP ']);
    assert.equal([meta.format, meta.width, meta.height], ['webp', 320, 240]);
    assert.ok(meta.icc?.equals(before.icc!));
    assert.is(stored.disk[20]! & 0x0c, 0, 'VP8X: EXIF and XMP flags cleared');
    assert.is(stored.disk[20]! & 0x20, 0x20, 'VP8X: ICC flag kept');
    assert.is(stored.disk.readUInt32LE(4), stored.disk.length - 8, 'RIFF size');
    assert.ok((await raw(input)).data.equals((await raw(stored.disk)).data), 'same pixels');
  }
  // Chromium ignores a WebP's EXIF orientation: the picture is turned and re-encoded (losslessly here).
  const input = await cameraWebp(320, 240, 6, true);
  const turned = await upload('tourne.webp', 'image/webp', input);
  const meta = await assertClean(turned.disk, 'webp 6', ['EXIF', 'XMP ']);
  assert.equal([meta.width, meta.height], [240, 320]);
  assert.ok((await raw(input, true)).data.equals((await raw(turned.disk)).data), 'a lossless WebP stays lossless when turned');
});

test('without variants and in another category too; an image without metadata is stored byte for byte', async () => {
  const plain = await makeJpeg(200, 100);
  const same = await upload('plain.jpg', 'image/jpeg', plain, false);
  assert.ok(same.disk.equals(plain));
  const { body, contentType } = multipart([{ name: 'file', filename: 'scan.jpg', type: 'image/jpeg', data: await cameraJpeg(200, 100, 1) }]);
  const response = await app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': contentType }, body });
  assert.is(response.status, 201, response.text);
  assert.match(response.json().data.path, /^documents\//);
  await assertClean(fs.readFileSync(path.join(root, response.json().data.path)), 'documents', ['Exif\0\0']);
});

test('the media row records the stored size', async () => {
  const input = await cameraJpeg(400, 300, 1);
  const { body, contentType } = multipart([{ name: 'file', filename: 'photo.jpg', type: 'image/jpeg', data: input }]);
  const response = await app.fetch('/api/media', { method: 'POST', headers: { 'content-type': contentType }, body });
  assert.is(response.status, 201, response.text);
  const record = response.json().data;
  const size = fs.statSync(path.join(root, record.path)).size;
  assert.is(record.size, size);
  assert.ok(size < input.length);
  const row = await database.db.fetchOne<{ size: unknown }>('SELECT size FROM media WHERE id = ?', [record.id]);
  assert.is(Number(row?.size), size);
});

test('a damaged or disguised image is refused (422) with no file left, with or without variants', async () => {
  const good = await cameraJpeg(400, 300, 1);
  const badLength = Buffer.from(good);
  badLength.writeUInt16BE(0xfff0, 4 + good.readUInt16BE(4) + 2);
  const png = await cameraPng(60, 40, 1);
  const badCrc = Buffer.from(png);
  const inIdat = png.indexOf('IDAT') + 10;
  badCrc.writeUInt8(badCrc.readUInt8(inIdat) ^ 0xff, inIdat);
  const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
    .gif()
    .toBuffer();
  const cases: Array<[string, string, Buffer]> = [
    ['tronque.jpg', 'image/jpeg', good.subarray(0, good.length - 3000)],
    ['longueur.jpg', 'image/jpeg', badLength],
    ['crc.png', 'image/png', badCrc],
    ['anime.png', 'image/png', gif],
    ['texte.webp', 'image/webp', Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 \x04\x00\x00\x00abcd', 'latin1')],
    ['vide.jpg', 'image/jpeg', Buffer.alloc(0)],
  ];
  const before = listFiles(root);
  for (const variants of [true, false]) {
    for (const [filename, type, data] of cases) {
      setRateLimitStore(new MemoryRateLimitStore());
      const { body, contentType } = multipart([
        { name: 'category', value: 'images' },
        ...(variants ? [{ name: 'variants', value: '1' }] : []),
        { name: 'file', filename, type, data },
      ]);
      const response = await app.fetch('/api/upload', { method: 'POST', headers: { 'content-type': contentType, accept: 'application/json' }, body });
      assert.is(response.status, 422, `${filename} (variants ${variants}): ${response.text}`);
      assert.match(response.json().error.message, /pas une image lisible/);
    }
  }
  assert.equal(listFiles(root), before);
});

test('stripImageMetadata, exported for saveBytes callers: the same bytes saveUpload stores', async () => {
  const input = await cameraJpeg(120, 90, 1);
  const clean = await stripImageMetadata(input, 'a.jpg');
  await assertClean(clean, 'exported', ['Exif\0\0']);
  assert.ok((await raw(input)).data.equals((await raw(clean)).data));
});

test.run();
