/**
 * `fw db:apply`: applies the generated entity SQL then the relations, in dependency order, then the auth tables
 * written by `fw auth:init` when the project has them (docs/decisions.md#one-user-model), then the `media` table written by
 * `fw media:init` (docs/uploads.md), then the `mail_log` table written by `fw mail:init` (docs/mail.md), then the jobs tables written by `fw jobs:init`
 * or `fw make:job` (docs/jobs.md), idempotently.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { compileOrFail, projectRoot } from '../../current-project.js';
import type { RelationNode } from '../../../compiler/ir.js';

export function configure(command: Command): void {
  command.option('--dry-run', 'affiche les fichiers qui seraient appliqués, dans leur ordre, sans toucher à la base');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const model = await compileOrFail(root);
  const { readDbSettings, openHandle, usingHandle } = await import('../../db/connection.js');
  const settings = readDbSettings(root);
  const dialect = settings.driver;
  const { dependencyOrder, unfillableCycles } = await import('../../../compiler/dependency-order.js');
  const { entityFiles, relationFiles } = await import('../../../emitters/index.js');
  // A foreign-key cycle is applied like anything else: neither dialect needs the referenced table first.
  const order = dependencyOrder(model);
  const { spellingOf } = await import('../../../runtime/db/dialect.js');
  const suffix = spellingOf(dialect).fileSuffix;
  const relations = relationFiles(model).find((f) => f.path.endsWith(`/relations${suffix}`))!;
  // A project without any relation (entities made by make:crud alone, or auth tables only) needs no relations file.
  const noRelations = model.relations.length === 0 && !fs.existsSync(path.join(root, relations.path));
  const wanted = [
    ...order.map((entity) => entityFiles(model, entity).find((f) => f.path.endsWith(`/${entity.snake}${suffix}`))!),
    ...(noRelations ? [] : [relations]),
  ];
  // What is applied is what is on disk; a file that differs from the model means a forgotten regeneration.
  const stale: string[] = [];
  const files = wanted.map((file) => {
    const absolute = path.join(root, file.path);
    if (!fs.existsSync(absolute)) stale.push(`${file.path} (absent)`);
    else if (fs.readFileSync(absolute, 'utf8') !== file.content) stale.push(`${file.path} (périmé)`);
    return { path: file.path, text: fs.existsSync(absolute) ? fs.readFileSync(absolute, 'utf8') : '' };
  });
  if (stale.length > 0) {
    throw new CliError(
      `fichiers SQL générés absents ou périmés : ${stale.join(', ')}. Rien n'a été appliqué.`,
      'lancez « fw build:model » puis relancez « fw db:apply ».',
    );
  }
  const { authFilesToApply } = await import('../../auth/inspect.js');
  const auth = authFilesToApply(root, dialect);
  if (auth.problems.length > 0) {
    throw new CliError(
      `fichiers SQL d'authentification absents ou périmés : ${auth.problems.join(', ')}. Rien n'a été appliqué.`,
      'lancez « fw auth:init » puis relancez « fw db:apply ».',
    );
  }
  files.push(...auth.files);
  const { mediaFilesToApply } = await import('../../media/inspect.js');
  const media = mediaFilesToApply(root, dialect);
  if (media.problems.length > 0) {
    throw new CliError(
      `fichier SQL de la table media absent ou périmé : ${media.problems.join(', ')}. Rien n'a été appliqué.`,
      'lancez « fw media:init » puis relancez « fw db:apply ».',
    );
  }
  files.push(...media.files);
  const { mailFilesToApply } = await import('../../mail/inspect.js');
  const mail = mailFilesToApply(root, dialect);
  if (mail.problems.length > 0) {
    throw new CliError(
      `fichier SQL de la table mail_log absent ou périmé : ${mail.problems.join(', ')}. Rien n'a été appliqué.`,
      'lancez « fw mail:init » puis relancez « fw db:apply ».',
    );
  }
  files.push(...mail.files);
  const { jobsFilesToApply } = await import('../../jobs/inspect.js');
  const jobs = jobsFilesToApply(root, dialect);
  if (jobs.problems.length > 0) {
    throw new CliError(
      `fichier SQL des tables des tâches absent ou périmé : ${jobs.problems.join(', ')}. Rien n'a été appliqué.`,
      'lancez « fw jobs:init » puis relancez « fw db:apply ».',
    );
  }
  files.push(...jobs.files);
  const out = process.stdout;
  if (options.dryRun === true) {
    out.write(`Fichiers à appliquer (${dialect}), dans cet ordre :\n`);
    for (const file of files) out.write(`  ${file.path}\n`);
    return 0;
  }
  const { applySqlFiles } = await import('../../db/apply.js');
  const report = await usingHandle(openHandle(settings, 'schema'), (db) => applySqlFiles(db, files));
  const labels = { applied: 'appliqué', unchanged: 'inchangé', failed: 'ÉCHEC', 'not-run': 'non lancé' } as const;
  for (const outcome of report.files) {
    const detail =
      outcome.fate === 'applied' || outcome.fate === 'unchanged' ? ` (${outcome.executed} instruction(s), ${outcome.skipped} déjà présente(s))` : '';
    out.write(`  ${labels[outcome.fate].padEnd(10)} ${outcome.path}${detail}\n`);
  }
  const failed = report.files.find((f) => f.fate === 'failed');
  if (failed?.failure) {
    const f = failed.failure;
    const { spellingOf } = await import('../../../runtime/db/dialect.js');
    const spelling = spellingOf(dialect);
    const partial = spelling.transactionalDdl
      ? ''
      : ` Sur ${spelling.product}, les instructions précédentes de ce fichier sont peut-être déjà validées (le DDL valide implicitement).`;
    throw new CliError(
      `${failed.path}, instruction ${f.statement} (ligne ${f.line}) : ${sentence(f.message)}${partial}`,
      'corrigez la définition puis « fw build:model » et relancez « fw db:apply ».',
    );
  }
  out.write(`Schéma appliqué : ${report.files.length} fichier(s).\n`);
  warnUnfillableCycles(unfillableCycles(model));
  return 0;
}

/** The text with one final period (driver messages sometimes end with one, sometimes not). */
function sentence(text: string): string {
  return /[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/**
 * The tables of a cycle of NOT NULL foreign keys exist, but no row can ever be inserted in them (each row needs
 * one of the next table first): said after the apply, which is not refused, because the fix is in the model.
 */
function warnUnfillableCycles(cycles: ReadonlyArray<readonly RelationNode[]>): void {
  for (const cycle of cycles) {
    const keys = cycle.map((r) => `${r.fromEntity}.${r.fromField} → ${r.toEntity}`).join(', ');
    process.stderr.write(
      `Attention : les clés étrangères NOT NULL ${keys} forment un cycle : les tables existent, mais aucune ligne ne pourra y être insérée sans désactiver la vérification des clés étrangères (chacune exige d'abord une ligne de la table suivante).\n` +
        'Conseil : rendez une de ces clés nullable (« nullable »: true dans son entité).\n',
    );
  }
}
