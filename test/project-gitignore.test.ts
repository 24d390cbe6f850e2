// The .gitignore of a new project (`fw new`) keeps out of the repository everything a running project writes under
// storage/: the SQLite file with its -wal and -shm pages while it is open, sessions, uploads and their variants,
// journals and logs. Real files are made by `fw db:init`, `fw upload:init`, the runtime's SQLite handle and file
// session store; the others are named as the runtime or an operator would name them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase } from '../runtime/db/index.js';
import { FileSessionStore } from '../runtime/session/file-store.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FW = path.join(REPO, 'bin', 'fw.js');

function run(cwd: string, command: string, args: string[]): string {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('DB_') || key === 'APP_ENV' || key === 'FW_DEBUG') delete env[key];
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env, timeout: 120_000 });
  assert.is(result.status, 0, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

test('git add -A in a new project that ran stages none of the files written under storage/', async () => {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-gitignore-')));
  const root = path.join(parent, 'Demo');
  try {
    run(parent, process.execPath, [FW, 'new', 'Demo', '--no-install']);
    run(root, process.execPath, [FW, 'db:init']);
    run(root, process.execPath, [FW, 'upload:init']);
    const storage = path.join(root, 'storage');

    // The live database: while a connection is open in WAL mode, its last pages are in -wal and -shm.
    const db = openDatabase({ driver: 'sqlite', file: path.join(storage, 'database.sqlite') });
    try {
      await db.execute('CREATE TABLE secrets (id INTEGER PRIMARY KEY, password_hash TEXT, totp_secret TEXT)');
      await db.execute("INSERT INTO secrets (password_hash, totp_secret) VALUES ('$argon2id$x', 'JBSWY3DPEHPK3PXP')");
      for (const suffix of ['', '-wal', '-shm']) assert.ok(fs.existsSync(path.join(storage, `database.sqlite${suffix}`)), suffix);

      const sessions = new FileSessionStore({ dir: path.join(storage, 'sessions'), ttlSeconds: 3600 });
      await sessions.create({ user: { id: 1 } });
      assert.ok(fs.readdirSync(path.join(storage, 'sessions')).some((name) => name.endsWith('.json')));

      const written = [
        'uploads/images/2026/11/photo.jpg',
        'uploads/images/medium/2026/11/photo.webp',
        'uploads/images/thumbnail/2026/11/photo.webp',
        'uploads/documents/2026/11/contrat.pdf',
        'uploads/tmp/upload-123.part',
        'database.sqlite-journal',
        'app.sqlite',
        'logs/app.log',
        'mail/message-1.eml',
        'backup.sql',
      ];
      for (const name of written) {
        fs.mkdirSync(path.dirname(path.join(storage, name)), { recursive: true });
        fs.writeFileSync(path.join(storage, name), 'x');
      }

      run(root, 'git', ['init', '-q']);
      run(root, 'git', ['add', '-A']);
      const staged = run(root, 'git', ['status', '--porcelain', '--untracked-files=all'])
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(3));
      const underStorage = staged.filter((file) => file.startsWith('storage/'));
      // The folders the project needs are kept by their .gitkeep, and nothing else under storage/ is staged.
      assert.equal(underStorage.sort(), ['storage/sessions/.gitkeep', 'storage/uploads/.gitkeep']);
      assert.ok(staged.includes('app.ts') && staged.includes('.gitignore'), staged.join('\n'));
    } finally {
      await db.close();
    }
  } finally {
    fs.rmSync(parent, { recursive: true, force: true });
  }
});

test.run();
