/** Configuration registry (docs/api-mapping.md "Configuration (`core.forge`)"). */
import path from 'node:path';
import type { DialectName } from './db/dialect.js';

/** Thrown when a configuration key is unknown (a `KeyError` under the old Python name; docs/api-mapping.md). */
export class ConfigKeyError extends Error {
  constructor(readonly key: string) {
    super(`Clé de configuration inconnue : « ${key} ». Clés connues : ${Object.keys(DEFAULTS).join(', ')}.`);
    this.name = 'ConfigKeyError';
  }
}

const DEFAULTS = {
  app_name: 'fw-mvc',
  app_env: 'dev',
  project_root: process.cwd(),
  views_dir: 'mvc/views',
  sql_dir: 'mvc/models/sql',
  static_dir: 'static',
  translations_dir: 'translations',
  locale: 'fr',
  /** The IANA time zone moments kept in UTC are shown in; null: APP_TIMEZONE, else Europe/Paris (docs/runtime.md "Templates and i18n"). */
  timezone: null as string | null,
  upload_root: 'storage/uploads',
  upload_max_size: 5_242_880,
  /**
   * Bytes a multipart body may hold in all before it is refused whole (413); null: `body_max_size + 4 ×
   * upload_max_size`. A file over `upload_max_size` within it is a 422 under its field (docs/uploads.md "Limits").
   */
  upload_body_max_size: null as number | null,
  /** Pixels (width × height) an uploaded image may have; more is a 422 before decoding (docs/uploads.md "Limits"). */
  upload_max_pixels: 50_000_000,
  upload_allowed_extensions: ['jpg', 'jpeg', 'png', 'webp', 'pdf'] as string[],
  upload_allowed_mime_types: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as string[],
  /** Categories `/media/<path>` serves to anyone; the others need a signed-in session (docs/decisions.md#uploads-and-media, docs/uploads.md). */
  media_public_categories: ['images'] as string[],
  /** The SMTP server of `fw-mvc/mail` (docs/mail.md "Configuration"). */
  mail_host: '',
  mail_port: 587,
  mail_username: '',
  /** Never written to the log, the console or `mail_log`. */
  mail_password: '',
  /** The sender, `adresse@exemple.fr` or `Nom <adresse@exemple.fr>`, used when a message names none. */
  mail_from: '',
  /** STARTTLS required: the message is not sent when the server does not offer it. */
  mail_use_tls: false,
  /** Implicit TLS from the first byte (port 465). */
  mail_use_ssl: false,
  /** Seconds each SMTP step (connection, greeting, each answer) may take before the attempt fails. */
  mail_timeout: 10,
  /**
   * Seconds the sender's claim on a message holds; past it, a message whose sender died is sent by another one.
   * null: `6 × mail_timeout + 30`, longer than one attempt can last (docs/mail.md "sendMail and the outbox").
   */
  mail_claim_seconds: null as number | null,
  /** False: messages are recorded in `mail_log` as `skipped`, never sent. */
  mail_enabled: true,
  /** How messages leave: `smtp`; `console` prints them; `file` writes `.eml` files under `mail_dir`. */
  mail_transport: 'smtp' as 'smtp' | 'console' | 'file',
  /** The folder of the `file` transport. */
  mail_dir: 'storage/mail',
  /** `serve()` starts a worker of `fw-mvc/jobs` in each process (false: only `fw jobs:work` runs jobs; docs/jobs.md). */
  jobs_in_serve: true,
  /** Jobs a worker runs at once in each queue (docs/jobs.md "Workers"). */
  jobs_concurrency: 5,
  db_driver: 'sqlite' as DialectName,
  db_file: 'storage/database.sqlite',
  db_host: 'localhost',
  db_port: 3306,
  db_name: 'fw_db',
  db_user: 'root',
  db_password: '',
  db_pool_size: 5,
  /** MariaDB: longest wait for the server to accept a new connection (docs/runtime.md "Database time-outs"). */
  db_connect_timeout_ms: 5000,
  /** MariaDB: longest wait for a free connection of the pool. */
  db_pool_wait_ms: 5000,
  /** MariaDB: longest wait for the answer to one statement; 0 for none. */
  db_query_timeout_ms: 30_000,
  /** SQLite: longest wait for another process's lock on the file. */
  db_busy_timeout_ms: 5000,
  /** Seconds announced in `Retry-After` when the database is unavailable (503). */
  db_retry_after: 5,
  css_visible: 'block',
  css_hidden: 'hidden',
  body_max_size: 1_048_576,
  /** Sessions the memory store holds at most; null: SESSION_MEMORY_MAX from the environment, else 10,000 (docs/runtime.md). */
  session_memory_max: null as number | null,
  /** The session backend: memory, file, database or redis; null: SESSION_STORE from the environment, else memory (docs/runtime.md "Sessions"). */
  session_store: null as 'memory' | 'file' | 'database' | 'redis' | null,
  /** The folder of the file session store (one JSON file per session). */
  session_dir: 'storage/sessions',
  /** Seconds a session lives without being used (sliding). */
  session_ttl: 3600,
  /**
   * The application's secret (HMAC key of the CSRF tokens of anonymous visitors); null: APP_SECRET from the
   * environment, else a random one kept in `<session_dir>/.app_secret` (docs/runtime.md "CSRF").
   */
  app_secret: null as string | null,
  /**
   * The application's public address (`https://exemple.fr`), the base of the links sent by mail (password reset);
   * null: APP_URL from the environment (docs/auth.md "Password reset").
   */
  app_url: null as string | null,
  /** Where login and upload attempts are counted: memory, database or redis; null: RATE_LIMIT_STORE, else memory (docs/auth.md). */
  rate_limit_store: null as 'memory' | 'database' | 'redis' | null,
  /** The Redis server of the redis session and limit stores; null: REDIS_URL, else redis://127.0.0.1:6379 (docs/deploy.md). */
  redis_url: null as string | null,
  /** The prefix of every key those stores write; null: REDIS_PREFIX, else `fw:` (several applications on one Redis). */
  redis_prefix: null as string | null,
  /** Milliseconds Redis has to accept a connection or answer a command; then 503 (docs/deploy.md). */
  redis_timeout_ms: 2000,
  /** Peers (IPs or CIDRs) whose X-Forwarded-For is believed; null: TRUSTED_PROXIES from the environment, else none (docs/auth.md). */
  trusted_proxies: null as string[] | null,
  /** Fields (and multipart parts) a form body may carry; more is a 413 (docs/runtime.md "Limits and time-outs"). */
  max_form_fields: 1000,
  /** Seconds a client has to send the whole head of a request; then 408 and the connection is closed. */
  http_headers_timeout: 10,
  /** Seconds a client has to send a whole request, head and body. */
  http_request_timeout: 30,
  /** Seconds an idle keep-alive connection is kept open. */
  http_keep_alive_timeout: 5,
  /** Open connections the server accepts at once; past it new connections are closed at once (0: no cap). */
  max_connections: 1000,
  router: null as unknown,
};

