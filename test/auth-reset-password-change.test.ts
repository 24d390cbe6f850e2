/**
 * A change of password ends the reset links asked for before it, on SQLite and on MariaDB: a link received by
 * mail (real server, real SMTP server, the outbox's sender) no longer opens once the user changed the password on
 * the profile page (ProfilePages, `changeUserPassword`), and a token of before is burnt by `changePasswordHash`
 * in the same transaction as the new hash (a transaction rolled back keeps both).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ProfilePages } from '../runtime/auth/profile.js';
import { createResetToken, findResetToken } from '../runtime/auth/password-reset-tokens.js';
import { hashPassword, verifyPassword } from '../runtime/auth/passwords.js';
import { changePasswordHash, createUser, findUserById } from '../runtime/auth/users.js';
import { settlePasswordResetRequests } from '../runtime/auth/index.js';
import { configure } from '../runtime/config.js';
import { closeDatabase } from '../runtime/db/index.js';
import type { Request } from '../runtime/index.js';
import { setRateLimitStore } from '../runtime/rate-limit/index.js';
import { SessionClient, type AuthDatabase } from './helpers/auth-client.js';
import { askReset, EMAIL, linkOf, NEW_PASSWORD, openResetDatabase, PASSWORD, pathOf, startResetWorld, type ResetWorld } from './helpers/auth-reset.js';
import { DIALECTS } from './helpers/dialects.js';

const PROFILE_TEMPLATE =
  '<input type="hidden" name="csrf_token" value="{{ csrf_token() }}"><p id="email">{{ account.email }}</p>{% for name, message in errors %}<p class="error">{{ name }}: {{ message }}</p>{% endfor %}';

for (const dialect of DIALECTS) {
  const test = suite<{ world: ResetWorld; data: AuthDatabase; aliceId: number }>(`password change ends the reset links (${dialect})`);

  test.before(async (context) => {
    context.data = await openResetDatabase(dialect, 'fw_h2_pwchange');
    const pages = new ProfilePages({ template: 'profile/show.html' });
    context.world = await startResetWorld(context.data, { 'mvc/views/profile/show.html': PROFILE_TEMPLATE }, (router) => {
      router.add('GET', '/profile', (request: Request) => pages.show(request), { name: 'profile' });
      router.add('POST', '/profile/password', (request: Request) => pages.changePassword(request), { name: 'profile.password' });
    });
  });

  test.before.each(async (context) => {
    await settlePasswordResetRequests();
    await context.data.reset();
    setRateLimitStore(null);
    configure({ app_url: null, app_env: 'dev' });
    context.aliceId = await createUser({ email: EMAIL, passwordHash: await hashPassword(PASSWORD) }, context.data.db);
    context.world.smtp.received.splice(0);
  });

  test.after(async ({ world, data }) => {
    await world.close();
    await closeDatabase();
    await data.close();
  });

  test('a link received before a change of password on the profile page answers 410 after it', async ({ world }) => {
    const asker = new SessionClient(world.app.base);
    assert.is((await askReset(asker, EMAIL)).status, 200);
    const [message] = await world.smtp.waitFor(1);
    const link = pathOf(linkOf(message!));
    assert.is((await asker.get(link)).status, 200, 'the link works before the change');

    const user = new SessionClient(world.app.base);
    assert.is((await user.login(EMAIL, PASSWORD)).status, 302);
    const changed = await user.post(
      '/profile/password',
      [
        ['current_password', PASSWORD],
        ['new_password', NEW_PASSWORD],
        ['new_password_confirm', NEW_PASSWORD],
      ],
      '/profile',
    );
    assert.is(changed.status, 302, changed.text.slice(0, 300));

    const after = await asker.get(link);
    assert.is(after.status, 410, 'the link asked for before the change is dead');
    assert.match(after.text, 'Ce lien n’est pas valable');
  });

  test('changePasswordHash burns the unused tokens in its transaction; a rollback keeps the token and the old hash', async ({ data, aliceId }) => {
    const token = await createResetToken(aliceId, data.db);
    const hash = await hashPassword(NEW_PASSWORD);
    await data.db
      .transaction(async (tx) => {
        assert.ok(await changePasswordHash(aliceId, hash, tx));
        assert.equal(await findResetToken(token, tx), { refusal: 'used' }, 'burnt inside the transaction');
        throw new Error('rollback');
      })
      .catch((error: Error) => assert.is(error.message, 'rollback'));
    assert.not.ok('refusal' in (await findResetToken(token, data.db)), 'the rollback kept the token usable');
    assert.ok(await verifyPassword(PASSWORD, (await findUserById(aliceId, data.db))!.passwordHash), 'and the old password');

    assert.ok(await changePasswordHash(aliceId, hash, data.db));
    assert.equal(await findResetToken(token, data.db), { refusal: 'used' });
    assert.ok(await verifyPassword(NEW_PASSWORD, (await findUserById(aliceId, data.db))!.passwordHash));
  });

  test.run();
}
