/**
 * The `fw_sessions` table of the database session store (docs/decisions.md#framework-tables), created by `fw db:init` on both
 * dialects. Columns: `session_id` the SHA-256 hex of the cookie value (the id itself is never stored), `data`
 * the session as JSON text, `user_id` the user it belongs to as text (`sessionUserId`: `data.user.id`, else the
 * user of a pending second-factor challenge; null for an anonymous session; text so that string ids
 * work as well as numbers), `expires_at`, `created_at`, `updated_at` in UTC (`YYYY-MM-DD HH:MM:SS`; TEXT on
 * SQLite, as the runtime writes dates), indexed on `expires_at` (purge) and `user_id` (deleteUser).
 */
import type { DialectName } from '../db/dialect.js';

export const SESSIONS_TABLE = 'fw_sessions';

/** The statements that create `fw_sessions` and its indexes when absent, in order. */
export function fwSessionsDdl(dialect: DialectName): string[] {
  if (dialect === 'mariadb') {
    return [
      `CREATE TABLE IF NOT EXISTS ${SESSIONS_TABLE} (
  session_id CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  data MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  user_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
  expires_at DATETIME NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  PRIMARY KEY (session_id),
  KEY ix_fw_sessions_expires_at (expires_at),
  KEY ix_fw_sessions_user_id (user_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
    ];
  }
  return [
    `CREATE TABLE IF NOT EXISTS ${SESSIONS_TABLE} (
  session_id CHAR(64) NOT NULL PRIMARY KEY,
  data TEXT NOT NULL,
  user_id VARCHAR(255) NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
)`,
    `CREATE INDEX IF NOT EXISTS ix_fw_sessions_expires_at ON ${SESSIONS_TABLE} (expires_at)`,
    `CREATE INDEX IF NOT EXISTS ix_fw_sessions_user_id ON ${SESSIONS_TABLE} (user_id)`,
  ];
}
