/**
 * The media SQL files as `db:apply` sees them (docs/uploads.md "The media table"), and the upload root of a project
 * as the CLI finds it: `UPLOAD_ROOT` from the process or `env/<APP_ENV|dev>`, else `storage/uploads`, from the
 * project root (the project's config.ts passes the same variable to the `upload_root` key).
 */
import fs from 'node:fs';
import path from 'node:path';
import { hasGeneratedMarker } from '../../emitters/marker.js';
import { mediaSqlContent, mediaSqlPath } from '../../emitters/media/sql-files.js';
import { DIALECT_NAMES, type DialectName } from '../../runtime/db/dialect.js';
import { loadEnv } from '../../runtime/env.js';

/** The default upload root of a project, relative to its root (the `upload_root` configuration key's default). */
export const DEFAULT_UPLOAD_ROOT = 'storage/uploads';

/** The project's upload root, absolute (loads `env/<APP_ENV|dev>` into process.env first, the process winning). */
export function projectUploadRoot(root: string): string {
  loadEnv(root);
  const configured = (process.env.UPLOAD_ROOT ?? '').trim();
  return path.resolve(root, configured === '' ? DEFAULT_UPLOAD_ROOT : configured);
}

/**
 * The media SQL file `db:apply` runs after the auth tables, for `dialect`: none when the project has neither media
 * file (no `fw media:init`), else the file as it is on disk (one the user took over included). A missing file, or
 * one still marked as generated that differs from what `media:init` writes, is a problem: nothing is applied.
 */
export function mediaFilesToApply(root: string, dialect: DialectName): { files: Array<{ path: string; text: string }>; problems: string[] } {
  const present = DIALECT_NAMES.filter((d) => fs.statSync(path.join(root, mediaSqlPath(d)), { throwIfNoEntry: false })?.isFile());
  if (present.length === 0) return { files: [], problems: [] };
  const file = mediaSqlPath(dialect);
  const absolute = path.join(root, file);
  if (!present.includes(dialect)) return { files: [], problems: [`${file} (absent)`] };
  const text = fs.readFileSync(absolute, 'utf8');
  if (text !== mediaSqlContent(dialect) && hasGeneratedMarker(text)) return { files: [], problems: [`${file} (périmé)`] };
  return { files: [{ path: file, text }], problems: [] };
}
