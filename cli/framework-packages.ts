/**
 * The two packages of the framework that `fw new` puts in a project's vendor/ folder (docs/install.md "Two
 * packages"): `fw-mvc`, the runtime a deployed project installs alone, and `fw-mvc-cli`, the `fw` command, its
 * compiler, emitters and templates, a development dependency. From this repository both are made from the one
 * build with manifests written here; from a project, each is packed again from its installed folder as it is.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CliError } from './errors.js';
import { CLI_PACKAGE_NAME, PACKAGE_NAME } from './package-root.js';

/** What one package holds. */
interface PackageContent {
  readonly name: string;
  readonly description: string;
  /** The `files` of its package.json: folders of the build, plain paths. */
  readonly files: readonly string[];
  /** The npm packages its code imports; their ranges are the repository's package.json `dependencies`. */
  readonly dependencies: readonly string[];
}

export const RUNTIME_CONTENT: PackageContent = {
  name: PACKAGE_NAME,
  description: 'Server-rendered MVC web framework for TypeScript: the runtime a generated project imports',
  // The schemas and the docs carry no dependency: they stay where a project's files point (the entity files'
  // `$schema`, .vscode/settings.json, `node_modules/fw-mvc/docs/…` in messages and READMEs).
  files: ['dist/runtime/', 'runtime/views/', 'runtime/static/', 'runtime/i18n/', 'schemas/', 'docs/'],
  dependencies: [
    'argon2',
    'better-sqlite3',
    'busboy',
    'cookie',
    'cron-parser',
    'kysely',
    'mysql2',
    'nodemailer',
    'nunjucks',
    'otplib',
    'prom-client',
    'qrcode',
    'redis',
    'sharp',
  ],
};

export const CLI_CONTENT: PackageContent = {
  name: CLI_PACKAGE_NAME,
  description: 'The fw command of fw-mvc: project creation, generators and checks (a development dependency of a project)',
  files: ['bin/', 'dist/cli/', 'dist/compiler/', 'dist/emitters/', 'schemas/', 'cli/templates/', 'emitters/crud/stubs/'],
  dependencies: ['ajv', 'argon2', 'better-sqlite3', 'commander', 'node-diff3', 'nunjucks', 'ts-morph', 'tsx'],
};

/** The subpath of `fw-mvc` through which the installed CLI reaches the runtime's modules (`./dist/runtime/*`). */
export const INTERNAL_SUBPATH = 'fw-mvc/internal/';

/** One package ready to pack: where its files are, the package.json it gets, and what changes in its files. */
export interface PackageSource {
  readonly name: string;
  readonly root: string;
  /** The text of the packed package.json. */
  readonly manifest: string;
  readonly transform?: (file: string, content: Buffer) => Buffer;
}

export interface FrameworkPackages {
  readonly version: string;
  readonly runtime: PackageSource;
  readonly cli: PackageSource;
}

interface Manifest {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly type?: unknown;
  readonly license?: unknown;
  readonly engines?: unknown;
  readonly exports?: unknown;
  readonly bin?: unknown;
  readonly dependencies?: Record<string, string>;
}

/**
 * The packages of the framework whose `fw` runs from `cliRoot` (packageInfo().root): this repository (its
 * package.json is named fw-mvc and holds both), or an installed `fw-mvc-cli` next to its `fw-mvc`.
 */
export function frameworkPackages(cliRoot: string): FrameworkPackages {
  const manifest = readManifest(cliRoot);
  const version = String(manifest.version);
  if (manifest.name === PACKAGE_NAME) {
    return {
      version,
      runtime: { name: PACKAGE_NAME, root: cliRoot, manifest: manifestText(runtimeManifest(manifest)) },
      cli: { name: CLI_PACKAGE_NAME, root: cliRoot, manifest: manifestText(cliManifest(manifest)), transform: runtimeImportsThroughPackage },
    };
  }
  const runtimeRoot = installedRuntime(cliRoot);
  const runtimeVersion = String(readManifest(runtimeRoot).version);
  if (runtimeVersion !== version) {
    throw new CliError(
      `${CLI_PACKAGE_NAME} ${version} et ${PACKAGE_NAME} ${runtimeVersion} n'ont pas la même version.`,
      `installez les deux paquets de la même version (vendor/ du projet, puis « npm install ») : docs/upgrading.md.`,
    );
  }
  return {
    version,
    runtime: { name: PACKAGE_NAME, root: runtimeRoot, manifest: fs.readFileSync(path.join(runtimeRoot, 'package.json'), 'utf8') },
    cli: { name: CLI_PACKAGE_NAME, root: cliRoot, manifest: fs.readFileSync(path.join(cliRoot, 'package.json'), 'utf8') },
  };
}

