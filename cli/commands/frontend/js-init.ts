/**
 * `fw js:init htmx|alpine|htmx-alpine` (docs/frontend.md): adds the npm dependency to the project's package.json
 * (a textual edit that keeps every other byte), copies the minified build to `static/vendor/<lib>/` when the package
 * is installed in the project's node_modules, and prints the lines a page puts in its blocks. Layouts are never
 * modified. Files go through the writer (all or nothing); once they are written, `static/vendor/<lib>/` is made
 * for every library asked for, installed or not, so the project shows where the build goes before `npm install`.
 * A second run changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';
import { JS_INIT_CHOICES, scriptTag, type JsLib } from '../../frontend/js-libs.js';
import type { WriterFile } from '../../writer.js';

const CHOICES = Object.keys(JS_INIT_CHOICES);

export function configure(command: Command): void {
  command.argument('<bibliothèque>', `${CHOICES.join(', ')}`);
}

export async function run({ args }: CommandInput): Promise<number> {
  const choice = String(args[0]);
  const libs = JS_INIT_CHOICES[choice];
  if (!libs) {
    throw new CliError(`bibliothèque inconnue « ${choice} » pour « fw js:init ».`, `choisissez ${CHOICES.map((c) => `« fw js:init ${c} »`).join(', ')}.`);
  }
  const root = projectRoot();
  const { readPackageJson, addDependencies, installedFile, installedVersion, PACKAGE_JSON } = await import('../../frontend/package-json.js');
  const { text, data } = readPackageJson(root);
  const { text: packageText, added } = addDependencies(
    text,
    data,
    libs.map((lib) => [lib.packageName, lib.range] as const),
  );

  const files: WriterFile[] = added.length > 0 ? [{ path: PACKAGE_JSON, content: packageText, kind: 'canonical' }] : [];
  const missing: JsLib[] = [];
  for (const lib of libs) {
    const built = installedFile(root, lib.packageName, lib.distFile);
    // The copy follows the installed package: after `npm update`, a new run brings the new build in.
    if (built) files.push({ path: lib.vendorFile, content: fs.readFileSync(built), kind: 'canonical' });
    else missing.push(lib);
  }

  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const plan = planWrites(root, files);
  applyPlan(plan);
  const madeFolders = makeVendorFolders(root, libs);

  const out: string[] = [formatPlan(plan, { dryRun: false }).trimEnd()];
  for (const folder of madeFolders) out.push(`Dossier créé : ${folder}/`);
  for (const lib of libs) {
    if (missing.includes(lib)) continue;
    const version = installedVersion(root, lib.packageName);
    out.push(`${lib.label}${version ? ` ${version}` : ''} : ${lib.vendorFile}`);
  }
  if (missing.length > 0) {
    const names = missing.map((lib) => lib.packageName).join(' et ');
    out.push(
      `${names} ${missing.length > 1 ? 'ne sont pas installés' : "n'est pas installé"} dans node_modules : lancez « npm install », puis relancez « fw js:init ${choice} » pour copier ${missing.map((lib) => lib.vendorFile).join(' et ')}.`,
    );
  }
  out.push('', "Les layouts ne sont pas modifiés. Chargez les scripts dans les pages qui s'en servent :", ...pageBlocks(libs));
  if (libs.some((lib) => lib.name === 'alpine')) {
    out.push(
      '',
      "Build CSP d'Alpine : déclarez les composants avec Alpine.data() dans static/js/app.js (écouteur « alpine:init »), pas en JavaScript dans les attributs (docs/frontend.md de fw-mvc).",
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

/**
 * `static/vendor/<lib>/` of each library, made when absent (after the writer, which only makes the folders of the
 * files it writes). Returns the folders made, relative to the root.
 */
function makeVendorFolders(root: string, libs: readonly JsLib[]): string[] {
  const made: string[] = [];
  for (const lib of libs) {
    const folder = path.posix.dirname(lib.vendorFile);
    const target = path.join(root, ...folder.split('/'));
    if (fs.existsSync(target)) continue;
    fs.mkdirSync(target, { recursive: true });
    made.push(folder);
  }
  return made;
}

/** The `{% block scripts %}` a page (or the layout it extends) adds. */
function pageBlocks(libs: readonly JsLib[]): string[] {
  return ['{% block scripts %}', ...libs.map(scriptTag), '{% endblock %}'].map((line) => `  ${line}`);
}
