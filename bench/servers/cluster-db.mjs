/** The 12-row table of the cluster section's servers: a SQLite file in BENCH_CLUSTER_DIR, written once by the section. */
import path from 'node:path';
import Database from 'better-sqlite3';

export const ROWS_SQL = 'SELECT id, name, city FROM people ORDER BY id LIMIT 12';

/** Creates `people.sqlite` (200 rows) in `dir`; the servers only read it. */
export function createRowsDatabase(dir) {
  const db = new Database(path.join(dir, 'people.sqlite'));
  db.exec('CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO people (name, city) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= 200; i++) insert.run(`Personne <${i}> & "co"`, `Ville ${i % 17}`);
  })();
  db.close();
}

export function rowsDatabaseFile(dir = process.env.BENCH_CLUSTER_DIR) {
  return path.join(dir, 'people.sqlite');
}
