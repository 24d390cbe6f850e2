/**
 * The tables of authentication, roles and the second factor (docs/auth.md "Setting up"), each described once
 * (runtime/db/ddl/table-spec.ts) and spelled per dialect by the renderer of the entity tables
 * (runtime/db/ddl/render.ts), in dependency order. `fw auth:init` writes them to `mvc/models/sql/auth/<table>.sql`
 * (MariaDB) and `<table>.sqlite.sql`; `fw db:apply` applies them after the entity tables. Technical tables use
 * snake_case columns; dates are UTC (`DATETIME` on MariaDB, `YYYY-MM-DD HH:MM:SS` text on SQLite); text columns
 * compare bytes on SQLite.
 *
 * E-mails are stored lower-cased by the code (runtime/auth/users.ts) and compared exactly: `users.email` is
 * utf8mb4_bin on MariaDB and NOCASE on SQLite (which folds only ASCII letters), docs/auth.md.
 */
import type { DialectName } from '../db/dialect.js';
import { cascadeForeignKey, column, FRAMEWORK_TABLE, idColumn, refColumn, UTF8MB4_BIN } from '../db/ddl/columns.js';
import { renderCreateTable } from '../db/ddl/render.js';
import type { TableSpec } from '../db/ddl/table-spec.js';

export interface AuthTable {
  /** Table name, also the file name without extension. */
  readonly name: string;
  /** What the table holds, written as the file's first comment line. */
  readonly purpose: string;
  /** What the table holds, for both dialects. */
  readonly spec: TableSpec;
}

function authTable(purpose: string, spec: Omit<TableSpec, 'sqliteTextCollation'>): AuthTable {
  return { name: spec.table, purpose, spec: { ...spec, ...FRAMEWORK_TABLE } };
}

const datetime = (name: string, nullable = false) => column(name, 'DATETIME', { nullable });

