/**
 * The SMTP dialogue of `mail:doctor` (cli/mail/smtp-probe.ts: nodemailer's verify(), each step read from
 * nodemailer's record of the dialogue), in-process against real servers on 127.0.0.1, for what the CLI tests
 * (test/mail-cli-doctor.test.ts) do not reach: a certificate this process does not trust at STARTTLS, then trusted
 * through the TLS options; a username where the server announces no AUTH; AUTH LOGIN's challenges, the password
 * never in the report; EHLO refused and HELO accepted; a greeting that refuses the session; a server that goes
 * silent after its greeting.
 */
import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { probeSmtp, type ProbeStep } from '../cli/mail/smtp-probe.js';
import type { MailSettings } from '../cli/mail/settings.js';
import { startSmtp, testCertificate } from './helpers/smtp.js';

const test = suite('mail: the SMTP probe of mail:doctor');
const toClose: Array<{ close(): Promise<void> }> = [];
test.after.each(async () => {
  for (const item of toClose.splice(0)) await item.close();
});

function settings(port: number, values: Partial<MailSettings> = {}): MailSettings {
  return {
    transport: 'smtp',
    host: '127.0.0.1',
    port,
    username: '',
    password: '',
    from: 'app@example.test',
    useTls: false,
    useSsl: false,
    timeoutSeconds: 1,
    enabled: true,
    dir: 'storage/mail',
    ...values,
  };
}

const statuses = (steps: readonly ProbeStep[]): string[] => steps.map((s) => `${s.step} ${s.status}`);

/** A server that says `greeting`, then answers each line with `answer(line)` (null: says nothing); it records the lines. */
async function scripted(greeting: string, answer: (line: string) => string | null): Promise<{ port: number; lines: string[]; close(): Promise<void> }> {
  const lines: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.write(`${greeting}\r\n`);
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (let at = buffer.indexOf('\r\n'); at >= 0; at = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        lines.push(line);
        const reply = answer(line);
        if (reply !== null) socket.write(`${reply}\r\n`);
        if (line === 'QUIT') socket.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    lines,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

test('a certificate this process does not trust fails at STARTTLS; trusted through the TLS options, every step is OK', async () => {
  const server = await startSmtp({ tls: 'starttls', auth: { user: 'alice', pass: 'pw-1' } });
  toClose.push(server);
  const values = { username: 'alice', password: 'pw-1', useTls: true };
  const untrusted = await probeSmtp(settings(server.port, values));
  assert.equal(statuses(untrusted), ['connect OK', 'ehlo OK', 'starttls FAIL', 'auth SKIP']);
  assert.match(untrusted[2]!.detail, /^négociation TLS : .*certificate/);
  assert.match(untrusted[2]!.hint ?? '', /NODE_EXTRA_CA_CERTS/);
  const trusted = await probeSmtp(settings(server.port, values), { ca: testCertificate().cert });
  assert.equal(statuses(trusted), ['connect OK', 'ehlo OK', 'starttls OK', 'auth OK']);
  assert.is(trusted[3]!.detail, 'alice authentifié (235 Authentication successful)');
  assert.is(server.dataCount(), 0, 'no message sent');
});

test('a username where the server announces no AUTH: FAIL at AUTH (a message would leave unauthenticated)', async () => {
  const server = await startSmtp({ tls: 'starttls' });
  toClose.push(server);
  const steps = await probeSmtp(settings(server.port, { username: 'alice', password: 'pw-2', useTls: true }), { ca: testCertificate().cert });
  assert.equal(statuses(steps), ['connect OK', 'ehlo OK', 'starttls OK', 'auth FAIL']);
  assert.match(steps[3]!.detail, /^le serveur n'annonce aucune extension AUTH : MAIL_USERNAME ne servirait pas/);
});

test('AUTH LOGIN through its challenges; neither the password nor its base64 is in the report', async () => {
  const password = 'Secret-LOGIN-9';
  const server = await scripted('220 script ESMTP', (line) => {
    if (line.startsWith('EHLO')) return '250-script\r\n250 AUTH LOGIN';
    if (line === 'AUTH LOGIN') return '334 VXNlcm5hbWU6';
    if (line === Buffer.from('bob').toString('base64')) return '334 UGFzc3dvcmQ6';
    if (line === Buffer.from(password).toString('base64')) return '235 2.7.0 Accepted';
    if (line === 'QUIT') return '221 Bye';
    return '502 Unknown';
  });
  toClose.push(server);
  const steps = await probeSmtp(settings(server.port, { username: 'bob', password }));
  assert.equal(statuses(steps), ['connect OK', 'ehlo OK', 'starttls WARN', 'auth OK']);
  assert.is(steps[2]!.detail, 'STARTTLS non proposé : les messages et le mot de passe passeraient en clair');
  assert.is(steps[3]!.detail, 'bob authentifié (235 2.7.0 Accepted)');
  assert.ok(server.lines.includes(Buffer.from(password).toString('base64')), 'the server got the password');
  const report = JSON.stringify(steps);
  assert.not.ok(report.includes(password) || report.includes(Buffer.from(password).toString('base64')), report);
});

test('EHLO refused and HELO accepted: a WARN, as the transport sends through HELO; with MAIL_USE_TLS, a FAIL', async () => {
  const server = await scripted('220 old ESMTP', (line) => {
    if (line.startsWith('EHLO')) return '502 5.5.1 EHLO not supported';
    if (line.startsWith('HELO')) return '250 old';
    if (line === 'QUIT') return '221 Bye';
    return '502 Unknown';
  });
  toClose.push(server);
  const helo = await probeSmtp(settings(server.port));
  assert.equal(statuses(helo), ['connect OK', 'ehlo WARN', 'starttls WARN', 'auth SKIP']);
  assert.match(helo[1]!.detail, /^EHLO refusé \(502 5\.5\.1 EHLO not supported\), HELO accepté/);
  const required = await probeSmtp(settings(server.port, { useTls: true }));
  assert.equal(statuses(required), ['connect OK', 'ehlo FAIL', 'starttls SKIP', 'auth SKIP']);
  assert.is(required[1]!.detail, 'EHLO refusé : 502 5.5.1 EHLO not supported');
});

test('a greeting that refuses the session, and a server silent after its greeting: FAIL at the step that waits', async () => {
  const refusing = await scripted('554 5.3.2 no service here', () => '503 bad sequence');
  toClose.push(refusing);
  const refused = await probeSmtp(settings(refusing.port));
  assert.equal(statuses(refused), ['connect FAIL', 'ehlo SKIP', 'starttls SKIP', 'auth SKIP']);
  assert.is(refused[0]!.detail, `127.0.0.1:${refusing.port} refuse la session : 554 5.3.2 no service here`);
  const mute = await scripted('220 mute ESMTP', () => null);
  toClose.push(mute);
  const silent = await probeSmtp(settings(mute.port));
  assert.equal(statuses(silent), ['connect OK', 'ehlo FAIL', 'starttls SKIP', 'auth SKIP']);
  assert.is(silent[1]!.detail, 'aucune réponse à EHLO en 1 s (MAIL_TIMEOUT)');
  assert.match(silent[1]!.hint ?? '', /pare-feu/);
});

test.run();
