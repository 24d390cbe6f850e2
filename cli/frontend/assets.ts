/**
 * What `fw build:assets` writes in a project's `static/` (docs/runtime.md "Static files"): for each file (the
 * Tailwind sources of `static/src/` left out) a copy under a fingerprinted name, `.gz` (gzip level 9) and `.br`
 * (brotli quality 11) beside the compressible ones and their copies when smaller, and `assets-manifest.json` from
 * plain names to fingerprinted ones, which `asset_url()` reads. Copies of the previous build are kept (a page
 * served just before a release may still ask for them); older ones are removed.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ASSET_MANIFEST, FINGERPRINTED, readAssetManifest } from '../../runtime/http/assets.js';

const COMPRESSIBLE = new Set(['.css', '.js', '.mjs', '.map', '.json', '.svg', '.html', '.txt', '.xml', '.webmanifest', '.ico']);
/** Below this, a compressed copy saves less than its headers cost. */
const MIN_COMPRESS = 256;

export interface AssetBuild {
  readonly files: number;
  readonly compressed: number;
  readonly removed: number;
  /** Bytes of the originals, of their gzip and their brotli copies (compressible files only). */
  readonly bytes: { readonly plain: number; readonly gzip: number; readonly brotli: number };
}

/** The files a build reads: every file but the sources, the manifest and what a build writes. */
function sources(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) {
      if (name !== 'src') out.push(...sources(dir, name));
    } else if (entry.isFile() && name !== ASSET_MANIFEST && !/\.(gz|br)$/.test(name) && !FINGERPRINTED.test(name)) out.push(name);
  }
  return out.sort();
}

/** Every fingerprinted file of the folder (with its compressed copies), by name. */
function written(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory() && name !== 'src') out.push(...written(dir, name));
    else if (entry.isFile() && FINGERPRINTED.test(name.replace(/\.(gz|br)$/, ''))) out.push(name);
  }
  return out;
}

/** Writes `bytes` to `file` with the mtime of `like`, unless it already holds them. */
function writeLike(file: string, bytes: Buffer, like: fs.Stats): void {
  const same = fs.existsSync(file) && fs.statSync(file).size === bytes.length && fs.readFileSync(file).equals(bytes);
  if (!same) fs.writeFileSync(file, bytes);
  fs.utimesSync(file, like.atime, like.mtime);
}

export function buildAssets(staticDir: string): AssetBuild {
  const previous = readAssetManifest(staticDir);
  const files: Record<string, string> = {};
  let compressed = 0;
  const bytes = { plain: 0, gzip: 0, brotli: 0 };
  for (const name of sources(staticDir)) {
    const file = path.join(staticDir, name);
    const content = fs.readFileSync(file);
    const stat = fs.statSync(file);
    const ext = path.extname(name);
    const hash = createHash('sha256').update(content).digest('hex').slice(0, 16);
    const fingerprinted = `${name.slice(0, name.length - ext.length)}.${hash}${ext}`;
    files[name] = fingerprinted;
    writeLike(path.join(staticDir, fingerprinted), content, stat);
    if (!COMPRESSIBLE.has(ext.toLowerCase()) || content.length < MIN_COMPRESS) continue;
    const gzip = zlib.gzipSync(content, { level: 9 });
    const brotli = zlib.brotliCompressSync(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    for (const [suffix, data] of [
      ['.gz', gzip],
      ['.br', brotli],
    ] as const) {
      for (const target of [name, fingerprinted]) {
        const out = path.join(staticDir, target + suffix);
        if (data.length < content.length) writeLike(out, data, stat);
        else fs.rmSync(out, { force: true });
      }
    }
    compressed++;
    bytes.plain += content.length;
    bytes.gzip += gzip.length;
    bytes.brotli += brotli.length;
  }
  const keep = new Set([...Object.values(files), ...previous.values()]);
  let removed = 0;
  for (const name of written(staticDir)) {
    if (keep.has(name.replace(/\.(gz|br)$/, ''))) continue;
    fs.rmSync(path.join(staticDir, name));
    removed++;
  }
  const manifest = { files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) };
  fs.writeFileSync(path.join(staticDir, ASSET_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return { files: Object.keys(files).length, compressed, removed, bytes };
}
