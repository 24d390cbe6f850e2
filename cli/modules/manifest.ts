/**
 * A local module and its manifest `modules/<name>/module.json` (docs/decisions.md#local-modules; docs/modules.md): read strictly
 * (line and column of a syntax error, duplicated keys), checked by `schemas/module.schema.json`, then for meaning:
 * the name is the folder's, every declared kind has a folder inside the module, reached without `..` and without
 * a symbolic link. Every problem names the file and the JSON pointer of the field; nothing here writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DiagnosticList, formatDiagnostics, pointerTo } from '../../compiler/diagnostics.js';
import type { Diagnostic } from '../../compiler/ir.js';
import { readJson } from '../../compiler/json-source.js';
import { SNAKE_CASE } from '../../compiler/naming.js';
import { validateStructure, type SchemaName } from '../../compiler/schema-validation.js';
import { CliError } from '../errors.js';

/** The kinds of files a module may provide, in the order the commands handle them. */
export const MODULE_KINDS = ['entities', 'controllers', 'views', 'routes', 'static', 'migrations', 'docs'] as const;
export type ModuleKind = (typeof MODULE_KINDS)[number];

export const MANIFEST_FILE = 'module.json';
/** The folder `fw module:list` and `fw module:install` look in unless `--path` says otherwise. */
export const DEFAULT_MODULES_DIR = 'modules';
/** A module's name: snake_case, as in `mvc/views/<name>/` and `mvc/routes_<name>.ts`. */
export const MODULE_NAME = SNAKE_CASE;

export interface ModuleManifest {
  readonly name: string;
  readonly label: string;
  readonly version: string;
  readonly description: string;
  readonly provides: readonly ModuleKind[];
  /** The folder of each provided kind, posix and relative to the module (`paths`, or the kind's name). */
  readonly paths: Readonly<Partial<Record<ModuleKind, string>>>;
}

export interface LocalModule {
  readonly manifest: ModuleManifest;
  /** The module's folder, posix and relative to the project root: `modules/blog`. */
  readonly dir: string;
  /** The same folder, absolute. */
  readonly absoluteDir: string;
}

export type ModuleCheck =
  { readonly module: LocalModule; readonly problems: readonly [] } | { readonly module: null; readonly problems: readonly Diagnostic[] };

/** `modules/blog` → `/project/modules/blog`. */
export function absolutePath(root: string, posix: string): string {
  return path.join(root, ...posix.split('/'));
}

/**
 * A folder named by the user (`--path`) or the registry, as a posix path inside the project; refused when it leads
 * out of it, also through a symbolic link on the way (`modules/` itself linked elsewhere): a module is read from
 * real folders of the project, as its own folders are (checkModule).
 */
