/**
 * What the upload tests share: real images made with sharp (an EXIF orientation when asked), multipart bodies
 * built by hand, the list of files under a folder, a small test app with the JSON upload endpoint of docs/uploads.md
 * ("Errors"), and a database holding the `media` table and the attempt table of the rate limit.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { UploadError, apiError, apiSuccess, guardUpload, requestSession, saveUpload, type Router } from '../../runtime/index.js';
import { mediaTableStatements } from '../../runtime/media/schema.js';
import { openAuthDatabase, type AuthDatabase } from './auth-client.js';
import type { DialectName } from '../../runtime/db/index.js';

/** A JPEG of that size (noise, so that it does not compress to nothing), with an EXIF orientation when given. */
export async function makeJpeg(width: number, height: number, options: { orientation?: number; quality?: number } = {}): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = width * 31 + height;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = (seed >> 16) & 0xff;
  }
  let image = sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: options.quality ?? 80 });
  if (options.orientation)
    image = image.withMetadata({ orientation: options.orientation, exif: { IFD0: { Copyright: 'fw-mvc test', Artist: 'Secret Artist' } } });
  return image.toBuffer();
}

/** A flat PNG or WebP image of that size. */
export async function makeImage(format: 'png' | 'webp', width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .toFormat(format)
    .toBuffer();
}

export type Part = { name: string; value: string } | { name: string; filename: string; type?: string; data: Buffer | string };

/** A `multipart/form-data` body and its Content-Type. */
export function multipart(parts: readonly Part[]): { body: Buffer; contentType: string } {
  const boundary = `----fwtest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      const type = part.type ?? 'application/octet-stream';
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${type}\r\n\r\n`),
      );
      chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
      chunks.push(Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Every file under `dir`, relative and sorted (folders are not listed; [] when `dir` does not exist). */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else out.push(relative);
    }
  };
  if (fs.existsSync(dir)) walk('');
  return out.sort();
}

/**
 * The upload flow of docs/uploads.md as a JSON endpoint: `POST /api/upload` (fields `file`, `category`, `variants=1`) answers
 * 201 with the SavedUpload, 422 `validation_error` naming the field for a missing file or a refused one, 429 past the
 * upload limit. `POST /api/files` lists the files of the field `photos` (a multiple input). `GET /signin` opens a signed-in session; `GET /login` stands for the login page.
 */
export function uploadRoutes(router: Router): void {
  router.add(
    'POST',
    '/api/upload',
    async (request) => {
      const limited = await guardUpload(request, { api: true });
      if (limited) return limited;
      const file = request.files.file;
      if (!file || file.filename === '') return apiError('Le champ « file » est requis.', 422, 'validation_error', { file: 'Choisissez un fichier.' });
      try {
        const saved = await saveUpload(file, { category: request.field('category') ?? 'documents', variants: request.field('variants') === '1' });
        return apiSuccess(saved, 201);
      } catch (err) {
        if (err instanceof UploadError && err.status === 422) return apiError(err.message, 422, 'validation_error', { file: err.message });
        throw err;
      }
    },
    { public: true, csrf: false, api: true },
  );
  router.add('POST', '/api/files', (request) => apiSuccess(request.getFiles('photos').map((f) => [f.filename, f.size])), {
    public: true,
    csrf: false,
    api: true,
  });
  router.add(
    'GET',
    '/signin',
    (request) => {
      requestSession(request).set('user', { id: 1, email: 'a@example.test' });
      return apiSuccess({ ok: true });
    },
    { public: true },
  );
  router.add('GET', '/login', () => apiSuccess({ login: true }), { public: true });
}

/** The auth tables (the attempt table of RATE_LIMIT_STORE=database among them) and the `media` table, on a fresh database. */
export async function openMediaDatabase(dialect: DialectName): Promise<AuthDatabase> {
  const database = await openAuthDatabase(dialect);
  for (const statement of mediaTableStatements(dialect)) await database.db.execute(statement);
  return {
    ...database,
    async reset() {
      await database.db.execute('DELETE FROM media');
      await database.reset();
    },
  };
}
