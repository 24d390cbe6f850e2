/**
 * `asset_url('tailwind.css')` in templates (docs/runtime.md "Static files"): the fingerprinted URL the manifest of
 * `fw build:assets` gives (`/static/tailwind.<hash>.css`), kept a year by browsers; the plain `/static/<name>` when
 * the file is not in it, or with `app_env` = `dev`, where static files change without a build. The manifest is
 * read once per static folder, at the first use.
 */
import { get, getPath, onConfigChange } from '../config.js';
import { FINGERPRINTED, IMMUTABLE_CACHE, PLAIN_CACHE, readAssetManifest } from '../http/assets.js';

let manifest: { dir: string; files: Map<string, string>; fingerprinted: Set<string> } | undefined;

onConfigChange((keys) => {
  if (keys.includes('static_dir') || keys.includes('project_root')) manifest = undefined;
});

function current(): NonNullable<typeof manifest> {
  const dir = getPath('static_dir');
  if (manifest?.dir !== dir) {
    const files = readAssetManifest(dir);
    manifest = { dir, files, fingerprinted: new Set(files.values()) };
  }
  return manifest;
}

/** Forgets the manifest read (after a new `fw build:assets` in the same process: tests). */
export function resetAssetManifest(): void {
  manifest = undefined;
}

/** The URL of a static file, by its name under `static/` (`js/app.js`). */
export function assetUrl(name: string): string {
  const plain = name.replace(/^\/+/, '').replace(/^static\//, '');
  if (get('app_env') === 'dev') return `/static/${plain}`;
  return `/static/${current().files.get(plain) ?? plain}`;
}

/**
 * The Cache-Control of `/static/<tail>`: a year and `immutable` for a fingerprinted name of the manifest; an hour
 * (then a revalidation) for a plain name, `no-cache` with `app_env` = `dev`.
 */
export function staticCacheControl(tail: string): string {
  if (FINGERPRINTED.test(tail) && current().fingerprinted.has(tail)) return IMMUTABLE_CACHE;
  return get('app_env') === 'dev' ? 'no-cache' : PLAIN_CACHE;
}
