/**
 * `fw check:model [--json]`: validates every entity and relation file; writes nothing. Problems go to stderr with
 * the `Erreur :` line of every command (exit 1); `--json` prints the result on stdout (exit 1 when not ok).
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--json', 'résultat en JSON');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { compileProject, formatDiagnostics } = await import('../../../compiler/index.js');
  const { model, diagnostics } = compileProject(root);
  if (options.json === true) {
    const result = {
      ok: diagnostics.length === 0,
      entities: model?.entities.map((e) => e.name) ?? [],
      relations: model?.relations.map((r) => r.name) ?? [],
      diagnostics,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return diagnostics.length === 0 ? 0 : 1;
  }
  if (diagnostics.length > 0 || !model) {
    // Like every command: the problems, then `Erreur : …` and `Conseil : …`, on stderr; exit 1.
    const text = formatDiagnostics(diagnostics);
    process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
    const count = diagnostics.length;
    throw new CliError(
      `${count} erreur${count > 1 ? 's' : ''} dans les définitions d'entités.`,
      'corrigez les fichiers indiqués (fichier#pointeur JSON) puis relancez « fw check:model ».',
    );
  }
  process.stdout.write(`OK : ${model.entities.length} entité(s), ${model.relations.length} relation(s), aucune erreur.\n`);
  return 0;
}
