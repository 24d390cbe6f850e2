/**
 * The list page of the `crud` bench written by hand: node:http, mysql2 and nunjucks, the Contacts list's markup
 * (bench/views/list.html) and the queries the generated page makes (runtime/crud/list-page.ts): the cities of the
 * filter, then without a search the count (kept 5 s per query) and the rows, with a search the rows first and the
 * count only for a full page; like the generated page, each row's delete form carries the list's state. What
 * fw-mvc adds to this is its own cost. Reads BENCH_DB_* (host, port, user, password, name) and listens on an
 * ephemeral port of 127.0.0.1.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import mysql from 'mysql2/promise';
import { HTML_TYPE, SECURITY_FLAT, announce, nunjucksEnv } from '../shared.mjs';

const env = nunjucksEnv();
const pool = mysql.createPool({
  host: process.env.BENCH_DB_HOST ?? '127.0.0.1',
  port: Number(process.env.BENCH_DB_PORT ?? 3306),
  user: process.env.BENCH_DB_USER ?? 'root',
  password: process.env.BENCH_DB_PASSWORD ?? '',
  database: process.env.BENCH_DB_NAME,
  connectionLimit: 5,
});
const SECRET = randomBytes(32);
const PER_PAGE = 20;
const SELECT =
  'SELECT t.Id, t.Nom, t.Prenom, t.Email, t.Telephone, t.Actif, t.Notes, t.VilleId, r.Nom AS ville_id_label FROM contacts t LEFT JOIN villes r ON r.Id = t.VilleId';
const SORTS = { id: 't.Id', nom: 't.Nom', prenom: 't.Prenom', email: 't.Email', telephone: 't.Telephone', actif: 't.Actif', ville_id: 't.VilleId' };
const LABELS = { id: '#', nom: 'Nom', prenom: 'Prenom', email: 'Email', telephone: 'Telephone', actif: 'Actif', ville_id: 'Ville' };
const counts = new Map();

async function count(where, params) {
  const key = where + JSON.stringify(params);
  const hit = counts.get(key);
  if (hit && hit.expires > Date.now()) return hit.total;
  const [rows] = await pool.query(`SELECT COUNT(*) AS total FROM contacts t ${where}`, params);
  const total = Number(rows[0].total);
  counts.set(key, { total, expires: Date.now() + 5000 });
  return total;
}

function link(state, extra) {
  const search = new URLSearchParams();
  const all = { ...state, ...extra };
  for (const name of Object.keys(all).sort()) if (all[name] !== '' && all[name] !== undefined) search.append(name, String(all[name]));
  const query = search.toString();
  return query ? `/contacts?${query}` : '/contacts';
}

async function listPage(url) {
  const q = (url.searchParams.get('q') ?? '').trim();
  const filters = {};
  const parts = [];
  const params = [];
  if (q) {
    const pattern = `%${q.replace(/[!%_]/g, (c) => `!${c}`)}%`;
    parts.push(`(${['t.Nom', 't.Prenom', 't.Email', 't.Telephone', 't.Notes'].map((c) => `${c} LIKE ? ESCAPE '!'`).join(' OR ')})`);
    params.push(pattern, pattern, pattern, pattern, pattern);
  }
  for (const [name, column, test] of [
    ['nom', 't.Nom', /./],
    ['actif', 't.Actif', /^[01]$/],
    ['ville_id', 't.VilleId', /^\d{1,15}$/],
  ]) {
    const value = (url.searchParams.get(name) ?? '').trim();
    if (value && test.test(value)) {
      filters[name] = value;
      parts.push(`${column} = ?`);
      params.push(name === 'nom' ? value : Number(value));
    }
  }
  const where = parts.length ? `WHERE ${parts.join(' AND ')}` : '';
  const sort = Object.hasOwn(SORTS, url.searchParams.get('sort') ?? '') ? url.searchParams.get('sort') : null;
  const direction = sort && url.searchParams.get('direction') === 'desc' ? 'DESC' : sort ? 'ASC' : 'DESC';
  const order = !sort || sort === 'id' ? `ORDER BY t.Id ${direction}` : `ORDER BY ${SORTS[sort]} ${direction}, t.Id ${direction}`;
  const asked = /^\d+$/.test(url.searchParams.get('page') ?? '') ? Math.max(1, Number(url.searchParams.get('page'))) : 1;
  const [villes] = await pool.query('SELECT Id AS id, Nom AS label FROM villes ORDER BY Nom, Id LIMIT ?', [1000]);
  const rowsAt = async (page) => (await pool.query(`${SELECT} ${where} ${order} LIMIT ? OFFSET ?`, [...params, PER_PAGE, (page - 1) * PER_PAGE]))[0];
  let total;
  let page = asked;
  let rows;
  if (q) {
    rows = await rowsAt(page);
    if (rows.length > 0 && rows.length < PER_PAGE) total = (page - 1) * PER_PAGE + rows.length;
    else if (rows.length === 0 && page === 1) total = 0;
    else total = await count(where, params);
  } else total = await count(where, params);
  const pageCount = Math.max(1, Math.ceil(total / PER_PAGE));
  if (page > pageCount || rows === undefined) {
    page = Math.min(page, pageCount);
    rows = total === 0 ? [] : await rowsAt(page);
  }
  const state = { q, ...filters, ...(sort ? { sort, direction: direction.toLowerCase() } : {}) };
  // The delete forms bring the list back as it was: its state, without empty values, and the page past the first.
  const stateFields = Object.entries({ ...state, page: page > 1 ? String(page) : '' })
    .filter(([, value]) => value !== '')
    .map(([name, value]) => ({ name, value }));
  const pages =
    pageCount <= 7
      ? Array.from({ length: pageCount }, (_, i) => i + 1)
      : page <= 4
        ? [1, 2, 3, 4, 5, null, pageCount]
        : page >= pageCount - 3
          ? [1, null, ...Array.from({ length: 5 }, (_, i) => pageCount - 4 + i)]
          : [1, null, page - 1, page, page + 1, null, pageCount];
  return {
    q,
    filters,
    villes: villes.map((v) => ({ id: String(v.id), label: v.label })),
    headers: Object.keys(LABELS).map((key) => ({
      label: LABELS[key],
      url: link({ q, ...filters }, { sort: key, direction: sort === key && direction === 'ASC' ? 'desc' : 'asc' }),
    })),
    rows,
    links: pages.map((p) => ({ page: p, current: p === page, url: p === null ? null : link(state, { page: p }) })),
    next: page < pageCount ? link(state, { page: page + 1 }) : null,
    total,
    export_url: link(state, {}).replace('/contacts', '/contacts/export.csv'),
    state_fields: stateFields,
  };
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://localhost');
    if (req.method !== 'GET' || url.pathname !== '/contacts') {
      res.writeHead(404, SECURITY_FLAT);
      return res.end();
    }
    const id = randomBytes(32).toString('hex');
    const context = await listPage(url);
    context.csrf = createHmac('sha256', SECRET).update(`csrf:${id}`).digest('hex');
    const body = env.render('list.html', context);
    res.writeHead(200, [
      ...SECURITY_FLAT,
      'Content-Type',
      HTML_TYPE,
      'Content-Length',
      String(Buffer.byteLength(body)),
      'Set-Cookie',
      `session_id=${id}; HttpOnly; SameSite=Strict; Secure; Path=/`,
    ]);
    res.end(body);
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
});
server.listen(0, '127.0.0.1', () => announce('list', server));
