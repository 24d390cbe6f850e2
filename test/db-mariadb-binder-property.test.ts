// A property test of the MariaDB `?` binder (runtime/db/dialects/mariadb/binding.ts) on the real server: seeded random
// values (strings of any code point, lone surrogates, hostile quote / backslash / NUL / Ctrl-Z mixes, texts
// past 64 KB, Buffers of every byte up to 1 MB, doubles and bigints at the edges, booleans, null, Dates) go
// through the runtime's own `execute` / `fetchAll` under the default sql_mode and under NO_BACKSLASH_ESCAPES.
// Each one must come back exactly from a LONGTEXT / LONGBLOB / DOUBLE / BIGINT / DATETIME(3) column and from
// `SELECT ? AS v`, `WHERE column = ?` must count exactly the rows equal to it, and the sentinel table must
// survive. The seed is printed; `FW_SEED=<n>` replays a run.
import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MARIADB_ADMIN as MARIADB } from './helpers/cli.js';
import { fixedSamples, Random, randomSample, readBack, type Sample } from './helpers/binder-values.js';
import { openDatabase, QueryParameterError, type Connection, type Database } from '../runtime/db/index.js';
import { bindParameters } from '../runtime/db/dialects/mariadb/binding.js';

const SEED = process.env.FW_SEED ? Number(process.env.FW_SEED) : randomInt(2 ** 31);
const RANDOM_PER_MODE = 12_000;
/** A statement stays far below the server's max_allowed_packet (16 MB by default). */
const MAX_BATCH_BYTES = 4_000_000;
const MAX_BATCH_ROWS = 400;
const COLUMNS = ['s', 'b', 'd', 'i', 'dt'] as const;

const t = suite('db-mariadb-binder-property');
const name = `fw_test_${randomInt(2 ** 40).toString(16)}`;
let db: Database;

