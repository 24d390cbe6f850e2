/** `fw make:relation`: adds a relation to `mvc/entities/relations.json` (assistant, or flags without prompts). */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { emptyRelations, relationsJsonText, RELATIONS_PATH as RELATIONS, type RelationDefinition } from '../../definitions.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

const ACTIONS = ['RESTRICT', 'CASCADE', 'SET NULL', 'NO ACTION'];

export function configure(command: Command): void {
  command
    .option('--name <nom>', 'nom de la relation (snake_case ; table pivot pour many_to_many)')
    .option('--type <type>', 'many_to_one ou many_to_many')
    .option('--from <Entité.champ>', "origine : l'entité qui porte la clé étrangère (many_to_one)")
    .option('--to <Entité.champ>', "cible : en général la clé primaire de l'entité référencée")
    .option('--on-delete <action>', ACTIONS.join(', '))
    .option('--on-update <action>', ACTIONS.join(', '))
    .option('--fk-name <nom>', 'nom de la contrainte de clé étrangère')
    .option('--from-name <nom>', "many_to_many d'une entité vers elle-même : nom du côté --from (snake_case, ex. mentor)")
    .option('--to-name <nom>', "many_to_many d'une entité vers elle-même : nom du côté --to (snake_case, ex. eleve)")
    .option('--no-input', 'ne pose aucune question : toutes les valeurs viennent des options');
}

interface Answers {
  name: string;
  type: string;
  from: string;
  to: string;
  onDelete: string;
  onUpdate: string;
  fkName: string;
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const answers = await collect(options);
  const [fromEntity, fromField] = splitRef(answers.from, '--from');
  const [toEntity, toField] = splitRef(answers.to, '--to');
  const file = path.join(root, RELATIONS);
  const current = fs.existsSync(file) ? readRelations(file) : emptyRelations();
  const relation: RelationDefinition = {
    name: answers.name,
    type: answers.type,
    from_entity: fromEntity,
    from_field: fromField,
    to_entity: toEntity,
    to_field: toField,
    on_delete: answers.onDelete.toUpperCase(),
    on_update: answers.onUpdate.toUpperCase(),
  };
  if (answers.fkName) relation.foreign_key_name = answers.fkName;
  if (typeof options.fromName === 'string') relation.from_name = options.fromName;
  if (typeof options.toName === 'string') relation.to_name = options.toName;
  const text = relationsJsonText(current, [relation]);

  // The whole model is compiled with the new relation before anything is written.
  const { compileSources, formatDiagnostics } = await import('../../../compiler/index.js');
  const sources = entitySources(root);
  sources.push({ file: RELATIONS, text });
  const { diagnostics } = compileSources(sources);
  if (diagnostics.length > 0) {
    process.stderr.write(formatDiagnostics(diagnostics));
    throw new CliError(
      `la relation « ${answers.name} » est invalide : ${RELATIONS} n'a pas été modifié.`,
      'corrigez les valeurs indiquées puis relancez « fw make:relation ».',
    );
  }
  const { planWrites, applyPlan, formatPlan } = await import('../../writer.js');
  const plan = planWrites(root, [{ path: RELATIONS, content: text, kind: 'canonical' }], {});
  applyPlan(plan);
  process.stdout.write(formatPlan(plan, { dryRun: false }));
  process.stdout.write('Étape suivante : « fw sync:relations » génère relations.sql.\n');
  return 0;
}

function readRelations(file: string): { relations: unknown[] } & Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(
      `${RELATIONS} n'est pas un JSON valide (${(err as Error).message}) : rien n'a été modifié.`,
      'corrigez le fichier puis relancez la commande.',
    );
  }
  if (!data || typeof data !== 'object' || !Array.isArray((data as { relations?: unknown }).relations)) {
    throw new CliError(`${RELATIONS} doit contenir un tableau « relations ».`, 'corrigez le fichier puis relancez la commande.');
  }
  return data as { relations: unknown[] } & Record<string, unknown>;
}

/** Every entity file of the project, as compiler sources. */
function entitySources(root: string): Array<{ file: string; text: string }> {
  const dir = path.join(root, 'mvc', 'entities');
  if (!fs.existsSync(dir)) return [];
  const out: Array<{ file: string; text: string }> = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const json = path.join(dir, entry.name, `${entry.name}.json`);
    if (fs.existsSync(json)) out.push({ file: `mvc/entities/${entry.name}/${entry.name}.json`, text: fs.readFileSync(json, 'utf8') });
  }
  return out;
}

