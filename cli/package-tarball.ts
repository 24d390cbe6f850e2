/**
 * Packs a package into the tarball `npm pack` would make (same file list, `package/` prefix, fixed modification
 * time), in memory and without npm: `fw new` puts the framework's two packages in the project's vendor/ folder so
 * that the project installs from any folder (docs/install.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface PackedPackage {
  /** `<name>-<version>.tgz`, as npm pack names it. */
  readonly fileName: string;
  readonly content: Buffer;
  /** The packed paths, relative to the package folder, with `/`. */
  readonly files: readonly string[];
}

/** The fields of package.json that packing reads. */
export interface PackageManifest {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly files?: unknown;
  readonly bin?: unknown;
  readonly main?: unknown;
  readonly exports?: unknown;
}

const PACKAGE_JSON = 'package.json';

/** npm pack's fixed modification time, so that the same files give the same tarball. */
const MTIME_SECONDS = Date.UTC(1985, 9, 26, 8, 15, 0) / 1000;

/** Names npm never packs, wherever they are. */
const IGNORED_NAMES = new Set(['.git', '.svn', '.hg', 'CVS', '.npmrc', '.DS_Store', 'npm-debug.log', '.npmignore', '.gitignore', 'node_modules']);
/** Root files npm never packs. */
const IGNORED_AT_ROOT = new Set(['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', '.lock-wscript']);
/** Root files npm always packs, whatever `files` says. */
const ALWAYS_AT_ROOT = /^(readme|copying|license|licence)(\..*[^~$])?$/i;

export interface PackOptions {
  /** The text of the packed package.json, when it is not the folder's own (the file list is read from it). */
  readonly manifest?: string;
  /** Turns a file's content into the packed one (`file` relative, with `/`); package.json is never given to it. */
  readonly transform?: (file: string, content: Buffer) => Buffer;
}

/** Packs `root` (a folder holding a package.json, or given one, with a name and a version). */
export function packPackage(root: string, options: PackOptions = {}): PackedPackage {
  const manifestText = options.manifest ?? fs.readFileSync(path.join(root, PACKAGE_JSON), 'utf8');
  const manifest = parseManifest(manifestText, options.manifest === undefined ? path.join(root, PACKAGE_JSON) : PACKAGE_JSON);
  const name = String(manifest.name);
  const version = String(manifest.version);
  const files = packageFiles(root, manifest);
  const packed = new Set(files);
  const missing = exportTargets(manifest.exports).filter((target) => !packed.has(target));
  if (missing.length > 0) throw new Error(`fichiers annoncés par « exports » absents (paquet non compilé ?) : ${missing.join(', ')}`);
  const transform = options.transform ?? ((_: string, original: Buffer) => original);
  const blocks: Buffer[] = [];
  for (const file of files) {
    const source = path.join(root, ...file.split('/'));
    const content = file === PACKAGE_JSON ? Buffer.from(manifestText) : transform(file, fs.readFileSync(source));
    const executable = file !== PACKAGE_JSON && (fs.statSync(source).mode & 0o111) !== 0;
    blocks.push(tarHeader(`package/${file}`, content.length, executable ? 0o755 : 0o644), content, padding(content.length));
  }
  blocks.push(Buffer.alloc(1024));
  const fileName = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
  return { fileName, content: gzipSync(Buffer.concat(blocks)), files };
}

/**
 * The files npm pack takes from `root`, sorted: package.json, the readme and licence files, the `bin` and `main`
 * files, and everything under the entries of `files` (the whole folder when there is no `files`), less what npm
 * always leaves out. Entries of `files` are plain paths (no glob patterns); symbolic links are skipped as npm does.
 */
