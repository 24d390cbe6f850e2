/**
 * `fw-mvc/mail` (docs/mail.md): messages from templates, checked addresses, the `mail_log` table and its outbox,
 * the sender, and the SMTP, console and file transports. nodemailer is loaded on the first message only.
 * Importing this module registers the sender with `serve()`: an application that listens starts one when
 * `mail_enabled` is true and stops it on SIGTERM after the last request.
 */
import { onServe } from '../app/background.js';
import { onMetrics } from '../app/metrics.js';
import { get } from '../config.js';
import { getDatabase } from '../db/database.js';
import { MAIL_LOG_TABLE } from './schema.js';
import { startMailSender } from './sender.js';

export {
  ADDRESS_MAX,
  MailAddressError,
  formatAddress,
  isValidMailAddress,
  parseAddress,
  parseAddressList,
  refuseLineBreaks,
  type AddressInput,
  type MailAddress,
} from './address.js';
export { MAIL_JOB, MAIL_QUEUE, mailSendJob, type MailJobPayload } from './job.js';
export { MailTemplateError, mailTemplateFolders, missingMailVariables, renderMail, type RenderedMail } from './render.js';
export {
  onMailQueued,
  prepareMail,
  sendMail,
  type MailInput,
  type MailMessage,
  type MailRelated,
  type PreparedMail,
  type QueuedMail,
  type SendMailOptions,
  type TemplateMailMessage,
} from './outbox.js';
export {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_RETRY_DELAYS_SECONDS,
  MailSendError,
  MailSender,
  describeFailure,
  sendMailNow,
  startMailSender,
  type AttemptOutcome,
  type MailSenderOptions,
  type SendMailNowOptions,
} from './sender.js';
export { SEALED_PREFIX, SealedMessageError, openPayload, sealPayload, type QueuedPayload } from './sealed.js';
export {
  composeMessage,
  consoleTransport,
  fileTransport,
  isTemporaryFailure,
  loadNodemailer,
  smtpTransport,
  transportFromConfig,
  type MailTransport,
  type OutgoingMessage,
  type SendResult,
  type SmtpOptions,
} from './transports.js';
export {
  MAIL_LOG_LIMITS,
  MAIL_LOG_TABLE,
  MAIL_LOG_TABLE_PURPOSE,
  MAIL_LOG_TABLE_SPEC,
  MAIL_STATUSES,
  mailLogTableSql,
  mailLogTableStatements,
  type MailStatus,
} from './schema.js';

onServe('fw-mvc/mail', () => {
  if (!get('mail_enabled')) return;
  const sender = startMailSender();
  return () => sender.stop();
});

// The outbox's queue, read at each scrape when metrics are on (docs/deploy.md "Metrics"): one table, so a
// cluster's workers all read the same figure (the largest is kept, not the sum).
onMetrics({
  name: 'fw_mail_outbox_queued',
  help: "Messages de l'outbox (mail_log) en attente d'envoi (statut queued).",
  aggregator: 'max',
  async read() {
    if (!get('mail_enabled')) return null;
    const row = await getDatabase().fetchOne<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${MAIL_LOG_TABLE} WHERE status = 'queued'`);
    return Number(row?.n ?? 0);
  },
});