function splitRef(value: string, flag: string): [string, string] {
  const match = /^([A-Z][A-Za-z0-9]*)\.([a-z][a-z0-9_]*)$/.exec(value);
  if (!match)
    throw new CliError(
      `valeur invalide pour ${flag} : « ${value} » (forme attendue : Entité.champ, ex. Contact.ville_id).`,
      'exemple : fw make:relation --name contact_ville --type many_to_one --from Contact.ville_id --to Ville.id',
    );
  return [match[1]!, match[2]!];
}

/**
 * The default of each answer: ON DELETE follows the type, as in the compiler (RESTRICT for many_to_one, CASCADE
 * for many_to_many: a pivot row means nothing once one side is gone).
 */
async function defaultsFor(type: string): Promise<Answers> {
  const { DEFAULT_ON_DELETE, DEFAULT_PIVOT_ON_DELETE, DEFAULT_ON_UPDATE } = await import('../../../compiler/relation-check.js');
  const onDelete = type === 'many_to_many' ? DEFAULT_PIVOT_ON_DELETE : DEFAULT_ON_DELETE;
  return { name: '', type: 'many_to_one', from: '', to: '', onDelete, onUpdate: DEFAULT_ON_UPDATE, fkName: '' };
}

/** Values from the flags; the missing ones are asked (unless --no-input, where they are an error). */
async function collect(options: Readonly<Record<string, unknown>>): Promise<Answers> {
  const given = (key: string): string | undefined => (typeof options[key] === 'string' ? options[key] : undefined);
  const answers: Answers = {
    name: given('name') ?? '',
    type: given('type') ?? '',
    from: given('from') ?? '',
    to: given('to') ?? '',
    onDelete: given('onDelete') ?? '',
    onUpdate: given('onUpdate') ?? '',
    fkName: given('fkName') ?? '',
  };
  const required: Array<keyof Answers> = ['name', 'from', 'to'];
  if (options.input === false) {
    const missing = required.filter((key) => !answers[key]);
    if (missing.length > 0) {
      throw new CliError(
        `option(s) manquante(s) avec --no-input : ${missing.map((k) => `--${k}`).join(', ')}.`,
        'exemple : fw make:relation --no-input --name contact_ville --type many_to_one --from Contact.ville_id --to Ville.id',
      );
    }
    return fill(answers, await defaultsFor(answers.type));
  }
  const prompts: Array<[keyof Answers, string]> = [
    ['name', 'Nom de la relation (snake_case)'],
    ['type', 'Type (many_to_one ou many_to_many)'],
    ['from', 'Origine (Entité.champ, ex. Contact.ville_id)'],
    ['to', 'Cible (Entité.champ, ex. Ville.id)'],
    ['onDelete', `ON DELETE (${ACTIONS.join(', ')})`],
    ['onUpdate', `ON UPDATE (${ACTIONS.join(', ')})`],
  ];
  if (prompts.some(([key]) => !answers[key])) {
    const readline = await import('node:readline/promises');
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY === true });
    const lines = rl[Symbol.asyncIterator]();
    try {
      for (const [key, question] of prompts) {
        if (answers[key]) continue;
        // Asked after the type, so the ON DELETE shown is the default of the type chosen.
        const fallback = (await defaultsFor(answers.type))[key];
        process.stdout.write(`${question}${fallback ? ` [${fallback}]` : ''} : `);
        const next = await lines.next();
        answers[key] = next.done ? '' : String(next.value).trim();
      }
    } finally {
      rl.close();
    }
  }
  const result = fill(answers, await defaultsFor(answers.type));
  const missing = required.filter((key) => !result[key]);
  if (missing.length > 0)
    throw new CliError(
      `valeur manquante : ${missing.join(', ')}.`,
      'exemple : fw make:relation --name contact_ville --type many_to_one --from Contact.ville_id --to Ville.id',
    );
  return result;
}

function fill(answers: Answers, defaults: Answers): Answers {
  const out = { ...answers };
  for (const key of Object.keys(defaults) as Array<keyof Answers>) if (!out[key]) out[key] = defaults[key];
  return out;
}
