/**
 * Several machines (docs/deploy.md "Several machines"): two instances of a generated project, each a process group
 * with its own storage/, on the same MariaDB database, the same Redis (sessions and attempt limits) and one media
 * folder, behind Debian's nginx whose upstream lists both (test/helpers/machines-stack.ts). A user signed in through
 * one is served by both; failed logins count toward one limit; logout and `fw auth:user:disable` end the session on
 * both; a photo uploaded through one is served by the other; killing one instance under a steady GET load costs the
 * client no error and no session: nginx passes the requests to the other.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { waitFor } from './helpers/cluster.js';
import { filesUnder, jpeg } from './helpers/crud-media.js';
import { EMAIL, PASSWORD, Visitor, startMachinesStack, type Answer, type MachinesStack } from './helpers/machines-stack.js';
import { multipart } from './helpers/uploads.js';

const test = suite<{ stack: MachinesStack }>('plusieurs machines : deux instances derrière l’upstream de nginx, MariaDB et Redis partagés');

test.before(async (context) => {
  context.stack = await startMachinesStack();
});

test.after(async ({ stack }) => {
  await stack?.stop();
});

/** GETs `url` until both instances have answered (nginx's round robin: two or three requests); every answer. */
async function fromBoth(stack: MachinesStack, visitor: Visitor, url: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  const wanted = stack.instances.map((instance) => instance.address);
  for (let i = 0; i < 8 && !wanted.every((address) => answers.some((answer) => answer.upstream === address)); i++) answers.push(await visitor.get(url));
  const seen = new Set(answers.map((answer) => answer.upstream));
  assert.ok(
    wanted.every((address) => seen.has(address)),
    `${url}: answered by ${[...seen].join(', ')}`,
  );
  return answers;
}

async function signedIn(stack: MachinesStack): Promise<Visitor> {
  const visitor = new Visitor(stack.httpsPort);
  const login = await visitor.login(EMAIL, PASSWORD);
  assert.is(login.status, 302, login.body.slice(0, 300));
  assert.ok(visitor.session, 'a session cookie');
  return visitor;
}

function statuses(answers: readonly Answer[]): number[] {
  return [...new Set(answers.map((answer) => answer.status))];
}

test('signed in through one instance, served by both', async ({ stack }) => {
  const visitor = await signedIn(stack);
  try {
    const answers = await fromBoth(stack, visitor, '/produits');
    assert.equal(statuses(answers), [200]);
    for (const answer of answers) assert.match(answer.body, /action="\/logout"/, 'the signed-in layout');
  } finally {
    visitor.close();
  }
});

test('failed logins count toward one limit: past five, both instances answer 429', async ({ stack }) => {
  // An address of its own (nginx's X-Forwarded-For carries it), so the other tests' sign-ins are not limited.
  const visitor = new Visitor(stack.httpsPort, '127.0.0.3');
  try {
    for (let i = 0; i < 5; i++) {
      const failed = await visitor.login('personne@example.test', 'pas-le-bon-mot-de-passe');
      assert.is(failed.status, 401, `failure ${i + 1}`);
    }
    const limited: Answer[] = [];
    const wanted = stack.instances.map((instance) => instance.address);
    for (let i = 0; i < 8 && !wanted.every((address) => limited.some((answer) => answer.upstream === address)); i++) {
      // One GET of the form between two posts, or none: the posts do not always reach the same instance.
      limited.push(await visitor.login('personne@example.test', 'pas-le-bon-mot-de-passe'));
      if (i % 2 === 0) await visitor.get('/login');
    }
    assert.equal(statuses(limited), [429]);
    assert.equal([...new Set(limited.map((answer) => answer.upstream))].sort(), [...wanted].sort(), 'both instances refuse');
    assert.ok(
      limited.every((answer) => Number(answer.headers['retry-after']) > 0),
      'Retry-After',
    );
  } finally {
    visitor.close();
  }
});

test('logout through one instance ends the session on both', async ({ stack }) => {
  const visitor = await signedIn(stack);
  const replay = new Visitor(stack.httpsPort);
  try {
    await fromBoth(stack, visitor, '/produits');
    const id = visitor.session!;
    const out = await visitor.post('/logout', [], '/produits');
    assert.is(out.status, 302);
    replay.useSession(id);
    const answers = await fromBoth(stack, replay, '/produits');
    assert.equal(statuses(answers), [302]);
    for (const answer of answers) assert.match(String(answer.headers.location), /^\/login/);
  } finally {
    visitor.close();
    replay.close();
  }
});

