// Seeded random values for the MariaDB binder's property test (test/db-mariadb-binder-property.test.ts): each
// value says which column it goes to and what must come back from that column, and the key under which two
// values are equal for the server (so that `WHERE column = ?` can be counted in advance).

/** The column a value is stored in: s LONGTEXT (utf8mb4_nopad_bin), b LONGBLOB, d DOUBLE, i BIGINT, dt DATETIME(3). */
export type Column = 's' | 'b' | 'd' | 'i' | 'dt';

export interface Sample {
  /** What the generator meant to produce, for the failure message. */
  readonly kind: string;
  /** The `?` parameter as the application passes it. */
  readonly value: unknown;
  readonly column: Column;
  /** The column's value read back, normalised by `readBack`. */
  readonly stored: string | null;
  /** `SELECT ? AS v`, normalised by `readBack`. */
  readonly selected: string | null;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same values. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  bytes(length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    for (let i = 0; i < length; i++) out[i] = this.int(0, 255);
    return out;
  }

  /** A length that is mostly short, sometimes 0, sometimes up to `max`. */
  length(max: number): number {
    const roll = this.next();
    if (roll < 0.05) return 0;
    if (roll < 0.8) return this.int(1, 40);
    return this.int(1, max);
  }
}

/**
 * What a JS string becomes on the server: UTF-8, a lone surrogate (which UTF-8 cannot encode, and utf8mb4
 * cannot store) replaced by U+FFFD, as Node's encoder does when the driver sends the statement.
 */
export function wellFormed(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** How a value read back from `column` (or `SELECT ? AS v` for it) is compared: as text, hex, number or integer. */
export function readBack(column: Column, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return `hex:${value.toString('hex')}`;
  // DOUBLE comes back as a number, a literal such as 0.1 (DECIMAL) or 2^63 as a string: both through Number.
  if (column === 'd') return `num:${String(Number(value))}`;
  if (column === 'i') return `int:${BigInt(value as string | number)}`;
  return `str:${String(value)}`;
}

/** The characters that matter to a literal's end, in both sql_mode settings, and a few that matter to a lexer. */
const HOSTILE = [
  "'",
  "'",
  "''",
  '\\',
  '\\',
  "\\'",
  '\\\\',
  '"',
  '\0',
  '\x1a',
  '?',
  '??',
  '`',
  '%',
  '_',
  '\n',
  '\r',
  '\t',
  '--',
  '-- ',
  '#',
  '/*',
  '*/',
  ';',
  ' ',
  'a',
  'é',
  '\u00bf',
  '\u{1F600}',
  '\uD800',
  '\uDC00',
];
const INJECTIONS = ["' OR '1'='1", "\\' OR 1=1 -- ", "'; DROP TABLE sentinel; -- ", "\\'; DROP TABLE sentinel; #", "\u00bf\\' OR 1=1 /*", "\0' OR 1=1 -- "];

function codePoint(random: Random): string {
  const roll = random.next();
  if (roll < 0.3) return String.fromCharCode(random.int(0, 127));
  if (roll < 0.45) return String.fromCharCode(random.int(128, 255));
  if (roll < 0.65) {
    const unit = random.int(0x100, 0xfffd);
    return String.fromCharCode(unit >= 0xd800 && unit <= 0xdfff ? unit + 0x800 : unit);
  }
  if (roll < 0.85) return String.fromCodePoint(random.int(0x10000, 0x10ffff));
  if (roll < 0.9) return String.fromCharCode(random.int(0xd800, 0xdfff)); // a lone surrogate, or half a pair by chance
  return random.pick(HOSTILE);
}

function randomText(random: Random, length: number): string {
  const parts: string[] = [];
  for (let i = 0; i < length; i++) parts.push(codePoint(random));
  return parts.join('');
}

function hostileText(random: Random): string {
  const parts: string[] = [];
  const length = random.length(64);
  for (let i = 0; i < length; i++) parts.push(random.next() < 0.1 ? random.pick(INJECTIONS) : random.pick(HOSTILE));
  return parts.join('');
}

/** A long text (64 K to 300 K code units) with hostile characters sprinkled in: more than 64 KB of UTF-8. */
function longText(random: Random): string {
  const chunk = randomText(random, 200) + hostileText(random);
  return chunk.repeat(Math.ceil(random.int(65536, 300000) / Math.max(chunk.length, 1))) + random.pick(HOSTILE);
}

function text(kind: string, value: string): Sample {
  const expected = `str:${wellFormed(value)}`;
  return { kind, value, column: 's', stored: expected, selected: expected };
}

function buffer(kind: string, value: Buffer): Sample {
  const expected = `hex:${value.toString('hex')}`;
  return { kind, value, column: 'b', stored: expected, selected: expected };
}

function double(kind: string, value: number): Sample {
  // -0 is written as 0: the server keeps no negative zero from a literal.
  const expected = `num:${String(value === 0 ? 0 : value)}`;
  return { kind, value, column: 'd', stored: expected, selected: expected };
}

function integer(kind: string, value: bigint | number | boolean): Sample {
  const n = typeof value === 'boolean' ? (value ? 1n : 0n) : BigInt(value);
  return { kind, value, column: 'i', stored: `int:${n}`, selected: `int:${n}` };
}

/** A Date is sent to the second (runtime/db/params.ts); DATETIME(3) gives it back with `.000`. */
function date(kind: string, value: Date): Sample {
  const seconds = value.toISOString().slice(0, 19).replace('T', ' ');
  return { kind, value, column: 'dt', stored: `str:${seconds}.000`, selected: `str:${seconds}` };
}

/** A date-time string with milliseconds keeps them in DATETIME(3). */
function dateString(kind: string, value: Date): Sample {
  const text = value.toISOString().slice(0, 23).replace('T', ' ');
  return { kind, value: text, column: 'dt', stored: `str:${text}`, selected: `str:${text}` };
}

const EDGE_DOUBLES = [
  0,
  -0,
  1,
  -1,
  0.1,
  0.5,
  1 / 3,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  2 ** 53,
  -(2 ** 53),
  2 ** 63,
  1e20,
  1e21,
  1e-6,
  1e-7,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  5e-324,
  -5e-324,
  2.2250738585072014e-308,
  2.225073858507201e-308,
  Number.EPSILON,
];
const EDGE_INTEGERS = [0n, 1n, -1n, 2n ** 31n, -(2n ** 31n), 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n - 1n), -(2n ** 63n)];
const EDGE_DATES = [
  '1970-01-01T00:00:00.000Z',
  '1000-01-01T00:00:00.000Z',
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '2038-01-19T03:14:08.001Z',
  '2024-02-29T12:34:56.789Z',
  '1969-12-31T23:59:59.999Z',
].map((iso) => new Date(iso));

