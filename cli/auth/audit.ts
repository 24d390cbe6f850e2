/**
 * The audit record of what an `auth:*` command changed (docs/decisions.md#audit-events: `user.disabled`, `user.enabled`,
 * `user.password_changed`, `user_role.added`, `user_role.removed`), on the `fw.auth.audit` logger like the login
 * pages' events (stderr by default), marked `source: cli`. Never a secret: the metadata goes through the runtime's
 * scrubber, and none is given.
 */
export async function auditCli(event: string, userId: number, metadata: Record<string, unknown> = {}): Promise<void> {
  const { logAuthEvent } = await import('../../runtime/auth/audit.js');
  logAuthEvent(event, { userId, ip: null, userAgent: null, metadata: { source: 'cli', ...metadata } });
}
