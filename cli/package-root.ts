/**
 * Locates the package of the running `fw` (the folder holding its package.json) from this compiled file: the
 * installed `fw-mvc-cli`, or this repository, whose package.json is named fw-mvc and holds both packages
 * (docs/install.md "Two packages").
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The runtime package, the one a generated project imports. */
export const PACKAGE_NAME = 'fw-mvc';
/** The package of the `fw` command, a development dependency of a project. */
export const CLI_PACKAGE_NAME = 'fw-mvc-cli';

export interface PackageInfo {
  /** Absolute path of the package folder. */
  readonly root: string;
  readonly version: string;
}

/**
 * Walks up from this file (dist/cli/package-root.js) to the first package.json named fw-mvc-cli or fw-mvc.
 * Reads at most a few small files: `fw --version` relies on it staying cheap.
 */
export function packageInfo(): PackageInfo {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = readManifest(path.join(dir, 'package.json'));
    if (manifest?.name === CLI_PACKAGE_NAME || manifest?.name === PACKAGE_NAME) return { root: dir, version: String(manifest.version ?? '0.0.0') };
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`package.json de ${PACKAGE_NAME} introuvable au-dessus de ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

function readManifest(file: string): { name?: unknown; version?: unknown } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
}
