/**
 * The audit record of what an `auth:*` command changed (docs/decisions.md#audit-events: `user.disabled`, `user.enabled`,
 * `user.password_changed`, `user_role.added`, `user_role.removed`), made by the runtime's `logAuthEvent` like the login
 * pages' events and marked `source: cli`. It is appended to the project's `storage/logs/auth-audit.log` (one line per
 * record, the logger's format), not printed: the terminal shows the command's message only
 * (docs/decisions.md "The audit records of the auth commands"). Never a secret: the metadata goes through the
 * runtime's scrubber, and none is given.
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../current-project.js';

/** The file, relative to the project's root. */
export const CLI_AUDIT_LOG = 'storage/logs/auth-audit.log';

export async function auditCli(event: string, userId: number, metadata: Record<string, unknown> = {}): Promise<void> {
  const { logAuthEvent, AUTH_AUDIT_LOGGER } = await import('../../runtime/auth/audit.js');
  const { setLogSink } = await import('../../runtime/logger.js');
  const records: string[] = [];
  const previous = setLogSink((record) => {
    if (record.logger !== AUTH_AUDIT_LOGGER) return previous(record);
    const extra = record.fields ? ` ${JSON.stringify(record.fields)}` : '';
    records.push(`${record.time.toISOString()} ${record.level} ${record.logger}: ${record.message}${extra}\n`);
  });
  try {
    logAuthEvent(event, { userId, ip: null, userAgent: null, metadata: { source: 'cli', ...metadata } });
  } finally {
    setLogSink(previous);
  }
  if (records.length === 0) return;
  const file = path.join(projectRoot(), CLI_AUDIT_LOG);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.appendFileSync(file, records.join(''), { mode: 0o600 });
  } catch (error) {
    // The change is made: the record is not lost, it goes to stderr with the reason.
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    process.stderr.write(`Attention : journal d'audit ${CLI_AUDIT_LOG} impossible à écrire (${reason}) ; l'enregistrement suit.\n${records.join('')}`);
  }
}
