/**
 * The job type of the outbox (docs/mail.md "sendMail and the outbox"): each `queued` row of `mail_log` has one job
 * `fw_mail_send` on the queue `mail` of `fw-mvc/jobs`, whose payload names the row. Its unique key is the row's id,
 * so a message never has two jobs waiting or running at once. The type is not recorded in the process's registry:
 * the mail sender (sender.ts) runs it with its own transport and options, and a worker of `fw-mvc/jobs` never does.
 */
import { jobType, type JobDefinition, type JobHandler } from '../jobs/define.js';
import { MAIL_JOB, MAIL_QUEUE } from './schema.js';

export { MAIL_JOB, MAIL_QUEUE } from './schema.js';

/** Attempts before a message that keeps failing temporarily is `failed`. */
export const DEFAULT_MAX_ATTEMPTS = 5;
/** Seconds between the attempts of a message that failed temporarily: 1 min, 5 min, 30 min, 2 h. */
export const DEFAULT_RETRY_DELAYS_SECONDS: readonly number[] = [60, 300, 1800, 7200];

/** What the job carries: the `mail_log` row it sends. */
export interface MailJobPayload {
  readonly mailLogId: number;
}

/** The type `fw_mail_send` with `handler`, its retries after `retryDelaysSeconds` (fixed, the last repeating). */
export function mailSendJob(
  handler: JobHandler<MailJobPayload>,
  options: { attempts?: number; retryDelaysSeconds?: readonly number[]; timeoutMs?: number } = {},
): JobDefinition<MailJobPayload> {
  const delays = options.retryDelaysSeconds ?? DEFAULT_RETRY_DELAYS_SECONDS;
  return jobType(MAIL_JOB, handler, {
    queue: MAIL_QUEUE,
    attempts: options.attempts ?? DEFAULT_MAX_ATTEMPTS,
    backoff: { delaysMs: delays.map((seconds) => seconds * 1000) },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    uniqueKey: (payload) => String(payload.mailLogId),
  });
}