t.before(async () => {
  const server = openDatabase({ driver: 'mariadb', ...MARIADB, poolSize: 1 });
  await server.execute(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`).finally(() => server.close());
  // One connection: the session's sql_mode set in a test is the mode of every statement after it.
  db = openDatabase({ driver: 'mariadb', ...MARIADB, database: name, poolSize: 1 });
  // nopad_bin: equality is byte equality (no case folding, trailing spaces count), so a count can be predicted.
  await db.execute(
    'CREATE TABLE vals (id INT PRIMARY KEY, s LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NULL, b LONGBLOB NULL, ' +
      'd DOUBLE NULL, i BIGINT NULL, dt DATETIME(3) NULL, KEY (s(32)), KEY (b(32)), KEY (d), KEY (i), KEY (dt))',
  );
  await db.execute('CREATE TABLE sentinel (x INT NOT NULL)');
  await db.execute('INSERT INTO sentinel (x) VALUES (42)');
  console.log(`  db-mariadb-binder-property: FW_SEED=${SEED}`);
});

t.after(async () => {
  await db.close();
  const server = openDatabase({ driver: 'mariadb', ...MARIADB, poolSize: 1 });
  await server.execute(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => server.close());
});

function samples(seed: number): Sample[] {
  const random = new Random(seed);
  const out = fixedSamples();
  for (let k = 0; k < RANDOM_PER_MODE; k++) out.push(randomSample(random));
  return out;
}

function weight(sample: Sample): number {
  const value = sample.value;
  if (typeof value === 'string') return value.length * 3 + 8;
  if (Buffer.isBuffer(value)) return value.length * 2 + 8;
  return 32;
}

/** Consecutive slices of `items` that keep each statement under the size and row limits. */
function batches(items: readonly Sample[]): Sample[][] {
  const out: Sample[][] = [];
  let current: Sample[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = weight(item);
    if (current.length > 0 && (current.length >= MAX_BATCH_ROWS || bytes + size > MAX_BATCH_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

function describe(sample: Sample, id: number): string {
  const shown = Buffer.isBuffer(sample.value)
    ? `Buffer(${sample.value.length}) ${sample.value.subarray(0, 40).toString('hex')}`
    : typeof sample.value === 'bigint'
      ? `${sample.value}n`
      : sample.value instanceof Date
        ? `Date ${sample.value.toISOString()}`
        : JSON.stringify(sample.value);
  return `FW_SEED=${SEED}, n° ${id} (${sample.kind}, colonne ${sample.column}) : ${shown?.slice(0, 200)}`;
}

function key(sample: Sample): string | null {
  return sample.stored === null ? null : `${sample.column}|${sample.stored}`;
}

interface Figures {
  values: number;
  statements: number;
}

/** Inserts every sample, reads them back, selects them, counts them; returns what was run. */
async function roundTrip(connection: Connection, all: readonly Sample[], label: string): Promise<Figures> {
  await connection.execute('DELETE FROM vals');
  let statements = 1;
  const groups = batches(all);
  let id = 0;
  const firstIds: number[] = [];
  for (const group of groups) {
    firstIds.push(id);
    const params: unknown[] = [];
    for (const sample of group) {
      params.push(id++);
      for (const column of COLUMNS) params.push(column === sample.column ? sample.value : null);
    }
    const rows = group.map(() => '(?, ?, ?, ?, ?, ?)').join(', ');
    assert.is(await connection.execute(`INSERT INTO vals (id, s, b, d, i, dt) VALUES ${rows}`, params), group.length, `${label}: rows inserted`);
    statements++;
  }

  for (const [g, group] of groups.entries()) {
    const first = firstIds[g]!;
    const rows = await connection.fetchAll<Record<string, unknown>>('SELECT id, s, b, d, i, dt FROM vals WHERE id BETWEEN ? AND ? ORDER BY id', [
      first,
      first + group.length - 1,
    ]);
    assert.is(rows.length, group.length, `${label}: rows read back`);
    group.forEach((sample, k) => {
      const row = rows[k]!;
      for (const column of COLUMNS) {
        const expected = column === sample.column ? sample.stored : null;
        assert.is(readBack(column, row[column]), expected, `${label}: stored, ${describe(sample, first + k)}`);
      }
    });

    // One statement, one column per `?`: a value that left its literal would change the column count.
    const selected = await connection.fetchOne<Record<string, unknown>>(
      `SELECT ${group.map((_, k) => `? AS v${k}`).join(', ')}`,
      group.map((s) => s.value),
    );
    assert.is(Object.keys(selected ?? {}).length, group.length, `${label}: one column per value`);
    group.forEach((sample, k) => {
      assert.is(readBack(sample.column, selected![`v${k}`]), sample.selected, `${label}: SELECT ? AS v, ${describe(sample, first + k)}`);
    });
    statements += 2;
  }

  // `WHERE column = ?` finds exactly the rows equal to the value (none for NULL).
  const expectedCounts = new Map<string, number>();
  for (const sample of all) {
    const k = key(sample);
    if (k !== null) expectedCounts.set(k, (expectedCounts.get(k) ?? 0) + 1);
  }
  for (const [g, group] of groups.entries()) {
    const sql = `SELECT ${group.map((sample, k) => `(SELECT COUNT(*) FROM vals WHERE ${sample.column} = ?) AS c${k}`).join(', ')}`;
    const counts = await connection.fetchOne<Record<string, unknown>>(
      sql,
      group.map((s) => s.value),
    );
    statements++;
    group.forEach((sample, k) => {
      const expected = sample.stored === null ? 0 : expectedCounts.get(key(sample)!)!;
      assert.is(Number(counts![`c${k}`]), expected, `${label}: WHERE ${sample.column} = ?, ${describe(sample, firstIds[g]! + k)}`);
    });
  }

  assert.equal(await connection.fetchOne('SELECT COUNT(*) AS n FROM vals'), { n: all.length }, `${label}: no row added or lost`);
  assert.equal(await connection.fetchAll('SELECT x FROM sentinel'), [{ x: 42 }], `${label}: the sentinel table is intact`);
  const tables = await connection.fetchAll<{ name: string }>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name',
    [name],
  );
  assert.equal(
    tables.map((row) => row.name),
    ['sentinel', 'vals'],
    `${label}: no table created or dropped`,
  );
  return { values: all.length, statements: statements + 3 };
}

async function sessionMode(connection: Connection): Promise<string> {
  return String((await connection.fetchOne<{ mode: string }>('SELECT @@SESSION.sql_mode AS mode'))?.mode);
}

async function run(label: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    console.error(`\n  ${label} : échec avec la graine FW_SEED=${SEED} ; rejouer : FW_SEED=${SEED} node scripts/test.mjs 'db-mariadb-binder-property'`);
    throw error;
  }
}

function report(label: string, figures: Figures, started: number): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`  ${label}: ${figures.values} valeurs, ${figures.statements} requêtes, ${seconds} s`);
}

t('the default sql_mode: every value round-trips, is selected as one value and counted exactly', async () => {
  await run('default', () =>
    db.withConnection(async (connection) => {
      assert.not.match(await sessionMode(connection), /NO_BACKSLASH_ESCAPES/);
      const started = performance.now();
      const figures = await roundTrip(connection, samples(SEED), 'default');
      report('sql_mode par défaut', figures, started);
      assert.ok(figures.values >= 10_000);
    }),
  );
});

t('NO_BACKSLASH_ESCAPES: the same values round-trip the same way', async () => {
  await run('NO_BACKSLASH_ESCAPES', () =>
    db.withConnection(async (connection) => {
      await connection.execute("SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',NO_BACKSLASH_ESCAPES')");
      try {
        assert.match(await sessionMode(connection), /NO_BACKSLASH_ESCAPES/);
        const started = performance.now();
        const figures = await roundTrip(connection, samples(SEED), 'NO_BACKSLASH_ESCAPES');
        report('NO_BACKSLASH_ESCAPES', figures, started);
        assert.ok(figures.values >= 10_000);
      } finally {
        await connection.execute("SET SESSION sql_mode = REPLACE(@@SESSION.sql_mode, 'NO_BACKSLASH_ESCAPES', '')");
      }
    }),
  );
});

t('SET NAMES to a charset whose characters may end in 0x5C (\\): each value stays one literal', async () => {
  // Characters encoded as <lead byte> 0x5C in each charset: a binder escaping bytes instead of characters
  // would let the backslash after them, or the one they end with, swallow the closing quote.
  const charsets = { gbk: '乗俓僜刓', big5: '么佢俞偅', sjis: '予兔十喀', cp932: '予兔十喀' };
  await db.withConnection(async (connection) => {
    const before = await sessionMode(connection);
    try {
      for (const mode of [before, `${before},NO_BACKSLASH_ESCAPES`]) {
        await connection.execute('SET SESSION sql_mode = ?', [mode]);
        for (const [charset, chars] of Object.entries(charsets)) {
          await connection.execute(`SET NAMES ${charset}`);
          for (const ch of chars) {
            for (const value of [`${ch}'`, `${ch}\\'`, `${ch}\\`, `${ch}\\' OR 1=1 -- `, `${ch}', 'x') -- `, `'${ch}\\\\'${ch}`]) {
              assert.equal(await connection.fetchOne("SELECT ? AS v, 'w' AS w", [value]), { v: value, w: 'w' }, `${charset} ${mode}: ${value}`);
            }
          }
        }
      }
    } finally {
      await connection.execute('SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci');
      await connection.execute('SET SESSION sql_mode = ?', [before]);
    }
  });
});

t('NaN and ±Infinity are refused with QueryParameterError, by the runtime and by the binder itself', async () => {
  for (const value of [NaN, Infinity, -Infinity]) {
    for (const call of [() => db.fetchOne('SELECT ? AS v', [value]), () => db.execute('INSERT INTO vals (id, d) VALUES (-1, ?)', [value])]) {
      try {
        await call();
        assert.unreachable(`${value} accepted`);
      } catch (error) {
        assert.instance(error, QueryParameterError, String(value));
      }
    }
    for (const noBackslashEscapes of [false, true]) {
      assert.throws(
        () => bindParameters('SELECT ?', [value], noBackslashEscapes),
        (error: unknown) => error instanceof QueryParameterError,
        String(value),
      );
    }
  }
  assert.is(await db.fetchOne('SELECT id FROM vals WHERE id = -1'), null);
});

t('the binder refuses a value that is not a driver value instead of writing it into the SQL', () => {
  for (const value of [true, new Date(0), { toString: () => "1' OR '1'='1" }, ['a'], Symbol('s')]) {
    assert.throws(
      () => bindParameters('SELECT ?', [value as unknown as string]),
      (error: unknown) => error instanceof QueryParameterError,
      String(typeof value),
    );
  }
});

t.run();
