/** `fw db:apply`: applies the generated entity SQL then the relations, in dependency order, idempotently. */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../command-module.js';
import { CliError } from '../errors.js';
import { compileOrFail, projectRoot } from '../project.js';

export function configure(command: Command): void {
  command.option('--dry-run', 'affiche les fichiers qui seraient appliqués, dans leur ordre, sans toucher à la base');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const model = await compileOrFail(root);
  const { readDbSettings, openHandle, usingHandle } = await import('../db/connection.js');
  const settings = readDbSettings(root);
  const dialect = settings.driver;
  const { dependencyOrder } = await import('../../compiler/dependency-order.js');
  const { entityFiles, relationFiles } = await import('../../emitters/index.js');
  const { order, cycles } = dependencyOrder(model);
  if (dialect === 'sqlite' && cycles.length > 0) {
    throw new CliError(`les clés étrangères de ${cycles.join(', ')} forment un cycle : SQLite ne peut pas créer ces tables.`, 'rendez une des clés nullable et retirez-la du cycle, ou utilisez MariaDB.');
  }
  const suffix = dialect === 'sqlite' ? '.sqlite.sql' : '.sql';
  const wanted = [
    ...order.map((entity) => entityFiles(model, entity).find((f) => f.path.endsWith(`/${entity.snake}${suffix}`))!),
    relationFiles(model).find((f) => f.path.endsWith(`/relations${suffix}`))!,
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
    throw new CliError(`fichiers SQL générés absents ou périmés : ${stale.join(', ')}. Rien n'a été appliqué.`, 'lancez « fw build:model » puis relancez « fw db:apply ».');
  }
  const out = process.stdout;
  if (options.dryRun === true) {
    out.write(`Fichiers à appliquer (${dialect}), dans cet ordre :\n`);
    for (const file of files) out.write(`  ${file.path}\n`);
    return 0;
  }
  const { applySqlFiles } = await import('../db/apply.js');
  const report = await usingHandle(openHandle(settings, 'schema'), (db) => applySqlFiles(db, files));
  const labels = { applied: 'appliqué', unchanged: 'inchangé', failed: 'ÉCHEC', 'not-run': 'non lancé' } as const;
  for (const outcome of report.files) {
    const detail = outcome.fate === 'applied' || outcome.fate === 'unchanged' ? ` (${outcome.executed} instruction(s), ${outcome.skipped} déjà présente(s))` : '';
    out.write(`  ${labels[outcome.fate].padEnd(10)} ${outcome.path}${detail}\n`);
  }
  const failed = report.files.find((f) => f.fate === 'failed');
  if (failed?.failure) {
    const f = failed.failure;
    const partial = dialect === 'mariadb' ? ' Sur MariaDB, les instructions précédentes de ce fichier sont peut-être déjà validées (le DDL valide implicitement).' : '';
    throw new CliError(`${failed.path}, instruction ${f.statement} (ligne ${f.line}) : ${f.message}.${partial}`, 'corrigez la définition puis « fw build:model » et relancez « fw db:apply ».');
  }
  out.write(`Schéma appliqué : ${report.files.length} fichier(s).\n`);
  return 0;
}
