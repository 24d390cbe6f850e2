/**
 * Authentication audit (docs/auth.md "Audit"): records on `fw.auth.audit` with the levels of docs/decisions.md#audit-events, the
 * fields every record carries, metadata scrubbed at any depth, and no exception and no secret even when the
 * metadata or the log sink misbehaves. Records are captured with setLogSink.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AUTH_AUDIT_LOGGER, logAuthEvent, sanitizeAuthAuditMetadata } from '../runtime/auth/audit.js';
import { setLogSink, type LogRecord } from '../runtime/logger.js';

const SECRET = 'S3cr3t-value-never-logged';

/** Runs `fn` with a capturing sink (or the given one); returns the records. */
function capture(fn: () => void, sink?: (record: LogRecord) => void): LogRecord[] {
  const records: LogRecord[] = [];
  const previous = setLogSink(sink ?? ((record) => records.push(record)));
  try {
    fn();
  } finally {
    setLogSink(previous);
  }
  return records;
}

/** What the default sink would write for these records. */
function written(records: LogRecord[]): string {
  return records.map((r) => `${r.level} ${r.logger} ${r.message} ${JSON.stringify(r.fields)}`).join('\n');
}

test('levels: WARNING for failures and refusals, INFO for everything else', () => {
  const warnings = ['login.failed', 'login.rate_limited', 'mfa.challenge.failed', 'mfa.revalidation.failed', 'user.disabled', 'mfa.rate_limited'];
  const infos = [
    'login.success',
    'logout',
    'mfa.challenge.required',
    'mfa.challenge.success',
    'mfa.revalidation.success',
    'user.enabled',
    'user.password_changed',
    'user_role.added',
    'user_role.removed',
    'anything.else',
  ];
  const records = capture(() => {
    for (const event of [...warnings, ...infos]) logAuthEvent(event, { userId: 1, ip: '192.0.2.1' });
  });
  assert.equal(
    records.map((r) => [r.message, r.level]),
    [...warnings.map((e) => [e, 'WARNING']), ...infos.map((e) => [e, 'INFO'])],
  );
  assert.ok(records.every((r) => r.logger === AUTH_AUDIT_LOGGER && r.logger === 'fw.auth.audit'));
});

test('every record carries event, user_id, ip and user_agent (null when not given), and the scrubbed metadata', () => {
  const [full, bare] = capture(() => {
    logAuthEvent('login.success', {
      userId: 42,
      ip: '2001:db8::1',
      userAgent: 'Mozilla/5.0\r\nX-Injected: 1',
      metadata: { login: 'alice@example.test', password: SECRET },
    });
    logAuthEvent('logout');
  });
  assert.equal(full!.fields, {
    event: 'login.success',
    user_id: 42,
    ip: '2001:db8::1',
    user_agent: 'Mozilla/5.0  X-Injected: 1',
    metadata: { login: 'alice@example.test' },
  });
  assert.equal(bare!.fields, { event: 'logout', user_id: null, ip: null, user_agent: null });
  const [text] = capture(() => logAuthEvent('user.enabled', { userId: 'u-7' }));
  assert.is(text!.fields!.user_id, 'u-7');
});

test('sanitize: secret keys removed at any depth, in any case or spelling; the input is left untouched', () => {
  const input = {
    login: 'alice',
    password: SECRET,
    Password_Hash: SECRET,
    passwordHash: SECRET,
    token: SECRET,
    rawToken: SECRET,
    ACCESS_TOKEN: SECRET,
    refresh_token: SECRET,
    idToken: SECRET,
    secret: SECRET,
    totpSecret: SECRET,
    'recovery-code': SECRET,
    codeVerifier: SECRET,
    new_password: SECRET,
    api_token: SECRET,
    client_secret: SECRET,
    code: '123456',
    nested: { ok: 1, deeper: { totp_secret: SECRET, list: [{ token: SECRET, keep: 'yes' }, 'plain', [{ password: SECRET }]] } },
    map: new Map<string, unknown>([
      ['secret', SECRET],
      ['fine', 2],
    ]),
    set: new Set([{ password: SECRET, n: 1 }]),
    retry_after: 30,
  };
  const clean = sanitizeAuthAuditMetadata(input);
  assert.equal(clean, {
    login: 'alice',
    nested: { ok: 1, deeper: { list: [{ keep: 'yes' }, 'plain', [{}]] } },
    map: { fine: 2 },
    set: [{ n: 1 }],
    retry_after: 30,
  });
  assert.not.match(JSON.stringify(clean), SECRET);
  assert.is(input.password, SECRET, 'the caller keeps its object');
  assert.is(input.nested.deeper.totp_secret, SECRET);
});

