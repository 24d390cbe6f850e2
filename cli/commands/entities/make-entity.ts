/** `fw make:entity <Entity> [--no-input]`: creates the canonical JSON `mvc/entities/<snake>/<snake>.json`. */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { entityJsonPath, entityJsonText, fieldAnswer, type EntityFieldAnswer as FieldAnswer } from '../../definitions.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command
    .argument('<Entité>', "nom de l'entité en PascalCase (ex. Contact)")
    .option('--table <table>', 'nom de la table (snake_case ; par défaut le nom en snake_case)')
    .option('--no-input', 'sans questions : une clé id et un champ nom, à compléter dans le JSON');
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const name = String(args[0]);
  const root = projectRoot();
  const { compileSources, snakeCase, formatDiagnostics } = await import('../../../compiler/index.js');
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
    throw new CliError(
      `nom d'entité invalide « ${name} » : PascalCase attendu (lettres et chiffres, initiale majuscule).`,
      'exemple : fw make:entity ContactClient',
    );
  }
  const snake = snakeCase(name);
  const relative = entityJsonPath(snake);
  if (fs.existsSync(path.join(root, relative))) {
    throw new CliError(`l'entité « ${name} » existe déjà (${relative}) : rien n'a été écrit.`, `modifiez le fichier puis lancez « fw sync:entity ${name} ».`);
  }
  const table = typeof options.table === 'string' ? options.table : snake;
  const fields = options.input === false ? defaultFields() : await askFields();
  const text = entityJsonText(name, table, fields);
  // Checked by the compiler before anything is written: a bad name or field never reaches the disk.
  const { diagnostics } = compileSources([{ file: relative, text }]);
  if (diagnostics.length > 0) {
    process.stderr.write(formatDiagnostics(diagnostics));
    throw new CliError(
      `la définition de « ${name} » est invalide : rien n'a été écrit.`,
      'changez les noms indiqués (mots réservés SQL, snake_case pour les champs).',
    );
  }
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const plan = planWrites(root, [{ path: relative, content: text, kind: 'manual' }], {});
  applyPlan(plan);
  process.stdout.write(formatPlan(plan, { dryRun: false }));
  process.stdout.write(`Étape suivante : complétez ${relative} puis lancez « fw sync:entity ${name} ».\n`);
  return 0;
}

function defaultFields(): FieldAnswer[] {
  return [fieldAnswer('nom', 'VARCHAR(100)')];
}

/** Asks for the fields one by one on the terminal (or piped answers); an empty name ends the list. */
async function askFields(): Promise<FieldAnswer[]> {
  const readline = await import('node:readline/promises');
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY === true });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (question: string, fallback: string): Promise<string> => {
    process.stdout.write(`${question} [${fallback}] : `);
    const next = await lines.next();
    const answer = next.done ? '' : String(next.value).trim();
    if (next.done) process.stdout.write('\n');
    return answer || fallback;
  };
  const yes = (answer: string): boolean => /^(o|oui|y|yes)$/i.test(answer);
  const fields: FieldAnswer[] = [];
  try {
    for (;;) {
      const name = await ask('Nom du champ (snake_case, vide pour terminer)', '');
      if (!name) break;
      const sqlType = await ask('  Type SQL', 'VARCHAR(255)');
      const nullable = yes(await ask('  Peut être vide (NULL) ? o/n', 'n'));
      const unique = yes(await ask('  Valeur unique ? o/n', 'n'));
      const filter = yes(await ask('  Filtre dans la liste ? o/n', 'n'));
      fields.push(fieldAnswer(name, sqlType, { nullable, unique, filter }));
    }
  } finally {
    rl.close();
  }
  return fields;
}
