/**
 * The list page's far pages (docs/performance.md "Far pages: the keys first, then the rows"): the rows of page 1, a
 * middle page and the last page of the generated Contacts list over 100,000 rows, read the plain way
 * (`SELECT … WHERE … ORDER BY … LIMIT ? OFFSET ?`) and keys first (`keysFirstSql` of runtime/crud/list-page.ts),
 * with the default sort, a sort on an indexed text column (Nom, 5,000 values: ties broken by the key), a sort on a
 * column without an index (Prenom), a filter and a search. Both dialects:
 * - MariaDB: `ANALYZE FORMAT=JSON` (the server's `r_total_time_ms` and the plan) and the wall time of the query
 *   through the runtime's Database;
 * - SQLite: `EXPLAIN QUERY PLAN` and the wall time of better-sqlite3's `all()` (with the runtime's fw_* functions).
 * Forms alternate inside each run; figures are medians of BENCH_FAR_RUNS runs (7). Every case checks that both forms
 * give the same rows in the same order. Not part of `npm test` or `npm run bench`: `npm run build`, then
 * `node bench/list-far-pages.mjs` (BENCH_FAR_ROWS=100000, BENCH_FAR_RUNS=7, BENCH_FAR_DIALECTS=mariadb,sqlite).
 * The projects are built by the CLI as the HTTP tests build theirs (dist/test/helpers/crud-app.js) and removed after.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dist = (file) => import(pathToFileURL(path.join(REPO, 'dist', file)).href);
const helpers = await dist('test/helpers/crud-app.js');
const { keysFirstSql } = await dist('runtime/crud/list-page.js');
const { ListQuery } = await dist('runtime/crud/list-query.js');
const { registerUnicodeFunctions } = await dist('runtime/db/dialects/sqlite/unicode-ci.js');

const ROWS = Number(process.env.BENCH_FAR_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_FAR_RUNS ?? 7);
const DIALECTS = (process.env.BENCH_FAR_DIALECTS ?? 'mariadb,sqlite').split(',');
const PER_PAGE = 20;

/** [label, query string of the list page]; each is measured on page 1, the middle page and the last page. */
const CASES = [
  ['default sort (key desc)', {}],
  ['sort Nom asc (indexed, ties)', { sort: 'nom', direction: 'asc' }],
  ['sort Prenom asc (no index)', { sort: 'prenom', direction: 'asc' }],
  ['filter actif=1', { actif: '1' }],
  ['filter actif=1, ville=8', { actif: '1', ville_id: '8' }],
  ['search q=Nom1', { q: 'Nom1' }],
  ['filter actif=1, ville=8, sort Prenom', { actif: '1', ville_id: '8', sort: 'prenom', direction: 'asc' }],
  ['search q=Nom1, sort Prenom', { q: 'Nom1', sort: 'prenom', direction: 'asc' }],
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;

/** The list's SELECT, COUNT and allow-lists of the generated description, read by the project's own TypeScript loader. */
function crudModule(project) {
  const script =
    "const { CONTACT_CRUD: d } = await import('./mvc/models/contact_crud.ts'); console.log(JSON.stringify({ select: d.sql.select, count: d.sql.count, spec: d.list }));";
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: project.root, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1));
}

/** The two SQL texts of one page and their parameters. */
function forms(module, params, dialect, offset) {
  const query = ListQuery.fromRequest({ params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, [v]])) }, module.spec);
  const where = query.where(dialect);
  const orderBy = query.orderBy(dialect);
  const key = module.spec.sortable[module.spec.defaultSort];
  return {
    plain: `${module.select} ${where.sql} ${orderBy} LIMIT ? OFFSET ?`,
    keys: keysFirstSql(module, key, where.sql, orderBy, dialect),
    params: [...where.params, PER_PAGE, offset],
    count: [`${module.count} ${where.sql}`, where.params],
  };
}

/** The tables of an ANALYZE FORMAT=JSON plan, one short phrase each. */
function mariaPlan(node, out = []) {
  if (Array.isArray(node)) node.forEach((child) => mariaPlan(child, out));
  else if (node && typeof node === 'object') {
    if (node.filesort) out.push('filesort');
    if (node.table && node.table.table_name) {
      const t = node.table;
      const rows = t.r_rows === undefined ? '' : ` ${Math.round(t.r_rows * (t.r_loops ?? 1)).toLocaleString('en')} rows`;
      out.push(`${t.table_name} ${t.access_type}${t.key ? ` ${t.key}` : ''}${rows}`);
    }
    for (const [name, child] of Object.entries(node)) if (name !== 'table' || !node.table?.table_name) mariaPlan(child, out);
    if (node.table?.table_name) mariaPlan(node.table.materialized ?? {}, out);
  }
  return out;
}

