/**
 * How busy the database pools of this process are, for the metrics (docs/deploy.md "Metrics"): each pool a dialect
 * opens (MariaDB's, runtime/db/dialects/mariadb/pool.ts) counts here the connections it may open, those lent out
 * and the callers waiting for one. SQLite has no pool and counts nothing. Plain counters: nothing is read from the
 * driver's internals, and counting costs two additions per query.
 */
export interface PoolCounters {
  /** Connections the pool may open (its `connectionLimit`). */
  size: number;
  /** Connections lent out and not given back yet. */
  inUse: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

const pools = new Set<PoolCounters>();

/** A pool's counters, counted in the process's totals until `forget()` (the pool's end). */
export function countPool(size: number): { counters: PoolCounters; forget(): void } {
  const counters: PoolCounters = { size, inUse: 0, waiting: 0 };
  pools.add(counters);
  return { counters, forget: () => pools.delete(counters) };
}

/** The totals over the open pools of this process. */
export function poolUsage(): PoolCounters & { pools: number } {
  const total = { size: 0, inUse: 0, waiting: 0, pools: pools.size };
  for (const pool of pools) {
    total.size += pool.size;
    total.inUse += pool.inUse;
    total.waiting += pool.waiting;
  }
  return total;
}