/** The auth tables, each after the tables it refers to. */
export const AUTH_TABLES: readonly AuthTable[] = [
  authTable('Comptes locaux : e-mail unique (stocké en minuscules, comparé octet par octet), hachage Argon2id, compte actif ou non.', {
    table: 'users',
    columns: [
      idColumn(),
      column('email', 'VARCHAR(190)', { mariadbCharset: UTF8MB4_BIN, sqliteCollation: 'NOCASE' }),
      column('password_hash', 'VARCHAR(255)'),
      column('is_active', 'TINYINT(1)', { default: '1' }),
      datetime('email_verified_at', true),
      datetime('last_login_at', true),
      datetime('created_at'),
      datetime('updated_at'),
    ],
    primaryKey: ['id'],
    uniques: [{ name: 'uq_users_email', columns: ['email'] }],
    indexes: [],
    foreignKeys: [],
  }),
  authTable('Rôles (admin, editeur…), créés par « fw auth:role:create ».', {
    table: 'roles',
    columns: [idColumn(), column('name', 'VARCHAR(100)'), datetime('created_at')],
    primaryKey: ['id'],
    uniques: [{ name: 'uq_roles_name', columns: ['name'] }],
    indexes: [],
    foreignKeys: [],
  }),
  authTable('Rôles de chaque utilisateur.', {
    table: 'user_roles',
    columns: [refColumn('user_id'), refColumn('role_id')],
    primaryKey: ['user_id', 'role_id'],
    uniques: [],
    indexes: [{ name: 'ix_user_roles_role_id', columns: ['role_id'] }],
    foreignKeys: [cascadeForeignKey('fk_user_roles_user', 'user_id', 'users'), cascadeForeignKey('fk_user_roles_role', 'role_id', 'roles')],
  }),
  authTable('Permissions (contact.index, contact.delete…), accordées aux rôles par role_permissions.', {
    table: 'permissions',
    columns: [idColumn(), column('code', 'VARCHAR(150)'), column('label', 'VARCHAR(255)', { nullable: true })],
    primaryKey: ['id'],
    uniques: [{ name: 'uq_permissions_code', columns: ['code'] }],
    indexes: [],
    foreignKeys: [],
  }),
  authTable('Permissions accordées à chaque rôle.', {
    table: 'role_permissions',
    columns: [refColumn('role_id'), refColumn('permission_id')],
    primaryKey: ['role_id', 'permission_id'],
    uniques: [],
    indexes: [{ name: 'ix_role_permissions_permission_id', columns: ['permission_id'] }],
    foreignKeys: [
      cascadeForeignKey('fk_role_permissions_role', 'role_id', 'roles'),
      cascadeForeignKey('fk_role_permissions_permission', 'permission_id', 'permissions'),
    ],
  }),
  authTable("Jetons à usage unique (vérification d'e-mail, réinitialisation), stockés hachés (SHA-256).", {
    table: 'auth_tokens',
    columns: [
      idColumn(),
      refColumn('user_id'),
      column('purpose', 'VARCHAR(50)'),
      column('token_hash', 'CHAR(64)'),
      datetime('expires_at'),
      datetime('used_at', true),
      datetime('created_at'),
    ],
    primaryKey: ['id'],
    uniques: [{ name: 'uq_auth_tokens_token_hash', columns: ['token_hash'] }],
    indexes: [{ name: 'ix_auth_tokens_user_id', columns: ['user_id'] }],
    foreignKeys: [cascadeForeignKey('fk_auth_tokens_user', 'user_id', 'users')],
  }),
  authTable('Seconds facteurs TOTP ; totp_secret est stocké en clair (fw auth:doctor le signale).', {
    table: 'auth_mfa_factors',
    columns: [
      idColumn(),
      refColumn('user_id'),
      column('factor_type', 'VARCHAR(20)'),
      column('totp_secret', 'VARCHAR(255)'),
      column('status', 'VARCHAR(20)'),
      column('label', 'VARCHAR(100)', { nullable: true }),
      column('last_used_step', 'BIGINT', { nullable: true }),
      datetime('confirmed_at', true),
      datetime('last_used_at', true),
      datetime('created_at'),
      datetime('updated_at'),
    ],
    primaryKey: ['id'],
    uniques: [],
    indexes: [{ name: 'ix_auth_mfa_factors_user_id', columns: ['user_id'] }],
    foreignKeys: [cascadeForeignKey('fk_auth_mfa_factors_user', 'user_id', 'users')],
  }),
  authTable('Codes de secours : SHA-256 hexadécimal du code normalisé, à usage unique.', {
    table: 'auth_mfa_recovery_codes',
    columns: [idColumn(), refColumn('user_id'), column('code_hash', 'CHAR(64)'), datetime('used_at', true), datetime('created_at')],
    primaryKey: ['id'],
    uniques: [{ name: 'uq_auth_mfa_recovery_codes_code_hash', columns: ['code_hash'] }],
    indexes: [{ name: 'ix_auth_mfa_recovery_codes_user_id', columns: ['user_id'] }],
    foreignKeys: [cascadeForeignKey('fk_auth_mfa_recovery_codes_user', 'user_id', 'users')],
  }),
  authTable("Journal d'audit persistant, pour les applications qui recopient les événements fw.auth.audit.", {
    table: 'auth_audit_log',
    columns: [
      idColumn('BIGINT UNSIGNED'),
      column('event_type', 'VARCHAR(64)'),
      column('level', 'VARCHAR(10)'),
      refColumn('user_id', { nullable: true }),
      column('ip_address', 'VARCHAR(45)', { nullable: true }),
      column('user_agent', 'VARCHAR(255)', { nullable: true }),
      column('metadata', 'TEXT', { nullable: true }),
      datetime('created_at'),
    ],
    primaryKey: ['id'],
    uniques: [],
    indexes: [
      { name: 'ix_auth_audit_log_user_id', columns: ['user_id'] },
      { name: 'ix_auth_audit_log_created_at', columns: ['created_at'] },
    ],
    foreignKeys: [],
  }),
  authTable('Tentatives de connexion, de second facteur et de dépôt, partagées entre processus (RATE_LIMIT_STORE=database).', {
    table: 'auth_rate_limit_attempts',
    columns: [
      idColumn('BIGINT UNSIGNED'),
      column('action', 'VARCHAR(32)'),
      column('rate_key', 'VARCHAR(255)'),
      column('ip_address', 'VARCHAR(45)', { nullable: true }),
      refColumn('user_id', { nullable: true }),
      column('success', 'TINYINT(1)'),
      // Milliseconds on MariaDB; SQLite keeps the text the runtime writes.
      column('created_at', 'DATETIME(3)', { sqliteType: 'DATETIME' }),
    ],
    primaryKey: ['id'],
    uniques: [],
    indexes: [
      { name: 'ix_auth_rate_limit_attempts_lookup', columns: ['action', 'rate_key', 'created_at'] },
      { name: 'ix_auth_rate_limit_attempts_created_at', columns: ['created_at'] },
    ],
    foreignKeys: [],
  }),
];

/** The statements of one table for one dialect. */
export function authTableSql(table: AuthTable, dialect: DialectName): string {
  return renderCreateTable(table.spec, dialect).join('\n');
}

/** Names of the auth tables, in dependency order. */
export const AUTH_TABLE_NAMES: readonly string[] = AUTH_TABLES.map((table) => table.name);