export function packageFiles(root: string, manifest: PackageManifest): string[] {
  const found = new Set<string>([PACKAGE_JSON]);
  const rootEntries = fs.readdirSync(root, { withFileTypes: true });
  for (const entry of rootEntries) if (entry.isFile() && ALWAYS_AT_ROOT.test(entry.name)) found.add(entry.name);
  const extra = [...binFiles(manifest.bin), ...(typeof manifest.main === 'string' ? [manifest.main] : [])];
  for (const file of extra) {
    const relative = path.posix.normalize(file.replaceAll('\\', '/')).replace(/^\.\//, '');
    if (fs.statSync(path.join(root, relative), { throwIfNoEntry: false })?.isFile()) found.add(relative);
  }
  if (manifest.files === undefined) {
    for (const entry of rootEntries) {
      if (!IGNORED_AT_ROOT.has(entry.name)) walk(root, entry.name, found);
    }
  } else {
    if (!Array.isArray(manifest.files)) throw new Error(`${PACKAGE_JSON} : « files » doit être une liste`);
    for (const item of manifest.files) {
      const entry = String(item)
        .replace(/^\.?\//, '')
        .replace(/\/\*{0,2}$/, '');
      if (/[*?[\]{}!]/.test(entry)) throw new Error(`${PACKAGE_JSON} : motif non pris en charge dans « files » : ${String(item)}`);
      walk(root, entry, found);
    }
  }
  return [...found].sort();
}

function parseManifest(text: string, where: string): PackageManifest {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${where} n'est pas un objet JSON`);
  const manifest = parsed as PackageManifest;
  if (typeof manifest.name !== 'string' || typeof manifest.version !== 'string') {
    throw new Error(`${where} : « name » et « version » sont requis pour empaqueter`);
  }
  return manifest;
}

/** The files named by `exports` (conditions and subpaths), relative to the package folder. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return exports.includes('*') ? [] : [path.posix.normalize(exports).replace(/^\.\//, '')];
  if (typeof exports === 'object' && exports !== null) return Object.values(exports).flatMap(exportTargets);
  return [];
}

function binFiles(bin: unknown): string[] {
  if (typeof bin === 'string') return [bin];
  if (typeof bin === 'object' && bin !== null) return Object.values(bin).filter((file): file is string => typeof file === 'string');
  return [];
}

/** Adds `relative` (a file, or every file under a folder) to `found`; missing entries are skipped, as npm does. */
function walk(root: string, relative: string, found: Set<string>): void {
  const name = path.posix.basename(relative);
  if (isIgnored(name)) return;
  const stat = fs.lstatSync(path.join(root, ...relative.split('/')), { throwIfNoEntry: false });
  if (stat?.isFile()) found.add(relative);
  else if (stat?.isDirectory()) {
    for (const entry of fs.readdirSync(path.join(root, ...relative.split('/'))).sort()) walk(root, `${relative}/${entry}`, found);
  }
}

function isIgnored(name: string): boolean {
  return IGNORED_NAMES.has(name) || name.endsWith('.orig') || name.startsWith('._') || /^\..*\.swp$/.test(name);
}

/** A ustar header; a path longer than 100 bytes is split into prefix and name at a `/`. */
function tarHeader(file: string, size: number, mode: number): Buffer {
  const header = Buffer.alloc(512);
  const { name, prefix } = splitPath(file);
  header.write(name, 0, 100, 'utf8');
  writeOctal(header, mode, 100, 8);
  writeOctal(header, 0, 108, 8);
  writeOctal(header, 0, 116, 8);
  writeOctal(header, size, 124, 12);
  writeOctal(header, MTIME_SECONDS, 136, 12);
  header.write('        ', 148, 8, 'ascii');
  header.write('0', 156, 1, 'ascii');
  header.write('ustar\u000000', 257, 8, 'ascii');
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return header;
}

function splitPath(file: string): { name: string; prefix: string } {
  if (Buffer.byteLength(file) <= 100) return { name: file, prefix: '' };
  for (let slash = file.indexOf('/'); slash > 0; slash = file.indexOf('/', slash + 1)) {
    const prefix = file.slice(0, slash);
    const name = file.slice(slash + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`chemin trop long pour l'archive : ${file}`);
}

function writeOctal(header: Buffer, value: number, offset: number, length: number): void {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\u0000`, offset, length, 'ascii');
}

function padding(size: number): Buffer {
  return Buffer.alloc((512 - (size % 512)) % 512);
}