test('`fw auth:user:disable` ends the session on both instances', async ({ stack }) => {
  const visitor = await signedIn(stack);
  try {
    assert.equal(statuses(await fromBoth(stack, visitor, '/produits')), [200]);
    const disabled = stack.project.run(['auth:user:disable', '--email', EMAIL], { env: stack.cliEnv });
    assert.is(disabled.status, 0, disabled.stdout + disabled.stderr);
    const answers = await fromBoth(stack, visitor, '/produits');
    assert.equal(statuses(answers), [302]);
    for (const answer of answers) assert.match(String(answer.headers.location), /^\/login/);
  } finally {
    visitor.close();
    const enabled = stack.project.run(['auth:user:enable', '--email', EMAIL], { env: stack.cliEnv });
    assert.is(enabled.status, 0, enabled.stdout + enabled.stderr);
  }
});

test('a photo uploaded through one instance is served by the other (one media folder)', async ({ stack }) => {
  const visitor = await signedIn(stack);
  try {
    const body = multipart([
      { name: 'csrf_token', value: await visitor.token('/produits/new') },
      { name: 'nom', value: 'Fauteuil club' },
      { name: 'reference', value: 'FC-01' },
      { name: 'photo.alt', value: 'Fauteuil bleu' },
      { name: 'photo', filename: 'bleu.jpg', type: 'image/jpeg', data: await jpeg(800, 600, { r: 40, g: 90, b: 200 }) },
    ]);
    const created = await visitor.request('POST', '/produits', { type: body.contentType, data: body.body });
    assert.is(created.status, 302, created.body.slice(0, 500));
    const storedBy = created.upstream;
    assert.ok(
      stack.instances.some((instance) => instance.address === storedBy),
      storedBy,
    );
    const list = await visitor.get('/produits');
    const src = /<img[^>]+src="(\/media\/images\/thumbnail\/[^"]+)"/.exec(list.body)?.[1];
    assert.ok(src, 'a thumbnail on the list');
    // In the shared folder only: neither instance's own storage/ holds it.
    assert.ok(filesUnder(stack.mediaRoot).includes(src!.slice('/media/'.length)), filesUnder(stack.mediaRoot).join(', '));
    for (const instance of stack.instances) assert.equal(filesUnder(path.join(instance.root, 'storage', 'uploads')), []);
    const answers = await fromBoth(stack, visitor, src!);
    assert.equal(statuses(answers), [200]);
    const other = answers.find((answer) => answer.upstream !== storedBy)!;
    assert.match(String(other.headers['content-type']), /^image\//);
    assert.ok(other.body.length > 100, 'the image itself');
  } finally {
    visitor.close();
  }
});

test('one instance killed under a steady GET load: no error seen by the client, no session lost', async ({ stack }) => {
  const visitors = await Promise.all([0, 1, 2, 3].map(() => signedIn(stack)));
  const [, doomed] = stack.instances;
  const outcomes = { ok: 0, wrong: [] as string[] };
  let running = true;
  const load = visitors.map(async (visitor) => {
    while (running) {
      try {
        const answer = await visitor.get('/produits');
        if (answer.status === 200 && /action="\/logout"/.test(answer.body)) outcomes.ok++;
        else outcomes.wrong.push(`${answer.status} from ${answer.upstream}`);
      } catch (error) {
        outcomes.wrong.push(String(error));
      }
    }
  });
  try {
    // Counted answers before and after the kill, and nginx meeting the dead instance: events, not pauses.
    await waitFor('21 answers before the kill', () => outcomes.ok > 20, 30_000);
    const before = outcomes.ok;
    await doomed.kill();
    await waitFor(
      'nginx meeting the dead instance, then 21 answers after the kill',
      () => stack.errorLog().includes(`upstream: "http://${doomed.address}/`) && outcomes.ok - before > 20,
      30_000,
    );
    running = false;
    await Promise.all(load);
    assert.equal(outcomes.wrong, [], 'every GET answered 200, signed in');
    // nginx did meet the dead instance (refused connections, reset requests) and passed those requests on.
    assert.ok(stack.errorLog().includes(`upstream: "http://${doomed.address}/`), stack.errorLog().slice(-1000));
    assert.ok(before > 20 && outcomes.ok - before > 20, `${before} requests before the kill, ${outcomes.ok - before} after`);
    for (const visitor of visitors) {
      const answer = await visitor.get('/produits');
      assert.is(answer.status, 200, 'the session lives on in Redis');
      assert.is(answer.upstream, stack.instances[0].address);
    }
  } finally {
    running = false;
    for (const visitor of visitors) visitor.close();
  }
});

test.run();