async function fillMariaDb(project) {
  await project.sql([
    "INSERT INTO villes (Nom) SELECT CONCAT('Ville ', seq) FROM seq_1_to_50",
    `INSERT INTO contacts (Nom, Prenom, Email, Telephone, Actif, Notes, VilleId)
     SELECT CONCAT('Nom', seq % 5000), CONCAT('Prenom', seq), CONCAT('p', seq, '@exemple.fr'), NULL, seq % 2, NULL, 1 + seq % 50
     FROM seq_1_to_${ROWS}`,
    'ANALYZE TABLE contacts',
  ]);
}

async function fillSqlite(project) {
  await project.sql([
    "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 50) INSERT INTO villes (Nom) SELECT 'Ville ' || n FROM s",
    `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS})
     INSERT INTO contacts (Nom, Prenom, Email, Telephone, Actif, Notes, VilleId)
     SELECT 'Nom' || (n % 5000), 'Prenom' || n, 'p' || n || '@exemple.fr', NULL, n % 2, NULL, 1 + n % 50 FROM s`,
    'ANALYZE',
  ]);
}

/** One dialect's runner: rows (for the check), the time of one execution, the plan. */
async function runner(dialect, project) {
  if (dialect === 'mariadb') {
    const db = project.open();
    return {
      rows: (sql, params) => db.fetchAll(sql, params),
      async time(sql, params) {
        const start = process.hrtime.bigint();
        await db.fetchAll(sql, params);
        const wall = ms(start);
        const [row] = await db.fetchAll(`ANALYZE FORMAT=JSON ${sql}`, params);
        const json = JSON.parse(Object.values(row)[0]);
        return { wall, server: json.query_block.r_total_time_ms, plan: mariaPlan(json.query_block).join('; ') };
      },
      close: () => db.close(),
    };
  }
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(project.path('storage/database.sqlite'), { readonly: true });
  registerUnicodeFunctions(db);
  return {
    rows: (sql, params) => db.prepare(sql).all(...params),
    time(sql, params) {
      const statement = db.prepare(sql);
      const start = process.hrtime.bigint();
      statement.all(...params);
      const wall = ms(start);
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((r) => r.detail)
        .join('; ');
      return { wall, server: null, plan };
    },
    close: () => db.close(),
  };
}

async function measure(dialect, log) {
  const project = helpers.buildCrudApp(dialect);
  const results = [];
  let run;
  try {
    log(`\n${dialect}: filling ${ROWS.toLocaleString('en')} contacts…`);
    await (dialect === 'mariadb' ? fillMariaDb(project) : fillSqlite(project));
    const module = crudModule(project);
    run = await runner(dialect, project);
    for (const [label, params] of CASES) {
      const count = forms(module, params, dialect, 0).count;
      const [{ total }] = await run.rows(`${count[0]}`, count[1]);
      const pages = Math.max(1, Math.ceil(Number(total) / PER_PAGE));
      for (const [where, page] of [
        ['page 1', 1],
        ['page 2', 2],
        ['page 11', 11],
        ['page 26', 26],
        ['page 51', 51],
        ['page 101', 101],
        ['middle', Math.ceil(pages / 2)],
        ['last', pages],
      ]) {
        if (page > pages) continue;
        const sql = forms(module, params, dialect, (page - 1) * PER_PAGE);
        if (!sql.keys) throw new Error('keysFirstSql a rendu null pour le module généré');
        const [plainRows, keyRows] = [await run.rows(sql.plain, sql.params), await run.rows(sql.keys, sql.params)];
        const same = JSON.stringify(plainRows) === JSON.stringify(keyRows);
        const samples = { plain: [], keys: [] };
        for (let i = 0; i < RUNS; i++) {
          for (const form of i % 2 ? ['keys', 'plain'] : ['plain', 'keys']) samples[form].push(await run.time(sql[form], sql.params));
        }
        const row = { dialect, label, where, offset: (page - 1) * PER_PAGE, total: Number(total), same };
        for (const form of ['plain', 'keys']) {
          row[form] = {
            wallMs: median(samples[form].map((s) => s.wall)),
            serverMs: dialect === 'mariadb' ? median(samples[form].map((s) => s.server)) : null,
            plan: samples[form].at(-1).plan,
          };
        }
        results.push(row);
        const fmt = (f) => `${(f.serverMs ?? f.wallMs).toFixed(2).padStart(8)}`;
        log(
          `  ${label.padEnd(38)} ${where.padEnd(8)} offset ${String(row.offset).padStart(6)}  plain ${fmt(row.plain)} ms  keys ${fmt(row.keys)} ms  ${same ? 'same rows' : 'ROWS DIFFER'}`,
        );
        log(`      plain: ${row.plain.plan}\n      keys:  ${row.keys.plan}`);
      }
    }
  } finally {
    await run?.close();
    await project.cleanup();
  }
  return results;
}

const log = console.log;
log(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const all = [];
for (const dialect of DIALECTS) all.push(...(await measure(dialect, log)));
log(
  `load average after: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
fs.mkdirSync(path.join(REPO, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(REPO, 'bench', 'results', 'list-far-pages.json'), JSON.stringify({ loadavg: os.loadavg(), results: all }, null, 2) + '\n');
if (all.some((r) => !r.same)) process.exitCode = 1;
