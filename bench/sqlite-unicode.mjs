/**
 * What the unicode search and sort of SQLite cost (docs/crud.md "Search and sort on SQLite"): the list query of a
 * generated model (COUNT, then one page of 20) over a SQLite table of 100,000 rows, with the SQL of the `sqlite`
 * dialect (fw_contains / fw_sort_key) and with the plain SQL (binary LIKE and ORDER BY, as before). Median of runs, in ms.
 * Run after `npm run build`: `node bench/sqlite-unicode.mjs`. Env: BENCH_UNICODE_ROWS (100000), BENCH_UNICODE_RUNS (15).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const { openDatabase } = await import(pathToFileURL(path.join(REPO, 'dist', 'runtime', 'db', 'index.js')).href);
const { ListQuery } = await import(pathToFileURL(path.join(REPO, 'dist', 'runtime', 'crud', 'index.js')).href);

const ROWS = Number(process.env.BENCH_UNICODE_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_UNICODE_RUNS ?? 15);
const SPEC = {
  sortable: { id: 't.id', libelle: 't.libelle', quantite: 't.quantite' },
  defaultSort: 'id',
  searchable: ['t.libelle', 't.reference'],
  filters: {},
};
const WORDS = ['Écrou', 'écrou', 'vis', 'Boulon', 'rondelle', 'Clé', 'Œillet', 'Zèbre', 'ânerie', 'tournevis', 'marteau', 'Scie'];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-unicode-'));
const db = openDatabase({ driver: 'sqlite', file: path.join(dir, 'bench.sqlite') });
try {
  await db.execute(
    'CREATE TABLE produits (id INTEGER PRIMARY KEY AUTOINCREMENT, libelle VARCHAR(100) NOT NULL, reference VARCHAR(30) NOT NULL, quantite INT NOT NULL)',
  );
  await db.transaction(async (tx) => {
    for (let i = 0; i < ROWS; i++) {
      const word = WORDS[i % WORDS.length];
      await tx.insert('INSERT INTO produits (libelle, reference, quantite) VALUES (?, ?, ?)', [
        `${word} ${i} modèle ${(i * 7919) % 1000}`,
        `REF-${i}`,
        (i * 31) % 500,
      ]);
    }
  });

  /** One list request: COUNT with the WHERE, then the page. */
  async function listPage(params, dialect) {
    const query = ListQuery.fromRequest({ params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, [v]])) }, SPEC);
    const where = query.where(dialect);
    const t0 = performance.now();
    const count = await db.fetchOne(`SELECT COUNT(*) AS total FROM produits t ${where.sql}`, where.params);
    if (Number(count.total) > 0)
      await db.fetchAll(`SELECT t.id, t.libelle FROM produits t ${where.sql} ${query.orderBy(dialect)} LIMIT 20 OFFSET 0`, where.params);
    return performance.now() - t0;
  }

  const cases = [
    ['page 1, default sort (id)', {}],
    ['sort=libelle', { sort: 'libelle', direction: 'asc' }],
    ['sort=quantite', { sort: 'quantite', direction: 'asc' }],
    ['q=ecrou', { q: 'ecrou' }],
    ['q=ecrou, sort=libelle', { q: 'ecrou', sort: 'libelle', direction: 'asc' }],
  ];
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  console.log(`SQLite, ${ROWS} rows, median of ${RUNS} runs (ms): plain SQL | fw_contains / fw_sort_key`);
  for (const [label, params] of cases) {
    const times = { plain: [], unicode: [] };
    await listPage(params, 'mariadb');
    await listPage(params, 'sqlite');
    for (let i = 0; i < RUNS; i++) {
      times.plain.push(await listPage(params, 'mariadb'));
      times.unicode.push(await listPage(params, 'sqlite'));
    }
    console.log(`  ${label.padEnd(28)} ${median(times.plain).toFixed(1).padStart(8)} | ${median(times.unicode).toFixed(1).padStart(8)}`);
  }
} finally {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
