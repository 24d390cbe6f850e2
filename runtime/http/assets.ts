/**
 * The assets `fw build:assets` prepares in `static/` (docs/runtime.md "Static files"): a copy of each file under a
 * fingerprinted name (`tailwind.<16 hex digits>.css`, the start of its SHA-256), `.gz` and `.br` files beside the
 * compressible ones, and the manifest `assets-manifest.json` from plain names to fingerprinted ones. Node built-ins only.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ASSET_MANIFEST = 'assets-manifest.json';
/** A fingerprinted name: `<base>.<16 hex digits>.<extension>`. */
export const FINGERPRINTED = /\.[0-9a-f]{16}\.[A-Za-z0-9]+$/;
/** What a fingerprinted file is given: its content never changes under that name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** What a plain name is given outside development: an hour, then a revalidation. */
export const PLAIN_CACHE = 'public, max-age=3600, must-revalidate';

/** Plain name (relative to `static/`, `/`-separated) → fingerprinted name; empty when there is no manifest. */
export function readAssetManifest(staticDir: string): Map<string, string> {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(staticDir, ASSET_MANIFEST), 'utf8')) as { files?: Record<string, unknown> };
    const files = data.files ?? {};
    return new Map(Object.entries(files).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return new Map();
  }
}

/** The precompressed encodings a client takes, best first (`br`, then `gzip`), from its `Accept-Encoding`. */
export function acceptedEncodings(header: string | undefined): Array<'br' | 'gzip'> {
  if (!header) return [];
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name!.trim(), qParam ? Number(qParam.slice(2)) : 1);
  }
  const takes = (name: string): boolean => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).filter(takes);
}