test('sanitize: cycles cut, odd values made plain, sizes bounded, toJSON output scrubbed too; never throws', () => {
  const cyclic: Record<string, unknown> = { name: 'a' };
  cyclic.self = cyclic;
  cyclic.pair = [cyclic, { back: cyclic }];
  assert.equal(sanitizeAuthAuditMetadata(cyclic), { name: 'a', self: '[circular]', pair: ['[circular]', { back: '[circular]' }] });
  const shared = { n: 1 };
  assert.equal(sanitizeAuthAuditMetadata({ a: shared, b: shared }), { a: { n: 1 }, b: { n: 1 } }, 'a shared object is not a cycle');
  const plain = sanitizeAuthAuditMetadata({
    when: new Date(Date.UTC(2026, 0, 1)),
    big: 10n,
    nan: Number.NaN,
    fn: () => SECRET,
    sym: Symbol('x'),
    undef: undefined,
    bytes: Buffer.from(SECRET),
    error: Object.assign(new Error('boom'), { password: SECRET }),
    long: 'x'.repeat(5000),
    many: Array.from({ length: 150 }, (_, i) => i),
    custom: { toJSON: () => ({ password: SECRET, visible: true }) },
  });
  assert.equal(plain.when, '2026-01-01T00:00:00.000Z');
  assert.is(plain.big, '10');
  assert.is(plain.nan, 'NaN');
  assert.not.ok('fn' in plain || 'sym' in plain);
  assert.is(plain.undef, null);
  assert.is(plain.bytes, `[binaire ${SECRET.length} octets]`);
  assert.equal(plain.error, { name: 'Error', message: 'boom' });
  assert.is((plain.long as string).length, 2001);
  assert.is((plain.many as unknown[]).length, 101);
  assert.equal(plain.custom, { visible: true });
  assert.not.match(JSON.stringify(plain), SECRET);
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 20; i++) deep = { deep };
  assert.match(JSON.stringify(sanitizeAuthAuditMetadata(deep)), /trop profond/);
  // Not an object, or unreadable: a safe value, no exception.
  assert.equal(sanitizeAuthAuditMetadata(null), {});
  assert.equal(sanitizeAuthAuditMetadata('text' as unknown as Record<string, unknown>), { value: 'text' });
  assert.equal(
    sanitizeAuthAuditMetadata({
      get bad(): string {
        throw new Error(SECRET);
      },
    }),
    {},
  );
  const proxy = new Proxy(
    {},
    {
      ownKeys: () => {
        throw new Error('no keys');
      },
    },
  );
  assert.equal(sanitizeAuthAuditMetadata(proxy), {});
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.equal(sanitizeAuthAuditMetadata({ revoked }), {});
});

test('logAuthEvent: a throwing getter or toJSON in the metadata: the record goes out without metadata, no exception', () => {
  const records = capture(() => {
    logAuthEvent('login.failed', {
      userId: 3,
      ip: '192.0.2.1',
      metadata: {
        password: SECRET,
        get login(): string {
          throw new Error(SECRET);
        },
      },
    });
    logAuthEvent('login.failed', {
      userId: 3,
      ip: '192.0.2.1',
      metadata: {
        nested: {
          toJSON: () => {
            throw new Error(SECRET);
          },
        },
        password: SECRET,
      },
    });
    logAuthEvent('login.failed', {
      userId: 3,
      ip: '192.0.2.1',
      get metadata(): Record<string, unknown> {
        throw new Error(SECRET);
      },
    });
  });
  assert.is(records.length, 3);
  for (const record of records) {
    assert.equal(record.fields, { event: 'login.failed', user_id: 3, ip: '192.0.2.1', user_agent: null, metadata_dropped: true });
    assert.is(record.level, 'WARNING');
  }
  assert.not.match(written(records), SECRET);
});

test('logAuthEvent: a sink that throws once gets the minimal record; a sink that always throws breaks nothing', () => {
  const seen: LogRecord[] = [];
  let calls = 0;
  capture(
    () => logAuthEvent('login.failed', { userId: 5, ip: '192.0.2.1', metadata: { login: 'alice', password: SECRET } }),
    (record) => {
      calls++;
      if (calls === 1) throw new Error('disk full');
      seen.push(record);
    },
  );
  assert.is(calls, 2);
  assert.equal(seen[0]!.fields, { event: 'login.failed', user_id: 5, ip: '192.0.2.1', user_agent: null, metadata_dropped: true });
  // A sink that serialises like the default one and fails on everything: logAuthEvent still returns normally.
  const stderrWrite = process.stderr.write;
  let stderr = '';
  process.stderr.write = ((chunk: string) => {
    stderr += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    capture(
      () => logAuthEvent('user.disabled', { userId: 9, metadata: { token: SECRET } }),
      () => {
        throw new Error('sink down');
      },
    );
  } finally {
    process.stderr.write = stderrWrite;
  }
  assert.match(stderr, /fw\.auth\.audit: événement « user\.disabled » non journalisé/);
  assert.not.match(stderr, SECRET);
  // Details that are not an object, or an event that is not text, do not throw either.
  const odd = capture(() => {
    logAuthEvent('logout', null as unknown as undefined);
    logAuthEvent(42 as unknown as string, { ip: 7 as unknown as string });
    logAuthEvent('login.success\nforged line', { userId: { id: 1 } as unknown as number });
  });
  assert.equal(
    odd.map((r) => r.fields),
    [
      { event: 'logout', user_id: null, ip: null, user_agent: null },
      { event: 'unknown', user_id: null, ip: null, user_agent: null },
      { event: 'login.success forged line', user_id: null, ip: null, user_agent: null },
    ],
  );
});

test.run();
