/**
 * `fw mail:test --to <EMAIL>` (docs/mail.md "Commands"): sends the `test` template now, outside the outbox and
 * whatever MAIL_ENABLED says (`sendMailNow`), through the transport MAIL_TRANSPORT names, and prints what the
 * server answered. A failure prints `Erreur :` with the server's reason and exits 1. The attempt is recorded in
 * `mail_log` (`sent` or `failed`, no body) when the table exists; a SQLite file is never created for it.
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import type { Database } from '../../../runtime/db/index.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';

const EXAMPLE = 'fw mail:test --to alice@example.com';

export function configure(command: Command): void {
  command.option('--to <EMAIL>', 'destinataire du message de test');
}

/** The project's database when `mail_log` exists in it, else why the attempt will not be recorded. */
async function mailLogDatabase(root: string): Promise<{ db: Database } | { reason: string }> {
  const { databaseFileMissing, readDbSettings, openHandle } = await import('../../db/connection.js');
  const { tableExists } = await import('../../db/schema.js');
  let db: Database | undefined;
  try {
    const settings = readDbSettings(root);
    if (databaseFileMissing(settings)) return { reason: 'base SQLite absente' };
    db = openHandle(settings, 'app', { poolSize: 1 });
    if (await tableExists(db, 'mail_log')) return { db };
    await db.close();
    return { reason: 'table mail_log absente : « fw mail:init » puis « fw db:apply »' };
  } catch (error) {
    await db?.close().catch(() => {});
    return { reason: `base injoignable (${String((error as Error).message ?? error).split('\n')[0]})` };
  }
}

function utcNow(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

export async function run({ options }: CommandInput): Promise<number> {
  const to = options.to;
  if (typeof to !== 'string' || to.trim() === '') throw new CliError('il manque le destinataire : « --to <EMAIL> ».', `par exemple « ${EXAMPLE} ».`);
  const root = projectRoot();
  const { configureMailRuntime, refuseBrokenConfiguration } = await import('../../mail/runtime-config.js');
  const { describeTransport } = await import('../../mail/settings.js');
  const environment = configureMailRuntime(root);
  refuseBrokenConfiguration(environment);
  const { sendMailNow, MailSendError } = await import('../../../runtime/mail/sender.js');
  const { MailAddressError } = await import('../../../runtime/mail/address.js');
  const { MailTemplateError } = await import('../../../runtime/mail/render.js');
  const log = await mailLogDatabase(root);
  const database = 'db' in log ? log.db : undefined;
  const transport = describeTransport(environment.settings);
  try {
    const result = await sendMailNow(
      { template: 'test', type: 'test', to, context: { app_name: process.env.APP_NAME || '', sent_at: utcNow(), to } },
      database ? { database } : {},
    );
    const lines = [
      `Message « test » envoyé à ${result.accepted.join(', ') || to} par ${transport}.`,
      `Réponse du serveur : ${result.response || '(aucune)'}`,
      `Message-ID : ${result.messageId}`,
      ...(result.rejected.length > 0 ? [`Refusés par le serveur : ${result.rejected.join(', ')}`] : []),
      database ? 'Journal : enregistré dans mail_log (« fw mail:logs »).' : `Journal : non enregistré (${'reason' in log ? log.reason : ''}).`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof MailAddressError) {
      throw new CliError(
        `adresse refusée (${error.field}) : ${error.message.replace(/^[a-zA-Z]+ : /, '')}`,
        `donnez une seule adresse, par exemple « ${EXAMPLE} ».`,
      );
    }
    if (error instanceof MailTemplateError) throw new CliError(error.message, '« fw mail:init » écrit le modèle « test » dans mvc/views/mail/.');
    if (error instanceof MailSendError) {
      const advice = error.temporary
        ? 'le serveur est injoignable ou a demandé de réessayer : « fw mail:doctor » teste la connexion étape par étape.'
        : error.code === 'EAUTH' || error.responseCode === 535
          ? 'vérifiez MAIL_USERNAME et MAIL_PASSWORD ; « fw mail:doctor » teste la connexion étape par étape.'
          : 'le serveur a refusé le message ou la session : « fw mail:doctor » teste la connexion étape par étape.';
      throw new CliError(`envoi par ${transport} impossible : ${error.message}`, advice);
    }
    throw error;
  } finally {
    await database?.close().catch(() => {});
  }
}