/** The runtime's package.json, made from the repository's. */
export function runtimeManifest(repository: Manifest): Record<string, unknown> {
  return {
    name: RUNTIME_CONTENT.name,
    version: repository.version,
    description: RUNTIME_CONTENT.description,
    type: repository.type,
    license: repository.license,
    engines: repository.engines,
    exports: repository.exports,
    dependencies: ranges(repository, RUNTIME_CONTENT.dependencies),
    files: RUNTIME_CONTENT.files,
  };
}

/** The CLI's package.json, made from the repository's: the `fw` bin, and the runtime of the same version as a peer. */
export function cliManifest(repository: Manifest): Record<string, unknown> {
  return {
    name: CLI_CONTENT.name,
    version: repository.version,
    description: CLI_CONTENT.description,
    type: repository.type,
    license: repository.license,
    engines: repository.engines,
    bin: repository.bin,
    dependencies: ranges(repository, CLI_CONTENT.dependencies),
    peerDependencies: { [PACKAGE_NAME]: repository.version },
    files: CLI_CONTENT.files,
  };
}

/**
 * The CLI's compiled files import the runtime by relative paths (`../../runtime/db/index.js`), which hold in this
 * repository where `dist/runtime/` is next to them. In the CLI package they become `fw-mvc/internal/db/index.js`,
 * the same module of the project's installed fw-mvc (so the CLI and the project's code share one runtime).
 */
export function runtimeImportsThroughPackage(file: string, content: Buffer): Buffer {
  if (!file.startsWith('dist/') || !(file.endsWith('.js') || file.endsWith('.d.ts'))) return content;
  const text = content.toString('utf8');
  const rewritten = text.replace(IMPORT_SPECIFIER, (whole, before: string, quote: string, specifier: string) => {
    const target = path.posix.join(path.posix.dirname(file), specifier);
    if (!target.startsWith('dist/runtime/')) return whole;
    return `${before}${quote}${INTERNAL_SUBPATH}${target.slice('dist/runtime/'.length)}${quote}`;
  });
  return rewritten === text ? content : Buffer.from(rewritten);
}

/** A relative module specifier after `from`, `import` or `import(`, in compiled JavaScript and declarations. */
const IMPORT_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"\n]*)\2/g;

function ranges(repository: Manifest, names: readonly string[]): Record<string, string> {
  const declared = repository.dependencies ?? {};
  const missing = names.filter((name) => typeof declared[name] !== 'string');
  if (missing.length > 0) {
    throw new CliError(
      `package.json du dépôt de fw-mvc : « dependencies » ne donne pas la version de ${missing.join(', ')}.`,
      'ajoutez-les à « dependencies » (cli/framework-packages.ts dit de quels paquets dépend chacun des deux paquets du framework).',
    );
  }
  return Object.fromEntries(names.map((name) => [name, declared[name]!]));
}

function manifestText(manifest: Record<string, unknown>): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The folder of the `fw-mvc` the installed CLI resolves (the project's, next to it in node_modules). */
function installedRuntime(cliRoot: string): string {
  try {
    return path.dirname(createRequire(path.join(cliRoot, 'package.json')).resolve(`${PACKAGE_NAME}/package.json`));
  } catch {
    throw new CliError(
      `${PACKAGE_NAME} est introuvable à côté de ${CLI_PACKAGE_NAME} (${cliRoot}).`,
      `installez ${PACKAGE_NAME} de la même version dans le projet (« npm install ») : docs/install.md.`,
    );
  }
}

function readManifest(root: string): Manifest {
  const file = path.join(root, 'package.json');
  const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as Manifest).version !== 'string') {
    throw new Error(`${file} : « version » est requise pour empaqueter`);
  }
  return parsed;
}