/** The fixed cases, run before the random ones under each seed. */
export function fixedSamples(): Sample[] {
  const every = Buffer.alloc(256);
  for (let i = 0; i < 256; i++) every[i] = i;
  return [
    ...INJECTIONS.map((value) => text('injection', value)),
    ...HOSTILE.map((value) => text('hostile', value)),
    text('empty', ''),
    text('every code point 0-255', every.toString('latin1')),
    text('lone surrogates', '\uD800\uDBFF\uDC00x\uDFFF\uD83D'),
    text('invalid UTF-8 decoded', Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0xff, 0xfe]).toString('utf8')),
    buffer('every byte 0-255', every),
    buffer('empty', Buffer.alloc(0)),
    buffer('invalid UTF-8', Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80, 0x27, 0x5c])),
    ...EDGE_DOUBLES.map((value) => double('edge double', value)),
    // Regressions: FW_SEED=1974434021 and FW_SEED=918377340 (mysql2 read these DOUBLEs one unit off, mariadb.ts).
    double('regression', 96.50914982817609),
    double('regression', 92733486659288.61),
    ...EDGE_INTEGERS.map((value) => integer('edge bigint', value)),
    integer('safe integer', Number.MAX_SAFE_INTEGER),
    integer('safe integer', Number.MIN_SAFE_INTEGER),
    integer('boolean', true),
    integer('boolean', false),
    ...EDGE_DATES.map((value) => date('edge date', value)),
    ...EDGE_DATES.map((value) => dateString('edge date string', value)),
    { kind: 'null', value: null, column: 's', stored: null, selected: null },
    { kind: 'undefined', value: undefined, column: 'b', stored: null, selected: null },
  ];
}

/** One random sample; about one in 500 is a long text and one in 2,000 a Buffer of about 1 MB. */
export function randomSample(random: Random): Sample {
  const roll = random.next();
  if (roll < 0.002) return text('long text', longText(random));
  if (roll < 0.0025) return buffer('1 MB buffer', random.bytes(random.int(1000000, 1048576)));
  if (roll < 0.25) return text('random code points', randomText(random, random.length(2000)));
  if (roll < 0.4) return text('quotes, backslashes, NUL, Ctrl-Z', hostileText(random));
  if (roll < 0.45) return text('bytes as Latin-1', random.bytes(random.length(300)).toString('latin1'));
  if (roll < 0.5) return text('random bytes decoded as UTF-8', random.bytes(random.length(300)).toString('utf8'));
  if (roll < 0.62) return buffer('random bytes', random.bytes(random.length(4096)));
  if (roll < 0.72) {
    let value: number;
    do value = random.bytes(8).readDoubleLE(0);
    while (!Number.isFinite(value));
    return double('random double bits', value);
  }
  if (roll < 0.76) return double('random double', (random.next() - 0.5) * 10 ** random.int(-30, 30));
  if (roll < 0.82) return integer('random bigint', random.bytes(8).readBigInt64LE(0));
  if (roll < 0.86) return integer('random safe integer', random.int(-(2 ** 31), 2 ** 31) * 2 ** 21 + random.int(0, 2 ** 21 - 1));
  if (roll < 0.88) return integer('boolean', random.next() < 0.5);
  if (roll < 0.9) return { kind: 'null', value: null, column: random.pick(['s', 'b', 'd', 'i', 'dt'] as const), stored: null, selected: null };
  const instant = new Date(random.int(Date.UTC(1000, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999)));
  return roll < 0.95 ? date('random date', instant) : dateString('random date string', instant);
}
