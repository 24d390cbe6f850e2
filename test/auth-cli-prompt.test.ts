// `--password-prompt` on a real terminal: `fw` runs under a pseudo-terminal made by util-linux `script`, the test
// types as a user would once each question shows. The password is never echoed, Backspace erases, two different
// entries are refused, Ctrl+C stops the command with exit 130 and nothing written.
import { spawn } from 'node:child_process';
import argon2 from 'argon2';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FW, newProject, type CliProject } from './helpers/cli.js';

const t = suite('auth password prompt on a terminal');
let project: CliProject;

t.before(() => {
  project = newProject('AuthPrompt');
  project.useSqlite();
  for (const args of [['db:init'], ['auth:init'], ['db:apply']]) {
    const run = project.run(args);
    assert.is(run.status, 0, run.stderr);
  }
});
t.after(async () => {
  await project?.cleanup();
});

/** Runs `fw <args>` on a pseudo-terminal; `answers[i]` is typed once the i-th question has shown. */
function onTerminal(args: readonly string[], answers: readonly string[]): Promise<{ output: string; status: number | null }> {
  const command = [process.execPath, FW, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: project.root, env: { ...process.env, SESSION_STORE: 'file' } });
    const questions = ['Mot de passe : ', 'Confirmez le mot de passe : '];
    let output = '';
    let typed = 0;
    let from = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      for (let at = output.indexOf(questions[typed]!, from); typed < answers.length && at !== -1; at = output.indexOf(questions[typed] ?? '\0', from)) {
        from = at + questions[typed]!.length;
        child.stdin.write(answers[typed]!);
        typed++;
      }
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ output: output.replace(/\r\n/g, '\n'), status }));
  });
}

async function hashOf(email: string): Promise<string | null> {
  const db = project.open();
  try {
    return (await db.fetchOne<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = ?', [email]))?.password_hash ?? null;
  } finally {
    await db.close();
  }
}

t('typed twice without echo; Backspace erases the character before it', async () => {
  const { output, status } = await onTerminal(
    ['auth:user:create', '--email', 'tty@example.com', '--password-prompt'],
    ['tty-secret-1x\u007f\r', 'tty-secret-1\r'],
  );
  assert.is(status, 0, output);
  assert.is(output, 'Mot de passe : \nConfirmez le mot de passe : \nUtilisateur créé : #1 tty@example.com (actif).\n');
  assert.ok(await argon2.verify((await hashOf('tty@example.com'))!, 'tty-secret-1'));
});

t('two different entries: refused, nothing written', async () => {
  const { output, status } = await onTerminal(['auth:user:create', '--email', 'other@example.com', '--password-prompt'], ['first-secret\r', 'second-secret\r']);
  assert.is(status, 1, output);
  assert.not.ok(output.includes('secret'), output);
  assert.match(
    output,
    /Erreur : les deux saisies du mot de passe diffèrent ; rien n'a été écrit\.\nConseil : relancez la commande et tapez deux fois le même mot de passe\.\n$/,
  );
  assert.is(await hashOf('other@example.com'), null);
});

t('Ctrl+C at the question: exit 130, nothing written', async () => {
  const { output, status } = await onTerminal(['auth:user:password', '--email', 'tty@example.com', '--password-prompt'], ['abc\u0003']);
  assert.is(status, 130, output);
  assert.match(output, /Erreur : opération interrompue\.\n$/);
  assert.ok(await argon2.verify((await hashOf('tty@example.com'))!, 'tty-secret-1'));
});

t.run();
