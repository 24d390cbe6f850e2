/**
 * What the second-factor tests share: a real server with the auth and MFA routes on a database of the auth tables,
 * enrolment through the pages (the secret read from the page, the codes computed with otplib as an authenticator
 * app does), and time steps handled for real: a sequence that depends on the current step first waits until
 * enough of the step is left.
 */
import { generate } from 'otplib';
import * as assert from 'uvu/assert';
import { registerAuthRoutes } from '../../runtime/auth/index.js';
import { registerMfaRoutes } from '../../runtime/mfa/index.js';
import { BaseController, getUser, getSessionStore, Response, type Request, type Router } from '../../runtime/index.js';
import type { AuthDatabase, Page, SessionClient } from './auth-client.js';
import { startApp, type TestApp } from './server.js';

export const PASSWORD = 'correct horse battery';
export const EMAIL = 'alice@example.test';
const PERIOD = 30;

export function mfaRoutes(router: Router): void {
  registerAuthRoutes(router);
  registerMfaRoutes(router);
  const me = (request: Request) => new Response(200, JSON.stringify(getUser(request) ?? null), 'application/json');
  router.add('GET', '/', home, { name: 'home', public: true });
  router.add('GET', '/private', me, { name: 'private' });
}

/** A bare home page: who is signed in, and a logout button for them. */
function home(request: Request): Response {
  const user = getUser(request);
  const logout = user
    ? `<form method="post" action="/logout"><input type="hidden" name="csrf_token" value="${BaseController.csrfToken(request)}"><button type="submit" id="logout">Se déconnecter</button></form>`
    : '';
  return new Response(
    200,
    `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Accueil</title></head><body><p id="who">${String(user?.login ?? '')}</p>${logout}</body></html>`,
  );
}

/**
 * The app on the database (sessions in memory, reachable through getSessionStore(); limits in the database).
 * `files` are project files (the browser test gives the layout's `static/js/app.js`).
 */
export function startMfaApp(data: AuthDatabase, files?: Record<string, string | Buffer>): Promise<TestApp> {
  return startApp({ files, routes: mfaRoutes, config: { ...data.config, app_name: 'Démo MFA', rate_limit_store: 'database', session_store: 'memory' } });
}

/** The TOTP code of `secret` at `steps` periods from now, as an authenticator app computes it. */
export function totpCode(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * PERIOD });
}

/** The current time step. */
export function currentStep(): number {
  return Math.floor(Date.now() / 1000 / PERIOD);
}

/**
 * Waits, when needed, until at least `seconds` of the current 30-second step are left, so that codes computed
 * now for the previous, current or next step are still in the server's ±1 window when it checks them.
 */
export async function stepMargin(seconds = 8): Promise<number> {
  const left = PERIOD - ((Date.now() / 1000) % PERIOD);
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, Math.ceil(left * 1000) + 50));
  return currentStep();
}

/** A secret as shown on the setup page (groups of four) made whole again. */
export function secretFromPage(page: Page): string {
  const grouped = /id="mfa-secret"[^>]*>([A-Z2-7 ]+)</.exec(page.text)?.[1];
  assert.ok(grouped, `no secret on the page:\n${page.text.slice(0, 600)}`);
  return grouped!.replace(/ /g, '');
}

/** The recovery codes listed on a page. */
export function codesFromPage(page: Page): string[] {
  return [...page.text.matchAll(/>([A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4})</g)].map((m) => m[1]!);
}

/** Signs in with the password alone (the user has no factor yet). */
export async function signIn(client: SessionClient, email = EMAIL): Promise<void> {
  const page = await client.login(email, PASSWORD);
  assert.is(page.status, 302, `login: ${page.status}\n${page.text.slice(0, 300)}`);
  assert.is(page.headers.get('location'), '/');
}

/**
 * Enrols the signed-in client through the pages: setup, then confirm with the code of the previous step (so
 * the current and the next step stay available to the test). Returns the secret and the recovery codes shown.
 */
export async function enrol(client: SessionClient): Promise<{ secret: string; codes: string[]; setup: Page }> {
  const setup = await client.post('/account/mfa/setup', [], '/account/mfa');
  assert.is(setup.status, 200, setup.text.slice(0, 400));
  const secret = secretFromPage(setup);
  await stepMargin();
  const confirmed = await client.post('/account/mfa/confirm', [['code', await totpCode(secret, -1)]], '/account/mfa');
  assert.is(confirmed.status, 200, confirmed.text.slice(0, 400));
  const codes = codesFromPage(confirmed);
  assert.is(codes.length, 10);
  return { secret, codes, setup };
}

/** The password step of a login for a user with a factor: 302 to /login/mfa, the same session id kept. */
export async function passwordStep(client: SessionClient, email = EMAIL, next?: string): Promise<Page> {
  await client.get('/login');
  const before = client.sessionId;
  const page = await client.login(email, PASSWORD, next);
  assert.is(page.status, 302, `password step: ${page.status}\n${page.text.slice(0, 300)}`);
  assert.is(page.headers.get('location'), '/login/mfa');
  assert.is.not(client.sessionId, before, 'the session id changes at the password step (fixation)');
  return page;
}

/** Posts a code to the challenge with a fresh CSRF token from its form. */
export function postCode(client: SessionClient, code: string): Promise<Page> {
  return client.post('/login/mfa', [['code', code]], '/login/mfa');
}

/** Signs out (the CSRF token read from the account page, a signed-in page). */
export async function signOut(client: SessionClient): Promise<void> {
  const page = await client.post('/logout', [], '/account/mfa');
  assert.is(page.status, 302);
}

/** The signed-in user as the server sees it, or null. */
export async function whoAmI(client: SessionClient): Promise<{ id: number; login: string } | null> {
  const page = await client.get('/private');
  return page.status === 200 ? (JSON.parse(page.text) as { id: number; login: string }) : null;
}

/** Moves the client's pending challenge `seconds` into the past, in the memory session store the app uses. */
export async function ageChallenge(client: SessionClient, seconds: number): Promise<void> {
  const store = getSessionStore();
  const data = await store.get(client.sessionId);
  assert.ok(data && typeof data._auth_mfa_started_at === 'number', 'a pending challenge in the session');
  await store.set(client.sessionId, { ...data, _auth_mfa_started_at: (data!._auth_mfa_started_at as number) - seconds });
}

/** The audit events logged so far, by name. */
export function auditEvents(app: TestApp): string[] {
  return app.logs.records.filter((r) => r.logger === 'fw.auth.audit').map((r) => r.message.split(' ')[0]!);
}
