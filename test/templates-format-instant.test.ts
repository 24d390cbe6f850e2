/**
 * One rule for every date and time a page shows (docs/decisions.md "Dates and times on pages"): a DATETIME, a moment
 * kept in UTC (a CRUD field, last login, account creation, second factor's confirmation), is shown in the
 * application's time zone and the locale's order; a DATE is shown as stored. formatDate / formatInstant, the
 * `format_date` filter (and `format_instant`, the same), DateTimeField (typed in the zone, stored in UTC),
 * APP_TIMEZONE / `timezone`, and the pages that print them (the MFA account page, the profile page the auth starter
 * writes) rendered for real. The CRUD pages: test/crud-labels-dates.test.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { emitAppLayout } from '../emitters/crud/views-record.js';
import { emitProfileView } from '../emitters/starters/account-views.js';
import {
  Application,
  BaseController,
  DateTimeField,
  Router,
  appTimeZone,
  configure,
  formatDate,
  formatInstant,
  resetConfig,
  type Router as RouterType,
} from '../runtime/index.js';
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

U('formatDate: a DATE as stored, a DATETIME (UTC) in the zone, whatever its spelling', () => {
  assert.is(formatDate('2025-03-10', 'America/Montreal'), '10/03/2025', 'a date has no zone');
  assert.is(formatDate('2025-03-10 08:40:00', 'Europe/Paris'), '10/03/2025 09:40');
  assert.is(formatDate('2025-03-10T08:40', 'Europe/Paris'), '10/03/2025 09:40');
  assert.is(formatDate('2025-03-10 08:40:00.000', 'Europe/Paris'), '10/03/2025 09:40', 'DATETIME(3) as MariaDB gives it');
  assert.is(formatDate('2025-03-09 03:30:00', 'America/Montreal'), '08/03/2025 22:30', 'the day before, in the zone');
  assert.is(formatDate(new Date(Date.UTC(2025, 2, 10, 8, 40)), 'Europe/Paris'), '10/03/2025 09:40');
  assert.is(formatDate('2025-03-10 08:40:00', 'UTC'), '10/03/2025 08:40');
  for (const empty of [null, undefined]) assert.is(formatDate(empty), '');
  assert.is(formatDate('bientôt'), 'bientôt');
  assert.is(formatInstant('2025-03-10 08:40:00', 'Asia/Tokyo'), formatDate('2025-03-10 08:40:00', 'Asia/Tokyo'), 'one function');
});

U('DateTimeField: typed in the zone, stored in UTC, shown back as typed; clocks changing (Europe/Paris)', () => {
  try {
    configure({ timezone: 'Europe/Paris' });
    const field = new DateTimeField({ label: 'Début' });
    const stored = (typed: string) => field.clean({ value: typed, values: [typed], file: undefined }, 'Début');
    assert.is(stored('2025-03-10T09:40'), '2025-03-10 08:40:00', 'winter: +1');
    assert.is(stored('2025-07-02T00:30'), '2025-07-01 22:30:00', 'summer: +2, the day before in UTC');
    assert.is(stored('2025-03-30T01:59:59'), '2025-03-30 00:59:59', 'the last second before clocks go forward');
    assert.is(stored('2025-03-30T03:00'), '2025-03-30 01:00:00', 'the first minute after');
    assert.is(stored('2025-03-30T02:30'), '2025-03-30 01:30:00', 'a skipped time lands after the gap (03:30)');
    assert.is(stored('2025-10-26T02:30'), '2025-10-26 00:30:00', 'a repeated time is the first of the two');
    assert.is(stored('2025-10-26T03:30'), '2025-10-26 02:30:00');
    assert.is(field.format('2025-03-10 08:40:00'), '2025-03-10T09:40:00');
    assert.is(field.format('2025-10-26 00:30:00'), '2025-10-26T02:30:00');
    assert.is(field.format('2025-10-26 01:30:00'), '2025-10-26T02:30:00', 'the second 02:30');
    assert.is(field.format('2025-03-30 01:30:00'), '2025-03-30T03:30:00');
    assert.is(field.format(new Date(Date.UTC(2025, 6, 1, 22, 30, 5))), '2025-07-02T00:30:05');
    configure({ timezone: 'UTC' });
    assert.is(stored('2025-03-10T09:40'), '2025-03-10 09:40:00', 'UTC: as typed');
    assert.is(field.format('2025-03-10 09:40:00'), '2025-03-10T09:40:00');
  } finally {
    resetConfig();
  }
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
  router.add('GET', '/dates', (r) => BaseController.render('dates.html', { request: r, context: { d: '2025-03-10 20:40:00', j: '2025-03-10' } }), {
    public: true,
  });
  router.add(
    'GET',
    '/profile-new',
    (r) => BaseController.render('account/profile.html', { request: r, context: { account: { ...ACCOUNT, last_login_at: null }, roles: [], errors: {} } }),
    { public: true },
  );
}

P.before(async () => {
  t = await startApp({
    files: {
      'mvc/views/layouts/app.html': emitAppLayout(),
      'mvc/views/account/profile.html': emitProfileView('fw starter:build auth'),
      'mvc/views/dates.html': '{{ d | format_date }}|{{ d | format_instant }}|{{ j | format_date }}|{{ j | format_instant }}',
    },
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

P('the filters: format_date and format_instant print a DATETIME in the zone; a DATE stays as stored', async () => {
  assert.is((await t.fetch('/dates')).text, '10/03/2025 21:40|10/03/2025 21:40|10/03/2025|2025-03-10');
  process.env.APP_TIMEZONE = 'Asia/Tokyo';
  try {
    assert.is((await t.fetch('/dates')).text, '11/03/2025 05:40|11/03/2025 05:40|10/03/2025|2025-03-10');
  } finally {
    delete process.env.APP_TIMEZONE;
  }
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
