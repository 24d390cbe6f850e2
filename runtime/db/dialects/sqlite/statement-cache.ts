/**
 * The prepared statements of one SQLite connection, kept by SQL text: Kysely's SQLite driver prepares every query
 * again, and SQLite's parsing and planning then cost each request as much as running a small query
 * (docs/performance.md "Cluster: CPU per request and memory per process, one process against two"). The most recently used STATEMENT_CACHE_SIZE statements are kept; a statement
 * whose schema changed is prepared again by SQLite itself (sqlite3_prepare_v3), so a migration needs no flush.
 */

/** What Kysely's SqliteDialect needs of a connection (its `SqliteDatabase`). */
export interface StatementSource<S> {
  prepare(sql: string): S;
  close(): void;
}

/** The statements kept per connection: the queries of an application's pages, with room to spare. */
export const STATEMENT_CACHE_SIZE = 200;

/**
 * The connection `db` for Kysely, with `prepare` answered from the cache. A statement is reused only between two
 * queries of the same connection, which Kysely runs one at a time (the fw database layer never streams rows,
 * so no iteration holds a statement open while another query runs).
 */
export function withStatementCache<S>(db: StatementSource<S>, size: number = STATEMENT_CACHE_SIZE): StatementSource<S> {
  const statements = new Map<string, S>();
  return {
    prepare(sql: string): S {
      const kept = statements.get(sql);
      if (kept !== undefined) {
        // Moved to the end: the Map's order is the order of use, its first entry the least recently used.
        statements.delete(sql);
        statements.set(sql, kept);
        return kept;
      }
      const statement = db.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
    close(): void {
      statements.clear();
      db.close();
    },
  };
}
