/**
 * The `fw_sessions` table of the database session store (docs/decisions.md#framework-tables), created by `fw db:init` on both dialects, described once
 * (runtime/db/ddl/table-spec.ts) and spelled per dialect by the renderer of the entity tables. Columns:
 * `session_id` the keyed hash of the cookie value (`sessionKey`) (the id itself is never stored), `data` the session as JSON
 * text, `user_id` the user it belongs to as text (`sessionUserId`: `data.user.id`, else the user of a pending
 * second-factor challenge; null for an anonymous session; text so that string ids work as well as numbers),
 * `expires_at`, `created_at`, `updated_at` in UTC (`YYYY-MM-DD HH:MM:SS`; TEXT on SQLite, as the runtime writes
 * dates), indexed on `expires_at` (purge) and `user_id` (deleteUser). Every text column compares bytes.
 */
import { ASCII_BIN, column, FRAMEWORK_TABLE, UTF8MB4_BIN } from '../db/ddl/columns.js';
import { renderCreateStatements } from '../db/ddl/render.js';
import type { TableSpec } from '../db/ddl/table-spec.js';
import type { DialectName } from '../db/dialect.js';

export const SESSIONS_TABLE = 'fw_sessions';

const datetime = (name: string) => column(name, 'DATETIME', { sqliteType: 'TEXT' });

/** `fw_sessions`, for both dialects. */
export const SESSIONS_TABLE_SPEC: TableSpec = {
  table: SESSIONS_TABLE,
  columns: [
    column('session_id', 'CHAR(64)', { mariadbCharset: ASCII_BIN }),
    column('data', 'MEDIUMTEXT', { mariadbCharset: UTF8MB4_BIN, sqliteType: 'TEXT' }),
    column('user_id', 'VARCHAR(255)', { nullable: true, mariadbCharset: UTF8MB4_BIN }),
    datetime('expires_at'),
    datetime('created_at'),
    datetime('updated_at'),
  ],
  primaryKey: ['session_id'],
  uniques: [],
  indexes: [
    { name: 'ix_fw_sessions_expires_at', columns: ['expires_at'] },
    { name: 'ix_fw_sessions_user_id', columns: ['user_id'] },
  ],
  foreignKeys: [],
  ...FRAMEWORK_TABLE,
};

/** The statements that create `fw_sessions` and its indexes when absent, in order. */
export function fwSessionsDdl(dialect: DialectName): string[] {
  return renderCreateStatements(SESSIONS_TABLE_SPEC, dialect);
}
