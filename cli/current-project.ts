/** The project a command runs in: its root, found from the working directory, and its compiled model. */
import fs from 'node:fs';
import path from 'node:path';
import type { EntityNode, ModelNode } from '../compiler/ir.js';
import { CliError } from './errors.js';

/** The project root: the working directory or its nearest parent holding `mvc/`; otherwise a CliError. */
export function projectRoot(from: string = process.cwd()): string {
  const start = path.resolve(from);
  let dir = start;
  for (;;) {
    if (fs.statSync(path.join(dir, 'mvc'), { throwIfNoEntry: false })?.isDirectory()) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new CliError(
    `le dossier « ${start} » n'est pas un projet fw (aucun dossier mvc/ ici ni au-dessus).`,
    'placez-vous dans le dossier du projet, ou créez-en un avec « fw new MonProjet ».',
  );
}

/**
 * For the structural checks (`project:check`, `project:audit`), which look at the working directory itself:
 * a CliError when it holds neither `app.ts` nor `mvc/` (diagnostic commands fail at once outside a project: docs/decisions.md#cli-errors-and-exit-codes).
 */
export function assertProjectHere(commandName: string, dir: string = process.cwd()): string {
  const root = path.resolve(dir);
  if (fs.existsSync(path.join(root, 'app.ts')) || fs.statSync(path.join(root, 'mvc'), { throwIfNoEntry: false })?.isDirectory()) return root;
  throw new CliError(
    `le dossier « ${root} » n'est pas un projet fw (ni app.ts ni dossier mvc/) : « fw ${commandName} » n'a rien à contrôler.`,
    `lancez « fw ${commandName} » depuis la racine du projet (le dossier qui contient app.ts et mvc/), ou créez-en un avec « fw new MonProjet ».`,
  );
}

/** Compiles the project's entity and relation files; prints every problem and fails when there is one. */
export async function compileOrFail(root: string): Promise<ModelNode> {
  const { compileProject, formatDiagnostics } = await import('../compiler/index.js');
  const result = compileProject(root);
  if (result.diagnostics.length > 0 || !result.model) {
    process.stderr.write(formatDiagnostics(result.diagnostics));
    if (!formatDiagnostics(result.diagnostics).endsWith('\n')) process.stderr.write('\n');
    const count = result.diagnostics.length;
    throw new CliError(
      `${count} erreur${count > 1 ? 's' : ''} dans les définitions d'entités : aucun fichier n'a été écrit.`,
      'corrigez les fichiers indiqués puis relancez la commande (« fw check:model » vérifie sans rien écrire).',
    );
  }
  return result.model;
}

/**
 * The entity of that name, or a CliError that names the known ones and the way out: the exact name when the user
 * typed a known entity in another case (`produit` → `Produit`), else `fw make:entity` with a valid PascalCase name.
 */
export async function entityOrFail(model: ModelNode, name: string, command: string): Promise<EntityNode> {
  const found = model.entities.find((e) => e.name === name);
  if (found) return found;
  const { entityNameFrom } = await import('../compiler/naming.js');
  const known = model.entities.map((e) => e.name).join(', ') || 'aucune';
  const suggested = entityNameFrom(name);
  const sameName = model.entities.find((e) => e.name.toLowerCase() === name.toLowerCase() || (suggested !== null && e.name === suggested));
  const advice = sameName
    ? `le nom d'une entité s'écrit en PascalCase : « fw ${command} ${sameName.name} ».`
    : `créez-la avec « fw make:entity ${suggested ?? 'NomEnPascalCase'} », puis relancez « fw ${command} ${suggested ?? name} ».`;
  throw new CliError(`entité « ${name} » introuvable dans mvc/entities/ (entités connues : ${known}).`, advice);
}