export type ConfigValues = typeof DEFAULTS;
export type ConfigKey = keyof ConfigValues;

/** Keys whose relative value is resolved from `project_root`. */
const PATH_KEYS: ReadonlySet<string> = new Set(['views_dir', 'sql_dir', 'upload_root', 'static_dir', 'translations_dir', 'db_file', 'session_dir', 'mail_dir']);

/** A fresh copy of the defaults; lists are copied so that mutating a value read with get() cannot change the defaults. */
function freshDefaults(): ConfigValues {
  const copy = { ...DEFAULTS, project_root: process.cwd() };
  copy.upload_allowed_extensions = [...DEFAULTS.upload_allowed_extensions];
  copy.upload_allowed_mime_types = [...DEFAULTS.upload_allowed_mime_types];
  copy.media_public_categories = [...DEFAULTS.media_public_categories];
  return copy;
}

let values: ConfigValues = freshDefaults();
const listeners: Array<(keys: string[]) => void> = [];

/** Sets configuration keys; an unknown key throws ConfigKeyError and nothing is changed. */
export function configure(settings: Partial<ConfigValues>): void {
  const keys = Object.keys(settings);
  for (const key of keys) if (!Object.hasOwn(DEFAULTS, key)) throw new ConfigKeyError(key);
  values = { ...values, ...settings };
  for (const listener of listeners) listener(keys);
}

/** Returns a configuration value; an unknown key throws ConfigKeyError. */
export function get<K extends ConfigKey>(key: K): ConfigValues[K] {
  if (!Object.hasOwn(DEFAULTS, key)) throw new ConfigKeyError(key);
  return values[key];
}

/** Returns a path key resolved against `project_root`. */
export function getPath(key: 'views_dir' | 'sql_dir' | 'upload_root' | 'static_dir' | 'translations_dir' | 'db_file' | 'session_dir' | 'mail_dir'): string {
  const value = values[key];
  return PATH_KEYS.has(key) && !path.isAbsolute(value) ? path.resolve(values.project_root, value) : value;
}

/** Restores every key to its default (tests). */
export function resetConfig(): void {
  values = freshDefaults();
  for (const listener of listeners) listener(Object.keys(DEFAULTS));
}

/** Called with the changed keys after each configure(); used by caches that depend on configuration. */
export function onConfigChange(listener: (keys: string[]) => void): void {
  listeners.push(listener);
}
