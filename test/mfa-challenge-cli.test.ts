// A pending second-factor challenge is ended with the user's sessions (docs/auth.md "Commands"): a project built
// with `fw starter:build mfa --init-db`, served as a process, its sessions in the file store (SQLite) or in the
// database (MariaDB). A user enrolled over HTTP passes the password step; `fw auth:user:password`, then
// `fw auth:user:disable`, run as processes, end the challenge that password opened: `/login/mfa` sends back to
// `/login`, and a right code signs no one in.
import type { ChildProcess } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newProject, type CliProject } from './helpers/cli.js';
import { linkFramework, serveProject } from './helpers/crud-app.js';
import { SessionClient } from './helpers/auth-client.js';
import { fwOk, stopServer } from './helpers/auth-app.js';
import { EMAIL, PASSWORD, enrol, passwordStep, signIn, signOut, stepMargin, totpCode } from './helpers/mfa.js';
import { DIALECTS } from './helpers/dialects.js';

const NEW_PASSWORD = 'another correct horse';

interface Context {
  project: CliProject;
  served: { url: string; child: ChildProcess };
}

for (const dialect of DIALECTS) {
  const store = dialect === 'sqlite' ? 'file' : 'database';
  const test = suite<Context>(`pending MFA challenges end with the user's sessions (${dialect}, ${store} store)`);

  test.before(async (context) => {
    const project = newProject('Defi');
    context.project = project;
    project.useDialect(dialect);
    project.write('env/dev', `${project.read('env/dev').trimEnd()}\nSESSION_STORE=${store}\n`);
    fwOk(project, ['starter:build', 'mfa', '--init-db']);
    fwOk(project, ['auth:user:create', '--email', EMAIL, '--password', PASSWORD]);
    linkFramework(project);
    context.served = await serveProject(project);
  });

  test.after(async ({ project, served }) => {
    await stopServer(served);
    await project?.cleanup();
  });

  test('fw auth:user:password and fw auth:user:disable end the challenge a password opened', async ({ project, served }) => {
    const client = new SessionClient(served.url);
    await signIn(client);
    const { secret } = await enrol(client);
    await signOut(client);

    await passwordStep(client);
    assert.is((await client.get('/login/mfa')).status, 200, 'the challenge is pending');
    const changed = fwOk(project, ['auth:user:password', '--email', EMAIL, '--password', NEW_PASSWORD]);
    assert.match(changed, /Sessions fermées : 1 \(stockage /);
    const ended = await client.get('/login/mfa');
    assert.is(ended.status, 302, 'no challenge any more');
    assert.is(ended.headers.get('location'), '/login');
    await stepMargin();
    // The code form is gone: the token comes from the login page, as a crafted request would get one.
    const token = await client.csrf('/login');
    const refused = await client.request('POST', '/login/mfa', [
      ['csrf_token', token],
      ['code', await totpCode(secret)],
    ]);
    assert.is(refused.status, 302);
    assert.is(refused.headers.get('location'), '/login', 'a right code opens nothing');
    assert.is((await client.get('/dashboard')).status, 302, 'not signed in');

    // The new password opens a challenge again; disabling the user ends it.
    await client.get('/login');
    const step = await client.login(EMAIL, NEW_PASSWORD);
    assert.is(step.headers.get('location'), '/login/mfa');
    assert.is((await client.get('/login/mfa')).status, 200, 'a new challenge is pending');
    const disabled = fwOk(project, ['auth:user:disable', '--email', EMAIL]);
    assert.match(disabled, /Sessions fermées : 1 \(stockage /);
    const gone = await client.get('/login/mfa');
    assert.is(gone.status, 302);
    assert.is(gone.headers.get('location'), '/login');
  });

  test.run();
}
