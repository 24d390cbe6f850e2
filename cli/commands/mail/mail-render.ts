/**
 * `fw mail:render <template> [--context file.json]` (docs/mail.md "Commands"): renders the message `<template>` of
 * `mvc/views/mail/` as `sendMail` would (the project's views and translations; HTML autoescaped) and prints the
 * subject, then the `[TEXTE]` and `[HTML]` parts. The context is a JSON object read from the file; `app_name` is
 * the configured one (`APP_NAME`) unless the context gives it, as for `sendMail`. The variables the templates read
 * and the context does not give (they render empty), and an empty link (`href=""`) in the HTML part, are named
 * on stderr with an `Attention :` and the way to give them. Sends nothing, writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.argument('<gabarit>', 'nom du modèle (mvc/views/mail/<gabarit>_subject.txt…)');
  command.option('--context <fichier.json>', 'fichier JSON (un objet) des variables du modèle');
}

/** The context object of `--context`, or a CliError naming the file and what is wrong with it. */
function readContext(file: string): Record<string, unknown> {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `contexte illisible « ${file} » : ${code === 'ENOENT' ? 'fichier introuvable' : code === 'EISDIR' ? "c'est un dossier" : (error as Error).message}.`,
      'donnez le chemin d\'un fichier JSON, par exemple « --context contexte.json » contenant { "nom": "Zoé" }.',
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CliError(
      `contexte « ${file} » : JSON invalide (${(error as Error).message}).`,
      'corrigez le fichier : un objet JSON est attendu, par exemple { "nom": "Zoé" }.',
    );
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new CliError(
      `contexte « ${file} » : un objet JSON est attendu (lu : ${Array.isArray(data) ? 'une liste' : data === null ? 'null' : typeof data}).`,
      'écrivez par exemple { "nom": "Zoé" }.',
    );
  }
  return data as Record<string, unknown>;
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const name = String(args[0]);
  const root = projectRoot();
  const context = typeof options.context === 'string' ? readContext(options.context) : {};
  const { configureMailRuntime } = await import('../../mail/runtime-config.js');
  configureMailRuntime(root);
  const { missingMailVariables, renderMail, MailTemplateError } = await import('../../../runtime/mail/render.js');
  const { MailAddressError } = await import('../../../runtime/mail/address.js');
  let rendered;
  try {
    rendered = renderMail(name, context);
  } catch (error) {
    if (error instanceof MailTemplateError)
      throw new CliError(
        error.message.replace(/\.$/, '') + '.',
        '« fw mail:init » écrit le modèle « test » ; un modèle est <nom>_subject.txt et <nom>_text.txt (et <nom>_html.html) dans mvc/views/mail/.',
      );
    if (error instanceof MailAddressError)
      throw new CliError(
        `sujet refusé : ${error.message}`,
        'le sujet rendu doit tenir sur une ligne : retirez le retour à la ligne du modèle ou de la variable.',
      );
    const { lineno, colno } = error as { lineno?: number; colno?: number };
    const at = lineno ? ` (ligne ${lineno}${colno ? `, colonne ${colno}` : ''})` : '';
    throw new CliError(
      `rendu du modèle « ${name} » impossible${at} : ${String((error as Error).message ?? error)
        .split('\n')
        .filter(Boolean)
        .join(' ')
        .trim()}`,
      'corrigez le modèle indiqué (« fw mail:doctor » analyse tous les modèles).',
    );
  }
  const out = [`Sujet : ${rendered.subject}`, '', '[TEXTE]', rendered.text.replace(/\n$/, ''), '', '[HTML]'];
  out.push(rendered.html === undefined ? `(aucune partie HTML : mvc/views/mail/${name}_html.html absent)` : rendered.html.replace(/\n$/, ''));
  process.stdout.write(`${out.join('\n')}\n`);
  const warnings: string[] = [];
  const missing = missingMailVariables(name, context);
  if (missing.length > 0) {
    const file = typeof options.context === 'string' ? options.context : 'contexte.json';
    const example = `{ ${missing.map((variable) => `"${variable}": "…"`).join(', ')} }`;
    warnings.push(
      `Attention : ${missing.length > 1 ? 'variables absentes' : 'variable absente'} du contexte, ${missing.length > 1 ? 'rendues vides' : 'rendue vide'} : ${missing.join(', ')}.`,
      typeof options.context === 'string'
        ? `Conseil : ajoutez-les à ${file}, par exemple ${example}.`
        : `Conseil : donnez-les dans un fichier JSON : « fw mail:render ${name} --context ${file} » avec ${example}.`,
    );
  }
  const emptyLinks = (rendered.html?.match(/\b(?:href|src)=(""|'')/g) ?? []).length;
  if (emptyLinks > 0) warnings.push(`Attention : ${emptyLinks} lien(s) vide(s) (href="" ou src="") dans la partie [HTML].`);
  if (warnings.length > 0) process.stderr.write(`${warnings.join('\n')}\n`);
  return 0;
}
