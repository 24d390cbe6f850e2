/** `fw check:model [--json]`: validates every entity and relation file; writes nothing. */
import type { Command } from 'commander';
import type { CommandInput } from '../command-module.js';
import { projectRoot } from '../project.js';

export function configure(command: Command): void {
  command.option('--json', 'résultat en JSON');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const { compileProject, formatDiagnostics } = await import('../../compiler/index.js');
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
    const text = formatDiagnostics(diagnostics);
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    process.stdout.write(`${diagnostics.length} erreur(s).\n`);
    return 1;
  }
  process.stdout.write(`OK : ${model.entities.length} entité(s), ${model.relations.length} relation(s), aucune erreur.\n`);
  return 0;
}