export function folderInProject(root: string, folder: string, option: string): string {
  const relative = path.relative(root, path.resolve(root, folder));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new CliError(
      `${option} « ${folder} » doit désigner un dossier à l'intérieur du projet (${root}).`,
      `donnez un chemin relatif à la racine du projet, par exemple « ${option} ${DEFAULT_MODULES_DIR} ».`,
    );
  }
  const segments = relative.split(path.sep);
  for (let i = 1; i <= segments.length; i++) {
    const shown = segments.slice(0, i).join('/');
    if (fs.lstatSync(path.join(root, ...segments.slice(0, i)), { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new CliError(
        `${option} « ${folder} » passe par un lien symbolique (« ${shown} ») : refusé, les modules sont lus dans de vrais dossiers du projet ; rien n'a été écrit.`,
        `remplacez le lien « ${shown} » par un vrai dossier (une copie), puis relancez la commande.`,
      );
    }
  }
  return segments.join('/');
}

/** A module name typed on the command line; refused before it is joined to any path. */
export function checkModuleName(name: string): string {
  if (!MODULE_NAME.test(name) || name.length > 64) {
    throw new CliError(
      `nom de module invalide « ${name} » : snake_case attendu (minuscules, chiffres et _, initiale lettre), comme son dossier dans modules/.`,
      '« fw module:list » affiche les modules du projet.',
    );
  }
  return name;
}

/** A folder of `paths`: relative, posix, no `.`/`..` segment; what is wrong with it, or null. */
function badRelativeFolder(folder: string): string | null {
  if (folder.includes('\\') || folder.includes('\0')) return "un chemin du module s'écrit avec des « / »";
  if (folder.startsWith('/') || /^[A-Za-z]:/.test(folder)) return 'un chemin absolu sort du dossier du module';
  const segments = folder.replace(/\/+$/, '').split('/');
  if (segments.includes('..')) return '« .. » sort du dossier du module';
  if (segments.some((segment) => segment === '' || segment === '.')) return "un dossier à l'intérieur du module est attendu (ni « . » ni segment vide)";
  return null;
}

/** Reads a JSON file of a module against its schema; the value, or null once problems are recorded. */
export function readModuleJson(root: string, file: string, schema: SchemaName, diags: DiagnosticList): unknown {
  const absolute = absolutePath(root, file);
  const stat = fs.lstatSync(absolute, { throwIfNoEntry: false });
  if (!stat) {
    diags.add(file, '#', 'missing', 'fichier introuvable');
    return null;
  }
  if (stat.isSymbolicLink() || !stat.isFile()) {
    diags.add(file, '#', 'symlink', stat.isSymbolicLink() ? 'lien symbolique refusé : un module ne contient que de vrais fichiers' : "ce n'est pas un fichier");
    return null;
  }
  const read = readJson(fs.readFileSync(absolute, 'utf8'));
  if (!read.ok) {
    diags.add(file, read.error.pointer, 'json', `JSON invalide ligne ${read.error.line}, colonne ${read.error.column} : ${read.error.message}`);
    return null;
  }
  for (const duplicate of read.duplicates) diags.add(file, duplicate.pointer, 'duplicate_key', `clé « ${duplicate.key} » en double : gardez-en une seule`);
  for (const problem of validateStructure(schema, read.value)) diags.add(file, problem.pointer, problem.code, problem.message);
  return diags.countFor(file) > 0 ? null : read.value;
}

/** Reads and checks the module in `dir` (posix, relative to the root); never throws for a bad module. */
export function checkModule(root: string, dir: string): ModuleCheck {
  const diags = new DiagnosticList();
  const manifestFile = `${dir}/${MANIFEST_FILE}`;
  const absoluteDir = absolutePath(root, dir);
  const dirStat = fs.lstatSync(absoluteDir, { throwIfNoEntry: false });
  if (!dirStat?.isDirectory()) {
    const why = !dirStat
      ? 'dossier du module introuvable'
      : dirStat.isSymbolicLink()
        ? 'le dossier du module est un lien symbolique : refusé'
        : "ce n'est pas un dossier";
    diags.add(dir, '#', 'module_dir', why);
    return { module: null, problems: diags.sorted() };
  }
  const value = readModuleJson(root, manifestFile, 'module', diags) as (Omit<ModuleManifest, 'paths'> & { paths?: Record<string, string> }) | null;
  if (!value) return { module: null, problems: diags.sorted() };

  const folderName = path.posix.basename(dir);
  if (value.name !== folderName) {
    diags.add(
      manifestFile,
      '#/name',
      'name',
      `le nom « ${value.name} » diffère de celui du dossier « ${folderName} » : renommez l'un ou l'autre pour qu'ils soient identiques`,
    );
  }
  const declared = value.paths ?? {};
  for (const kind of Object.keys(declared)) {
    if (!value.provides.includes(kind as ModuleKind)) {
      diags.add(
        manifestFile,
        pointerTo('#/paths', kind),
        'paths',
        `« ${kind} » a un dossier mais n'est pas dans « provides » : ajoutez-le à provides ou retirez ce chemin`,
      );
    }
  }
  const paths: Partial<Record<ModuleKind, string>> = {};
  const realDir = fs.realpathSync(absoluteDir);
  for (const kind of value.provides) {
    const folder = (declared[kind] ?? kind).replace(/\/+$/, '');
    const pointer = declared[kind] === undefined ? pointerTo('#/provides', value.provides.indexOf(kind)) : pointerTo('#/paths', kind);
    const bad = badRelativeFolder(folder);
    if (bad) {
      diags.add(manifestFile, pointer, 'path', `chemin « ${declared[kind]} » refusé : ${bad}`);
      continue;
    }
    const absolute = path.join(absoluteDir, ...folder.split('/'));
    const stat = fs.statSync(absolute, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) {
      diags.add(manifestFile, pointer, 'path', `dossier « ${dir}/${folder} » introuvable pour « ${kind} » : créez-le, ou retirez « ${kind} » de provides`);
      continue;
    }
    if (fs.realpathSync(absolute) !== path.join(realDir, ...folder.split('/'))) {
      diags.add(
        manifestFile,
        pointer,
        'symlink',
        `le dossier « ${dir}/${folder} » passe par un lien symbolique : refusé, un module ne contient que de vrais dossiers`,
      );
      continue;
    }
    paths[kind] = folder;
  }
  if (diags.items.length > 0) return { module: null, problems: diags.sorted() };
  const manifest: ModuleManifest = Object.freeze({
    name: value.name,
    label: value.label,
    version: value.version,
    description: value.description,
    provides: Object.freeze([...value.provides]),
    paths: Object.freeze(paths),
  });
  return { module: Object.freeze({ manifest, dir, absoluteDir }), problems: [] };
}

/** The refusal of a bad module file: one problem on the `Erreur :` line, several listed above it. */
export function problemsError(problems: readonly Diagnostic[], advice: string): CliError {
  const first = problems[0]!;
  if (problems.length === 1) return new CliError(`${first.file}${first.pointer === '#' ? '' : first.pointer} : ${first.message} ; rien n'a été écrit.`, advice);
  process.stderr.write(formatDiagnostics(problems));
  const files = [...new Set(problems.map((p) => p.file))].join(', ');
  return new CliError(`${problems.length} erreurs dans ${files} (détail ci-dessus) : rien n'a été écrit.`, advice);
}

const MANIFEST_ADVICE = 'corrigez le manifeste (son format est décrit dans docs/modules.md), puis relancez la commande.';

/** The module in `dir`, or a CliError naming every problem. */
export function readModule(root: string, dir: string): LocalModule {
  const check = checkModule(root, dir);
  if (!check.module) throw problemsError(check.problems, MANIFEST_ADVICE);
  return check.module;
}
