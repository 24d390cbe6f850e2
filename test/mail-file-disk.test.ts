/**
 * The file transport on a disk that refuses the message: full (ENOSPC) or read-only (EROFS) is a temporary
 * failure, the row stays `queued` with its next attempt, no half-written `.eml` is left, and once the disk takes
 * writes again the retry delivers the message (the sender's clock moved past the delay, no sleep).
 *
 * The tests run as root, for whom chmod stops no write. A disk that really is full or read-only is made without
 * touching the machine: the sender runs in a child process inside its own mount namespace (`unshare --mount`),
 * where `mail_dir` is covered by a 4 KiB tmpfs filled to the last byte, or remounted read-only. The mount exists
 * only in that namespace and dies with the child: outside it, the same folder is the ordinary, empty one where the
 * retry then writes. `/dev/full` gives the kernel's own ENOSPC for the classification check.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configure, resetConfig } from '../runtime/index.js';
import { fileTransport, isTemporaryFailure, MailSender, sendMail } from '../runtime/mail/index.js';
import { mailDb, mailRow, type MailDb } from './helpers/mail-db.js';

const DIST = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'runtime');
const RUNTIME = pathToFileURL(path.join(DIST, 'index.js')).href;
const MAIL = pathToFileURL(path.join(DIST, 'mail', 'index.js')).href;
const SECRET = 'h2-test-secret-0123456789abcdef-0123456789';

/** One look at the outbox through the file transport on `dir`; prints what the child saw in the folder. */
const SCRIPT = `
const runtime = await import(${JSON.stringify(RUNTIME)});
const mail = await import(${JSON.stringify(MAIL)});
const { config, dir } = JSON.parse(process.env.FW_TEST_DISK);
runtime.configure(config);
const attempted = await new mail.MailSender({ transport: mail.fileTransport(dir) }).runOnce();
await runtime.closeDatabase();
process.stdout.write(JSON.stringify({ attempted, files: (await import('node:fs')).readdirSync(dir).sort() }) + '\\n');
`;

/** Runs SCRIPT with `dir` full (a filled 4 KiB tmpfs) or read-only, in a mount namespace of its own. */
function sendOnBrokenDisk(kind: 'full' | 'readonly', dir: string, config: Record<string, unknown>): { attempted: number; files: string[] } {
  const prepare =
    kind === 'full'
      ? `mount -t tmpfs -o size=4k,mode=0700 fwfull "$D" && (dd if=/dev/zero of="$D/fill" bs=1k count=64 2>/dev/null; true)`
      : `mount -t tmpfs -o size=64k,mode=0700 fwro "$D" && mount -o remount,ro "$D"`;
  const run = spawnSync('unshare', ['--mount', 'sh', '-c', `${prepare} && exec "$NODE" --input-type=module -e "$SCRIPT"`], {
    env: { ...process.env, D: dir, NODE: process.execPath, SCRIPT, FW_TEST_DISK: JSON.stringify({ config, dir }) },
    encoding: 'utf8',
  });
  assert.is(run.status, 0, `unshare --mount (root, a mount namespace) : ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as { attempted: number; files: string[] };
}

const test = suite('mail: the file transport on a full or read-only disk');
let db: MailDb;
let dir: string;

test.before(async () => {
  db = await mailDb('sqlite');
});
test.after(async () => {
  await db.close();
});
test.before.each(async () => {
  resetConfig();
  configure({ ...db.config, app_secret: SECRET, mail_from: 'app@example.test', mail_transport: 'file' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-mail-disk-'));
  await db.database.execute('DELETE FROM mail_log');
});
test.after.each(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  resetConfig();
});

test('the kernel’s ENOSPC (writing to /dev/full) is a temporary failure; EACCES is not', () => {
  let full: unknown;
  try {
    fs.writeFileSync('/dev/full', 'x');
  } catch (error) {
    full = error;
  }
  assert.is((full as NodeJS.ErrnoException).code, 'ENOSPC');
  assert.ok(isTemporaryFailure(full));
  for (const code of ['EDQUOT', 'EROFS']) assert.ok(isTemporaryFailure(Object.assign(new Error(code), { code })), code);
  assert.not.ok(isTemporaryFailure(Object.assign(new Error('EACCES'), { code: 'EACCES' })));
});

for (const kind of ['full', 'readonly'] as const) {
  test(`a ${kind === 'full' ? 'full' : 'read-only'} mail_dir: queued again with its reason, nothing half-written; sent by the retry once writable`, async () => {
    const queued = await sendMail({ to: 'zoe@example.test', subject: `disque ${kind}`, text: 'x'.repeat(20_000) }, { database: db.database });
    const seen = sendOnBrokenDisk(kind, dir, { ...db.config, app_secret: SECRET, mail_from: 'app@example.test' });
    assert.is(seen.attempted, 1);
    assert.equal(seen.files, kind === 'full' ? ['fill'] : [], 'no .eml and no temporary file on the broken disk');

    const row = await mailRow(db.database, queued.id);
    assert.is(row.status, 'queued', JSON.stringify(row));
    assert.is(row.attempts, 1);
    assert.match(row.error_message ?? '', kind === 'full' ? /^ENOSPC : / : /^EROFS : /);
    assert.ok(row.next_attempt_at, 'a next attempt is planned');
    assert.ok(row.message, 'the body is kept for the retry');
    assert.equal(fs.readdirSync(dir), [], 'the mount was the child’s only: the folder here is empty');

    // The retry, 61 s later on the sender's clock, on the folder that takes writes.
    const later = Date.now() + 61_000;
    assert.is(await new MailSender({ database: db.database, transport: fileTransport(dir), now: () => later }).runOnce(), 1);
    const sent = await mailRow(db.database, queued.id);
    assert.is(sent.status, 'sent');
    assert.is(sent.attempts, 2);
    assert.is(fs.readdirSync(dir).filter((name) => name.endsWith('.eml')).length, 1);
    assert.equal(
      fs.readdirSync(dir).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });
}

test.run();
