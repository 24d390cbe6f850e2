/**
 * `fw mail:init [--dry-run]` (docs/mail.md "Commands"): writes the `test` message template
 * (`mvc/views/mail/test_subject.txt`, `test_text.txt`, `test_html.html`, manual files: never rewritten) and the
 * SQL files of `mail_log` for both dialects under `mvc/models/sql/mail/` (regenerable), and those of the jobs tables
 * under `mvc/models/sql/jobs/` (the outbox's messages are jobs: docs/mail.md), through the project's one writer, and creates `storage/mail/` (MAIL_DIR: the `file` transport's folder). Applies nothing: `fw db:apply`
 * creates the table. Idempotent.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

export function configure(command: Command): void {
  command.option('--dry-run', 'affiche ce qui changerait sans rien écrire');
}

export async function run({ options }: CommandInput): Promise<number> {
  const dryRun = options.dryRun === true;
  const root = projectRoot();
  const { mailSqlFiles } = await import('../../../emitters/mail/sql-files.js');
  const { mailTemplateFiles } = await import('../../../emitters/mail/templates.js');
  const { jobsSqlFiles } = await import('../../../emitters/jobs/sql-files.js');
  const { planWrites, applyPlan, formatPlan, FATE_LABELS } = await import('../../writer.js');
  const { loadEnv } = await import('../../../runtime/env.js');
  const plan = planWrites(root, [...mailTemplateFiles(), ...mailSqlFiles(), ...jobsSqlFiles()]);
  if (!dryRun) applyPlan(plan);
  loadEnv(root);
  const dirSetting = (process.env.MAIL_DIR ?? '').trim() || 'storage/mail';
  const dir = path.resolve(root, dirSetting);
  const shown = path.relative(root, dir).split(path.sep).join('/') || '.';
  const existed = fs.statSync(dir, { throwIfNoEntry: false });
  if (existed && !existed.isDirectory()) {
    throw new CliError(
      `MAIL_DIR « ${dirSetting} » existe et n'est pas un dossier.`,
      'renommez ce fichier ou changez MAIL_DIR, puis relancez « fw mail:init ».',
    );
  }
  if (!existed && !dryRun) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const width = Math.max(...Object.values(FATE_LABELS).map((label) => label.length));
  const out = [
    formatPlan(plan, { dryRun }),
    `Dossier des messages écrits par le transport file (MAIL_DIR) :\n  ${(existed ? FATE_LABELS.unchanged : FATE_LABELS.created).padEnd(width)}  ${shown.startsWith('..') ? dir : shown}/\n`,
  ];
  const writes = plan.entries.filter((entry) => entry.fate === 'created' || entry.fate === 'updated' || entry.fate === 'forced');
  if (writes.length === 0 && existed)
    out.push('Rien à faire : le gabarit « test », les fichiers SQL de mail_log et le dossier des messages sont déjà en place.\n');
  else if (!dryRun)
    out.push(
      'Ensuite : « fw db:apply » crée les tables mail_log et fw_jobs ; « fw mail:doctor » vérifie la configuration (MAIL_* de env/dev), « fw mail:test --to <EMAIL> » envoie le message « test ».\n',
    );
  process.stdout.write(out.join(''));
  return 0;
}
