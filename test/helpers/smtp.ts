/**
 * A real SMTP server for the mail tests (`smtp-server` on 127.0.0.1, an ephemeral port): plain, STARTTLS or
 * implicit TLS with a certificate made by `openssl` for 127.0.0.1, optional AUTH, and scripted answers (a 4xx or
 * a 5xx to the data), and a delay before a message is accepted. Every received message is parsed with `mailparser`.
 * Also a server that accepts connections and never answers, and a free port nothing listens on.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
}

let certificate: TestCertificate | undefined;

/** A self-signed certificate for 127.0.0.1, made once per test process with openssl. */
export function testCertificate(): TestCertificate {
  if (certificate) return certificate;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-mail-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    certificate = { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
    return certificate;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface Received {
  readonly from: string;
  readonly to: string[];
  readonly user: string | undefined;
  readonly secure: boolean;
  readonly raw: string;
  readonly parsed: ParsedMail;
}

export interface SmtpOptions {
  /** `plain`: no TLS offered; `starttls`: STARTTLS offered; `implicit`: TLS from the first byte. */
  readonly tls: 'plain' | 'starttls' | 'implicit';
  /** When given, AUTH is required with these credentials. */
  readonly auth?: { readonly user: string; readonly pass: string };
  /** Answers to the message's data, in order (`null`: accept); past the list, accept. E.g. `[451]`, `[550]`. */
  readonly dataReplies?: ReadonlyArray<number | null>;
}

export interface SmtpHandle {
  readonly port: number;
  readonly received: Received[];
  /** How many DATA commands arrived (accepted or not). */
  readonly dataCount: () => number;
  /**
   * From now on, a message to accept is recorded in `received` and answered `ms` after its data arrived: a number
   * for every message, or a function of its subject (0: at once, the default).
   */
  setDataDelay(ms: number | ((subject: string) => number)): void;
  /** Resolves once `count` messages were accepted, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startSmtp(options: SmtpOptions): Promise<SmtpHandle> {
  const received: Received[] = [];
  let data = 0;
  let dataDelay: (subject: string) => number = () => 0;
  const waiters: Array<() => void> = [];
  const tlsFiles = options.tls === 'plain' ? {} : testCertificate();
  const config: SMTPServerOptions = {
    ...tlsFiles,
    secure: options.tls === 'implicit',
    disabledCommands: [...(options.tls === 'plain' ? ['STARTTLS'] : []), ...(options.auth ? [] : ['AUTH'])],
    authOptional: !options.auth,
    logger: false,
    // smtp-server looks up the client's name by default: a DNS query out of 127.0.0.1 at every connection.
    disableReverseLookup: true,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const reply = options.dataReplies?.[data] ?? null;
        data++;
        if (reply !== null) {
          callback(Object.assign(new Error(reply >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: reply }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw).then((parsed) => {
          const accept = (): void => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              user: session.user as string | undefined,
              secure: session.secure,
              raw,
              parsed,
            });
            for (const wake of waiters.splice(0)) wake();
            callback();
          };
          const delay = dataDelay(parsed.subject ?? '');
          if (delay > 0) setTimeout(accept, delay).unref();
          else accept();
        }, callback);
      });
    },
  };
  const server = new SMTPServer(config);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => {});
  const port = ((server as unknown as { server: net.Server }).server.address() as net.AddressInfo).port;
  return {
    port,
    received,
    dataCount: () => data,
    setDataDelay: (ms) => {
      dataDelay = typeof ms === 'number' ? () => ms : ms;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`${received.length} message(s) reçu(s), ${count} attendu(s).`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts connections and never says a word (the SMTP greeting never comes). */
export async function startSilentServer(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port of 127.0.0.1 nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
