/**
 * The file and database session stores shared by separate Node processes (docs/runtime.md "Sessions"): a
 * session created in one process is read and updated in another, deleteUser in one ends it for all, and two
 * processes writing one session at once leave it whole. Each process imports the built runtime, configures
 * `session_store` and uses the store the configuration builds, as an application would.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configure, fwSessionsDdl, sessionKey } from '../runtime/index.js';
import { DIALECTS, freshDatabase, productOf } from './helpers/dialects.js';

/** The application secret of every process (sessions are keyed by it at rest); the test's own too, to read the keys. */
const APP_SECRET = 'processes-test-secret-'.padEnd(48, 'x');
configure({ app_secret: APP_SECRET });

const RUNTIME = pathToFileURL(path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'runtime', 'index.js')).href;

/** Runs one session operation in a new process; resolves with what it printed (JSON). */
const SCRIPT = `
const runtime = await import(${JSON.stringify(RUNTIME)});
const { config, op, id, data, times } = JSON.parse(process.env.FW_TEST_OP);
runtime.configure(config);
const store = runtime.getSessionStore();
let result;
try {
  if (op === 'create') result = { id: await store.create(data), kind: store.constructor.name };
  else if (op === 'read') result = { data: await store.get(id) };
  else if (op === 'read-update') {
    const before = await store.get(id);
    await store.set(id, { ...before, ...data });
    result = { before };
  } else if (op === 'delete-user') result = { deleted: await store.deleteUser(data) };
  else if (op === 'write-many') {
    for (let i = 0; i < times; i++) await store.set(id, { writer: data, i, filler: 'x'.repeat(5000) });
    result = { done: true };
  }
} finally {
  await runtime.closeDatabase();
}
process.stdout.write(JSON.stringify(result));
`;

interface Op {
  op: 'create' | 'read' | 'read-update' | 'delete-user' | 'write-many';
  id?: string;
  data?: unknown;
  times?: number;
}

function inProcess(config: Record<string, unknown>, op: Op): Promise<Record<string, unknown>> {
  const env: NodeJS.ProcessEnv = { ...process.env, FW_TEST_OP: JSON.stringify({ config, ...op }) };
  delete env.SESSION_STORE;
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`process exited with ${code}: ${err}`));
      else resolve(JSON.parse(out) as Record<string, unknown>);
    });
  });
}

function shared(
  label: string,
  setup: () => Promise<{ config: Record<string, unknown>; kind: string; atRest: () => Promise<string>; cleanup: () => Promise<void> }>,
): void {
  const S = suite(`session-stores-processes: ${label}`);
  let context: Awaited<ReturnType<typeof setup>>;
  S.before(async () => {
    context = await setup();
  });
  S.after(() => context.cleanup());

  S('created in one process, read and updated in another, read back in a third', async () => {
    const created = await inProcess(context.config, { op: 'create', data: { cart: [1], user: { id: 5 } } });
    assert.is(created.kind, context.kind, 'the configuration chose the store');
    const id = created.id as string;
    assert.match(id, /^[0-9a-f]{64}$/);
    const updated = await inProcess(context.config, { op: 'read-update', id, data: { cart: [1, 2], seen: 'b' } });
    assert.equal(updated.before, { cart: [1], user: { id: 5 } });
    const read = await inProcess(context.config, { op: 'read', id });
    assert.equal(read.data, { cart: [1, 2], user: { id: 5 }, seen: 'b' });
    const rest = await context.atRest();
    assert.ok(rest.includes(sessionKey(id)) && !rest.includes(id), 'hashed at rest');
  });

  S('deleteUser in one process ends the sessions the others made', async () => {
    const first = (await inProcess(context.config, { op: 'create', data: { user: { id: 77 } } })).id as string;
    const second = (await inProcess(context.config, { op: 'create', data: { user: { id: '77' } } })).id as string;
    const other = (await inProcess(context.config, { op: 'create', data: { user: { id: 78 } } })).id as string;
    assert.equal(await inProcess(context.config, { op: 'delete-user', data: 77 }), { deleted: 2 });
    assert.equal(await inProcess(context.config, { op: 'read', id: first }), { data: null });
    assert.equal(await inProcess(context.config, { op: 'read', id: second }), { data: null });
    assert.equal(await inProcess(context.config, { op: 'read', id: other }), { data: { user: { id: 78 } } });
  });

  S('two processes writing one session at once leave it whole', async () => {
    const id = (await inProcess(context.config, { op: 'create', data: {} })).id as string;
    await Promise.all([
      inProcess(context.config, { op: 'write-many', id, data: 'a', times: 40 }),
      inProcess(context.config, { op: 'write-many', id, data: 'b', times: 40 }),
    ]);
    const { data } = (await inProcess(context.config, { op: 'read', id })) as { data: { writer: string; i: number; filler: string } };
    assert.ok(data.writer === 'a' || data.writer === 'b', JSON.stringify(data).slice(0, 60));
    assert.is(data.i, 39, 'the last write of one of them');
    assert.is(data.filler, 'x'.repeat(5000));
  });

  S.run();
}

function tempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sessions-proc-')));
}

shared('file store', async () => {
  const root = tempDir();
  return {
    config: { project_root: root, session_store: 'file', app_secret: APP_SECRET },
    kind: 'FileSessionStore',
    atRest: async () => {
      const dir = path.join(root, 'storage', 'sessions');
      return fs
        .readdirSync(dir)
        .map((name) => `${name}\n${fs.readFileSync(path.join(dir, name), 'utf8')}`)
        .join('\n');
    },
    cleanup: async () => fs.rmSync(root, { recursive: true, force: true }),
  };
});

for (const dialect of DIALECTS) {
  shared(`database store on ${productOf(dialect)}`, async () => {
    const fresh = await freshDatabase(dialect, { prefix: 'fw_test_sessions_proc' });
    for (const statement of fwSessionsDdl(dialect)) await fresh.database.execute(statement);
    return {
      config: { app_secret: APP_SECRET, session_store: 'database', ...fresh.config },
      kind: 'DatabaseSessionStore',
      atRest: async () => JSON.stringify(await fresh.database.fetchAll('SELECT * FROM fw_sessions')),
      cleanup: () => fresh.close(),
    };
  });
}
