/**
 * The tables of authentication, roles and the second factor (docs/auth.md "Tables"), one statement list per
 * dialect, in dependency order. `fw auth:init` writes them to `mvc/models/sql/auth/<table>.sql` (MariaDB) and
 * `<table>.sqlite.sql`; `fw db:apply` applies them after the entity tables. Technical tables use snake_case
 * columns; dates are UTC (`DATETIME` on MariaDB, `YYYY-MM-DD HH:MM:SS` text on SQLite).
 *
 * E-mails are stored lower-cased by the code (runtime/auth/users.ts), and the column also compares without case
 * (utf8mb4_unicode_ci, SQLite NOCASE), so `Alice@x` and `alice@x` are one user whichever way a row was written.
 */
import type { DialectName } from '../db/dialect.js';

export interface AuthTable {
  /** Table name, also the file name without extension. */
  readonly name: string;
  /** What the table holds, written as the file's first comment line. */
  readonly purpose: string;
  readonly mariadb: string;
  readonly sqlite: string;
}

const MARIADB_TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

/** The auth tables, each after the tables it refers to. */
export const AUTH_TABLES: readonly AuthTable[] = [
  {
    name: 'users',
    purpose: 'Comptes locaux : e-mail unique (stocké en minuscules, comparé octet par octet), hachage Argon2id, compte actif ou non.',
    mariadb: `CREATE TABLE IF NOT EXISTS \`users\` (
  \`id\` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`email\` VARCHAR(190) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  \`password_hash\` VARCHAR(255) NOT NULL,
  \`is_active\` TINYINT(1) NOT NULL DEFAULT 1,
  \`email_verified_at\` DATETIME NULL,
  \`last_login_at\` DATETIME NULL,
  \`created_at\` DATETIME NOT NULL,
  \`updated_at\` DATETIME NOT NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`uq_users_email\` (\`email\`)
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "users" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "email" VARCHAR(190) NOT NULL COLLATE NOCASE,
  "password_hash" VARCHAR(255) NOT NULL,
  "is_active" TINYINT(1) NOT NULL DEFAULT 1,
  "email_verified_at" DATETIME,
  "last_login_at" DATETIME,
  "created_at" DATETIME NOT NULL,
  "updated_at" DATETIME NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_users_email" ON "users" ("email");`,
  },
  {
    name: 'roles',
    purpose: 'Rôles (admin, editeur…), créés par « fw auth:role:create ».',
    mariadb: `CREATE TABLE IF NOT EXISTS \`roles\` (
  \`id\` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`name\` VARCHAR(100) NOT NULL,
  \`created_at\` DATETIME NOT NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`uq_roles_name\` (\`name\`)
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "roles" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" VARCHAR(100) NOT NULL,
  "created_at" DATETIME NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_roles_name" ON "roles" ("name");`,
  },
  {
    name: 'user_roles',
    purpose: 'Rôles de chaque utilisateur.',
    mariadb: `CREATE TABLE IF NOT EXISTS \`user_roles\` (
  \`user_id\` INT UNSIGNED NOT NULL,
  \`role_id\` INT UNSIGNED NOT NULL,
  PRIMARY KEY (\`user_id\`, \`role_id\`),
  KEY \`ix_user_roles_role_id\` (\`role_id\`),
  CONSTRAINT \`fk_user_roles_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\` (\`id\`) ON DELETE CASCADE,
  CONSTRAINT \`fk_user_roles_role\` FOREIGN KEY (\`role_id\`) REFERENCES \`roles\` (\`id\`) ON DELETE CASCADE
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "user_roles" (
  "user_id" INTEGER NOT NULL,
  "role_id" INTEGER NOT NULL,
  PRIMARY KEY ("user_id", "role_id"),
  CONSTRAINT "fk_user_roles_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_user_roles_role" FOREIGN KEY ("role_id") REFERENCES "roles" ("id") ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS "ix_user_roles_role_id" ON "user_roles" ("role_id");`,
  },
  {
    name: 'permissions',
    purpose: 'Permissions (contact.index, contact.delete…), accordées aux rôles par role_permissions.',
    mariadb: `CREATE TABLE IF NOT EXISTS \`permissions\` (
  \`id\` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`code\` VARCHAR(150) NOT NULL,
  \`label\` VARCHAR(255) NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`uq_permissions_code\` (\`code\`)
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "permissions" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "code" VARCHAR(150) NOT NULL,
  "label" VARCHAR(255)
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_permissions_code" ON "permissions" ("code");`,
  },
  {
    name: 'role_permissions',
    purpose: 'Permissions accordées à chaque rôle.',
    mariadb: `CREATE TABLE IF NOT EXISTS \`role_permissions\` (
  \`role_id\` INT UNSIGNED NOT NULL,
  \`permission_id\` INT UNSIGNED NOT NULL,
  PRIMARY KEY (\`role_id\`, \`permission_id\`),
  KEY \`ix_role_permissions_permission_id\` (\`permission_id\`),
  CONSTRAINT \`fk_role_permissions_role\` FOREIGN KEY (\`role_id\`) REFERENCES \`roles\` (\`id\`) ON DELETE CASCADE,
  CONSTRAINT \`fk_role_permissions_permission\` FOREIGN KEY (\`permission_id\`) REFERENCES \`permissions\` (\`id\`) ON DELETE CASCADE
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "role_permissions" (
  "role_id" INTEGER NOT NULL,
  "permission_id" INTEGER NOT NULL,
  PRIMARY KEY ("role_id", "permission_id"),
  CONSTRAINT "fk_role_permissions_role" FOREIGN KEY ("role_id") REFERENCES "roles" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_role_permissions_permission" FOREIGN KEY ("permission_id") REFERENCES "permissions" ("id") ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS "ix_role_permissions_permission_id" ON "role_permissions" ("permission_id");`,
  },
  {
    name: 'auth_tokens',
    purpose: "Jetons à usage unique (vérification d'e-mail, réinitialisation), stockés hachés (SHA-256).",
    mariadb: `CREATE TABLE IF NOT EXISTS \`auth_tokens\` (
  \`id\` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`user_id\` INT UNSIGNED NOT NULL,
  \`purpose\` VARCHAR(50) NOT NULL,
  \`token_hash\` CHAR(64) NOT NULL,
  \`expires_at\` DATETIME NOT NULL,
  \`used_at\` DATETIME NULL,
  \`created_at\` DATETIME NOT NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`uq_auth_tokens_token_hash\` (\`token_hash\`),
  KEY \`ix_auth_tokens_user_id\` (\`user_id\`),
  CONSTRAINT \`fk_auth_tokens_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\` (\`id\`) ON DELETE CASCADE
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "auth_tokens" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "user_id" INTEGER NOT NULL,
  "purpose" VARCHAR(50) NOT NULL,
  "token_hash" CHAR(64) NOT NULL,
  "expires_at" DATETIME NOT NULL,
  "used_at" DATETIME,
  "created_at" DATETIME NOT NULL,
  CONSTRAINT "fk_auth_tokens_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_auth_tokens_token_hash" ON "auth_tokens" ("token_hash");
CREATE INDEX IF NOT EXISTS "ix_auth_tokens_user_id" ON "auth_tokens" ("user_id");`,
  },
  {
    name: 'auth_mfa_factors',
    purpose: 'Seconds facteurs TOTP ; totp_secret est stocké en clair (fw auth:doctor le signale).',
    mariadb: `CREATE TABLE IF NOT EXISTS \`auth_mfa_factors\` (
  \`id\` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`user_id\` INT UNSIGNED NOT NULL,
  \`factor_type\` VARCHAR(20) NOT NULL,
  \`totp_secret\` VARCHAR(255) NOT NULL,
  \`status\` VARCHAR(20) NOT NULL,
  \`label\` VARCHAR(100) NULL,
  \`last_used_step\` BIGINT NULL,
  \`confirmed_at\` DATETIME NULL,
  \`last_used_at\` DATETIME NULL,
  \`created_at\` DATETIME NOT NULL,
  \`updated_at\` DATETIME NOT NULL,
  PRIMARY KEY (\`id\`),
  KEY \`ix_auth_mfa_factors_user_id\` (\`user_id\`),
  CONSTRAINT \`fk_auth_mfa_factors_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\` (\`id\`) ON DELETE CASCADE
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "auth_mfa_factors" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "user_id" INTEGER NOT NULL,
  "factor_type" VARCHAR(20) NOT NULL,
  "totp_secret" VARCHAR(255) NOT NULL,
  "status" VARCHAR(20) NOT NULL,
  "label" VARCHAR(100),
  "last_used_step" BIGINT,
  "confirmed_at" DATETIME,
  "last_used_at" DATETIME,
  "created_at" DATETIME NOT NULL,
  "updated_at" DATETIME NOT NULL,
  CONSTRAINT "fk_auth_mfa_factors_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS "ix_auth_mfa_factors_user_id" ON "auth_mfa_factors" ("user_id");`,
  },
  {
    name: 'auth_mfa_recovery_codes',
    purpose: 'Codes de secours : SHA-256 hexadécimal du code normalisé, à usage unique.',
    mariadb: `CREATE TABLE IF NOT EXISTS \`auth_mfa_recovery_codes\` (
  \`id\` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`user_id\` INT UNSIGNED NOT NULL,
  \`code_hash\` CHAR(64) NOT NULL,
  \`used_at\` DATETIME NULL,
  \`created_at\` DATETIME NOT NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`uq_auth_mfa_recovery_codes_code_hash\` (\`code_hash\`),
  KEY \`ix_auth_mfa_recovery_codes_user_id\` (\`user_id\`),
  CONSTRAINT \`fk_auth_mfa_recovery_codes_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\` (\`id\`) ON DELETE CASCADE
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "auth_mfa_recovery_codes" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "user_id" INTEGER NOT NULL,
  "code_hash" CHAR(64) NOT NULL,
  "used_at" DATETIME,
  "created_at" DATETIME NOT NULL,
  CONSTRAINT "fk_auth_mfa_recovery_codes_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_auth_mfa_recovery_codes_code_hash" ON "auth_mfa_recovery_codes" ("code_hash");
CREATE INDEX IF NOT EXISTS "ix_auth_mfa_recovery_codes_user_id" ON "auth_mfa_recovery_codes" ("user_id");`,
  },
  {
    name: 'auth_audit_log',
    purpose: "Journal d'audit persistant, pour les applications qui recopient les événements fw.auth.audit.",
    mariadb: `CREATE TABLE IF NOT EXISTS \`auth_audit_log\` (
  \`id\` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`event_type\` VARCHAR(64) NOT NULL,
  \`level\` VARCHAR(10) NOT NULL,
  \`user_id\` INT UNSIGNED NULL,
  \`ip_address\` VARCHAR(45) NULL,
  \`user_agent\` VARCHAR(255) NULL,
  \`metadata\` TEXT NULL,
  \`created_at\` DATETIME NOT NULL,
  PRIMARY KEY (\`id\`),
  KEY \`ix_auth_audit_log_user_id\` (\`user_id\`),
  KEY \`ix_auth_audit_log_created_at\` (\`created_at\`)
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "auth_audit_log" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "event_type" VARCHAR(64) NOT NULL,
  "level" VARCHAR(10) NOT NULL,
  "user_id" INTEGER,
  "ip_address" VARCHAR(45),
  "user_agent" VARCHAR(255),
  "metadata" TEXT,
  "created_at" DATETIME NOT NULL
);
CREATE INDEX IF NOT EXISTS "ix_auth_audit_log_user_id" ON "auth_audit_log" ("user_id");
CREATE INDEX IF NOT EXISTS "ix_auth_audit_log_created_at" ON "auth_audit_log" ("created_at");`,
  },
  {
    name: 'auth_rate_limit_attempts',
    purpose: 'Tentatives de connexion, de second facteur et de dépôt, partagées entre processus (RATE_LIMIT_STORE=database).',
    mariadb: `CREATE TABLE IF NOT EXISTS \`auth_rate_limit_attempts\` (
  \`id\` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`action\` VARCHAR(32) NOT NULL,
  \`rate_key\` VARCHAR(255) NOT NULL,
  \`ip_address\` VARCHAR(45) NULL,
  \`user_id\` INT UNSIGNED NULL,
  \`success\` TINYINT(1) NOT NULL,
  \`created_at\` DATETIME(3) NOT NULL,
  PRIMARY KEY (\`id\`),
  KEY \`ix_auth_rate_limit_attempts_lookup\` (\`action\`, \`rate_key\`, \`created_at\`),
  KEY \`ix_auth_rate_limit_attempts_created_at\` (\`created_at\`)
) ${MARIADB_TABLE_OPTIONS};`,
    sqlite: `CREATE TABLE IF NOT EXISTS "auth_rate_limit_attempts" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "action" VARCHAR(32) NOT NULL,
  "rate_key" VARCHAR(255) NOT NULL,
  "ip_address" VARCHAR(45),
  "user_id" INTEGER,
  "success" TINYINT(1) NOT NULL,
  "created_at" DATETIME NOT NULL
);
CREATE INDEX IF NOT EXISTS "ix_auth_rate_limit_attempts_lookup" ON "auth_rate_limit_attempts" ("action", "rate_key", "created_at");
CREATE INDEX IF NOT EXISTS "ix_auth_rate_limit_attempts_created_at" ON "auth_rate_limit_attempts" ("created_at");`,
  },
];

/** The statements of one table for one dialect. */
export function authTableSql(table: AuthTable, dialect: DialectName): string {
  return dialect === 'mariadb' ? table.mariadb : table.sqlite;
}

/** Names of the auth tables, in dependency order. */
export const AUTH_TABLE_NAMES: readonly string[] = AUTH_TABLES.map((table) => table.name);
