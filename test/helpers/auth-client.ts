/**
 * What the authentication tests share: a browser-like client that keeps the `session_id` cookie and reads a
 * fresh CSRF token from the page it is given, and a database for the auth tables on SQLite or on a throw-away
 * MariaDB database.
 */
import type { Database, DialectName } from '../../runtime/db/index.js';
import { AUTH_TABLES, authTableSql } from '../../runtime/auth/schema.js';
import type { configure } from '../../runtime/config.js';
import { freshDatabase } from './dialects.js';

export interface Page {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Every Set-Cookie header of the response. */
  readonly cookies: string[];
}

/**
 * Keeps the `session_id` cookie, like a browser (an anonymous visitor's one too: its CSRF token is bound to it);
 * `cookie` may be set by hand to replay an old session id.
 */
export class SessionClient {
  private session = '';
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  /** The Cookie header sent. */
  get cookie(): string {
    return this.session;
  }
  set cookie(value: string) {
    this.session = value;
  }

  async request(method: string, url: string, form?: Array<[string, string]>, headers: Record<string, string> = {}): Promise<Page> {
    const all: Record<string, string> = { ...this.headers, ...headers };
    if (this.cookie) all.cookie = this.cookie;
    let body: string | undefined;
    if (form) {
      all['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form).toString();
    }
    const response = await fetch(this.base + url, { method, headers: all, body, redirect: 'manual' });
    const cookies = response.headers.getSetCookie();
    for (const cookie of cookies) {
      const pair = /^session_id=([^;]*)/.exec(cookie);
      if (!pair) continue;
      this.session = /Max-Age=0/i.test(cookie) || pair[1] === '' ? '' : `session_id=${pair[1]}`;
    }
    return { status: response.status, headers: response.headers, text: await response.text(), cookies };
  }

  get(url: string, headers?: Record<string, string>): Promise<Page> {
    return this.request('GET', url, undefined, headers);
  }

  /** The CSRF token of the form on `page` (read again each time: it changes at login). */
  async csrf(page = '/login'): Promise<string> {
    const result = await this.get(page);
    const match = /name="csrf_token" value="([^"]+)"/.exec(result.text);
    if (!match) throw new Error(`aucun jeton CSRF sur ${page} (${result.status}) :\n${result.text.slice(0, 400)}`);
    return match[1]!;
  }

  /** POSTs a form with a fresh token from `tokenPage`, unless the form carries its own `csrf_token`. */
  async post(url: string, form: Array<[string, string]> = [], tokenPage = '/login'): Promise<Page> {
    const fields = form.some(([name]) => name === 'csrf_token') ? form : [['csrf_token', await this.csrf(tokenPage)] as [string, string], ...form];
    return this.request('POST', url, fields);
  }

  /** The login form posted with a fresh token. */
  login(login: string, password: string, next?: string): Promise<Page> {
    const form: Array<[string, string]> = [
      ['login', login],
      ['password', password],
    ];
    if (next !== undefined) form.push(['next', next]);
    return this.post('/login', form);
  }

  /** The session id currently held (the cookie's value), or ''. */
  get sessionId(): string {
    return this.session.slice('session_id='.length);
  }
}

export interface AuthDatabase {
  readonly dialect: DialectName;
  /** An admin handle on the database (the tests read and change rows with it). */
  readonly db: Database;
  /** `configure()` keys that point the runtime's default database at it. */
  readonly config: Parameters<typeof configure>[0];
  /** Empties every auth table (between tests). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** A database holding the auth tables: a fresh database of `dialect` (helpers/dialects.ts), removed by `close()`. */
export async function openAuthDatabase(dialect: DialectName, prefix = 'fw_auth'): Promise<AuthDatabase> {
  const fresh = await freshDatabase(dialect, { prefix, poolSize: 2 });
  const { database: db, config } = fresh;
  for (const table of AUTH_TABLES) {
    for (const statement of authTableSql(table, dialect).split(/;\s*(?:\n|$)/)) if (statement.trim()) await db.execute(statement);
  }
  return {
    dialect,
    db,
    config,
    async reset() {
      for (const table of [...AUTH_TABLES].reverse()) await db.execute(`DELETE FROM ${table.name}`);
    },
    close: () => fresh.close(),
  };
}
