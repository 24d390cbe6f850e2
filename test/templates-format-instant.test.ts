/**
 * Moments kept in UTC (last login, account creation, second factor's confirmation) shown in the application's time
 * zone and the locale's order: formatInstant, the `format_instant` filter, APP_TIMEZONE / `timezone`, and the pages
 * that print them (the MFA account page, the profile page the auth starter writes) rendered for real
 * (docs/runtime.md "Templates and i18n").
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { emitAppLayout } from '../emitters/crud/views-record.js';
import { emitProfileView } from '../emitters/starters/account-views.js';
import { Application, BaseController, Router, appTimeZone, configure, formatInstant, resetConfig, type Router as RouterType } from '../runtime/index.js';
import { startApp, type TestApp } from './helpers/server.js';

const U = suite('format_instant: formatInstant and appTimeZone');

U.after(() => resetConfig());

U('a UTC moment in Europe/Paris: winter +1, summer +2 (across midnight), in the format.datetime order', () => {
  assert.is(formatInstant('2025-03-10 08:40:00', 'Europe/Paris'), '10/03/2025 09:40');
  assert.is(formatInstant('2025-07-01 22:30:59', 'Europe/Paris'), '02/07/2025 00:30');
  assert.is(formatInstant('2025-07-01T22:30:00.123Z', 'Europe/Paris'), '02/07/2025 00:30');
  assert.is(formatInstant(new Date(Date.UTC(2025, 2, 10, 8, 40)), 'Europe/Paris'), '10/03/2025 09:40');
  assert.is(formatInstant('2025-03-10 08:40:00', 'America/Montreal'), '10/03/2025 04:40');
  assert.is(formatInstant('2025-03-10 08:40:00', 'UTC'), '10/03/2025 08:40');
});

U('empty values give an empty text; anything else that is not a moment is returned unchanged', () => {
  for (const empty of [null, undefined, '']) assert.is(formatInstant(empty, 'Europe/Paris'), '');
  assert.is(formatInstant('jamais', 'Europe/Paris'), 'jamais');
  assert.is(formatInstant('2025-03-10', 'Europe/Paris'), '2025-03-10', 'a date alone is not a moment');
  assert.is(formatInstant(new Date(Number.NaN), 'Europe/Paris'), '');
});

U('the zone: timezone key, else APP_TIMEZONE, else Europe/Paris; an unknown name is refused with its source', () => {
  const saved = process.env.APP_TIMEZONE;
  try {
    resetConfig();
    delete process.env.APP_TIMEZONE;
    assert.is(appTimeZone(), 'Europe/Paris');
    assert.is(formatInstant('2025-03-10 08:40:00'), '10/03/2025 09:40');
    process.env.APP_TIMEZONE = ' America/Montreal ';
    assert.is(appTimeZone(), 'America/Montreal');
    assert.is(formatInstant('2025-03-10 08:40:00'), '10/03/2025 04:40');
    process.env.APP_TIMEZONE = 'Mars/Olympus';
    assert.throws(() => appTimeZone(), /^APP_TIMEZONE vaut « Mars\/Olympus » : fuseau horaire inconnu ; donnez un nom IANA, par exemple Europe\/Paris/);
    configure({ timezone: 'Asia/Tokyo' });
    assert.is(appTimeZone(), 'Asia/Tokyo', 'the key wins over the variable');
    configure({ timezone: 'nulle-part' });
    assert.throws(() => appTimeZone(), /^timezone vaut « nulle-part » : fuseau horaire inconnu/);
    // The application refuses to start with it, rather than failing on the first page.
    assert.throws(() => new Application(new Router(), { apiRoutesModule: null }), /timezone vaut « nulle-part »/);
  } finally {
    if (saved === undefined) delete process.env.APP_TIMEZONE;
    else process.env.APP_TIMEZONE = saved;
    resetConfig();
  }
});

U.run();

// The pages, rendered by the real renderer with the framework's views and the auth starter's profile view.

const P = suite('format_instant: the MFA account page and the profile page');
let t: TestApp;

const ACCOUNT = { email: 'marie@exemple.fr', last_login_at: '2025-07-01 22:30:00', created_at: '2025-03-10 08:40:00' };

function routes(router: RouterType): void {
  router.add(
    'GET',
    '/mfa',
    (r) =>
      BaseController.render('mfa/account.html', {
        request: r,
        context: { enabled: true, factor: { label: 'Téléphone', confirmed_at: '2025-03-10 08:40:00', last_used_at: null }, recovery_left: 8 },
      }),
    { public: true },
  );
  router.add(
    'GET',
    '/profile',
    (r) => BaseController.render('account/profile.html', { request: r, context: { account: ACCOUNT, roles: ['admin'], errors: {} } }),
    { public: true },
  );
  router.add(
    'GET',
    '/profile-new',
    (r) => BaseController.render('account/profile.html', { request: r, context: { account: { ...ACCOUNT, last_login_at: null }, roles: [], errors: {} } }),
    { public: true },
  );
}

P.before(async () => {
  t = await startApp({
    files: { 'mvc/views/layouts/app.html': emitAppLayout(), 'mvc/views/account/profile.html': emitProfileView('fw starter:build auth') },
    routes,
    env: { APP_TIMEZONE: undefined },
  });
});
P.after(() => t.close());

/** The text of the element with this id. */
function byId(html: string, id: string): string | undefined {
  return new RegExp(`id="${id}">([^<]*)<`).exec(html)?.[1];
}

P('the MFA account page: the confirmation in Paris time, no raw UTC text', async () => {
  const page = await t.fetch('/mfa');
  assert.is(page.status, 200, page.text.slice(0, 300));
  assert.is(byId(page.text, 'mfa-confirmed-at'), '10/03/2025 09:40');
  assert.not.match(page.text, /UTC|2025-03-10/);
});

P('the profile page: last login and creation in Paris time; never signed in reads « jamais »', async () => {
  const page = await t.fetch('/profile');
  assert.is(page.status, 200, page.text.slice(0, 300));
  assert.is(byId(page.text, 'profile-last-login'), '02/07/2025 00:30');
  assert.is(byId(page.text, 'profile-created-at'), '10/03/2025 09:40');
  assert.not.match(page.text, /UTC|2025-07-01|2025-03-10/);
  assert.is(byId((await t.fetch('/profile-new')).text, 'profile-last-login'), 'jamais');
});

P('with APP_TIMEZONE=America/Montreal the same moments read in Montreal time', async () => {
  process.env.APP_TIMEZONE = 'America/Montreal';
  try {
    assert.is(byId((await t.fetch('/mfa')).text, 'mfa-confirmed-at'), '10/03/2025 04:40');
    assert.is(byId((await t.fetch('/profile')).text, 'profile-last-login'), '01/07/2025 18:30');
  } finally {
    delete process.env.APP_TIMEZONE;
  }
});

P.run();
