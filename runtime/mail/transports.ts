/**
 * The transports of `fw-mvc/mail` (docs/mail.md "Transports"): one contract, three implementations chosen by
 * `mail_transport`: `smtp` (nodemailer), `console` (prints the message) and `file` (writes an `.eml` under
 * `mail_dir`). nodemailer is imported on the first message only, so an application that sends nothing never
 * loads it, and the core package never does.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { get, getPath } from '../config.js';
import { formatAddress, type MailAddress } from './address.js';

type NodemailerModule = typeof import('nodemailer');
export type SmtpTransportOptions = import('nodemailer/lib/smtp-transport/index.js').Options;
type SmtpSentInfo = import('nodemailer/lib/smtp-transport/index.js').SentMessageInfo;

let nodemailerLoading: Promise<NodemailerModule> | undefined;

/** nodemailer, imported once on first use. */
export function loadNodemailer(): Promise<NodemailerModule> {
  nodemailerLoading ??= import('nodemailer').then((module) => (module as { default?: NodemailerModule }).default ?? module);
  return nodemailerLoading;
}

/** A message ready to leave: addresses checked, templates rendered, its Message-ID fixed (kept across retries). */
export interface OutgoingMessage {
  readonly from: MailAddress;
  readonly to: readonly MailAddress[];
  readonly replyTo?: MailAddress;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  /** `<…@…>`; the same on every attempt, so that a receiver can tell a repeat. */
  readonly messageId: string;
}

/** What the receiving side said. */
export interface SendResult {
  readonly messageId: string;
  /** The server's last answer (`250 2.0.0 Ok: queued as …`), or what the console / file transport did. */
  readonly response: string;
  readonly accepted: readonly string[];
  readonly rejected: readonly string[];
}

/**
 * The contract every transport keeps. `send` resolves once the message is accepted, or rejects with an error that
 * may carry `responseCode` (the SMTP reply code) and `code` (nodemailer's: `ECONNECTION`, `ETIMEDOUT`, `EAUTH`,
 * `ETLS`…): the sender tells temporary failures from permanent ones with them (`isTemporaryFailure`).
 */
export interface MailTransport {
  /** Written in `mail_log.transport`. */
  readonly name: string;
  send(message: OutgoingMessage): Promise<SendResult>;
  /** Releases connections; the transport may not be used afterwards. */
  close(): Promise<void> | void;
}

/** SMTP settings; every field defaults to its `mail_*` configuration key. */
export interface SmtpOptions {
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  /** STARTTLS required (`mail_use_tls`). */
  requireTls?: boolean;
  /** Implicit TLS (`mail_use_ssl`). */
  implicitTls?: boolean;
  /** Seconds per step (`mail_timeout`). */
  timeoutSeconds?: number;
  /** TLS options passed to node:tls (a private CA with `ca`, `servername`…). */
  tls?: ConnectionOptions;
}

function toNodemailerMessage(message: OutgoingMessage): import('nodemailer').SendMailOptions {
  return {
    from: message.from,
    to: [...message.to],
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    ...(message.html !== undefined ? { html: message.html } : {}),
    messageId: message.messageId,
    // Never a header built from user data: nodemailer encodes the subject and names (RFC 2047) itself.
  };
}

function asResult(info: { messageId: string; response?: string; accepted?: unknown[]; rejected?: unknown[] }, fallback: string): SendResult {
  const addresses = (list: unknown[] | undefined) =>
    (list ?? []).map((item) => (typeof item === 'string' ? item : String((item as { address?: string }).address)));
  return { messageId: info.messageId, response: info.response ?? fallback, accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
}

/**
 * nodemailer's options for `options`, the configuration filling what is not given: what the SMTP transport sends
 * with, and what `fw mail:doctor` verifies with (cli/mail/smtp-probe.ts).
 */
export function smtpTransportOptions(options: SmtpOptions = {}): SmtpTransportOptions {
  const timeoutMs = Math.max(1, Number(options.timeoutSeconds ?? get('mail_timeout'))) * 1000;
  const username = options.username ?? get('mail_username');
  return {
    host: options.host ?? get('mail_host'),
    port: Number(options.port ?? get('mail_port')),
    secure: options.implicitTls ?? Boolean(get('mail_use_ssl')),
    requireTLS: options.requireTls ?? Boolean(get('mail_use_tls')),
    ...(username ? { auth: { user: username, pass: options.password ?? get('mail_password') } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    ...(options.tls ? { tls: options.tls } : {}),
    logger: false,
    debug: false,
  };
}

/** The SMTP transport (nodemailer, one connection per message). */
export function smtpTransport(options: SmtpOptions = {}): MailTransport {
  const settings = smtpTransportOptions(options);
  let transporter: import('nodemailer').Transporter<SmtpSentInfo> | undefined;
  return {
    name: 'smtp',
    async send(message) {
      if (!settings.host) throw Object.assign(new Error('mail_host est vide : aucun serveur SMTP configuré.'), { code: 'ECONFIG' });
      const nodemailer = await loadNodemailer();
      transporter ??= nodemailer.createTransport(settings);
      const info = await transporter.sendMail(toNodemailerMessage(message));
      return asResult(info, '');
    },
    close() {
      transporter?.close();
      transporter = undefined;
    },
  };
}

/** The message as an RFC 5322 text (`.eml`), built by nodemailer exactly as SMTP would send it. */
export async function composeMessage(message: OutgoingMessage): Promise<Buffer> {
  const nodemailer = await loadNodemailer();
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await stream.sendMail(toNodemailerMessage(message));
  return info.message as Buffer;
}

/**
 * The console transport, for development: prints the message on stdout (not through the logger), readable:
 * From, To, Reply-To, Subject, Message-ID, then the `[TEXTE]` and `[HTML]` parts. With `app_env` = `prod` it
 * prints the envelope only, never the body: a message may hold a link or a code that must not reach a production
 * console or its log files.
 */
export function consoleTransport(write: (text: string) => void = (text) => process.stdout.write(text)): MailTransport {
  return {
    name: 'console',
    async send(message) {
      const lines = [
        `--- fw-mvc mail ${message.messageId} ---`,
        `From: ${formatAddress(message.from)}`,
        `To: ${message.to.map(formatAddress).join(', ')}`,
        ...(message.replyTo ? [`Reply-To: ${formatAddress(message.replyTo)}`] : []),
        `Subject: ${message.subject}`,
      ];
      if (get('app_env') === 'prod') lines.push('(corps non affiché en production)');
      else lines.push('[TEXTE]', message.text, ...(message.html !== undefined ? ['[HTML]', message.html] : []));
      write(`${lines.join('\n')}\n--- fin du message ---\n`);
      return { messageId: message.messageId, response: 'console', accepted: message.to.map((a) => a.address), rejected: [] };
    },
    close() {},
  };
}

/**
 * The file transport: one `<UTC date>-<random>.eml` per message under `dir` (default `mail_dir`), mode 0600. The
 * message is written to a hidden `.tmp` file renamed once complete, so a full disk leaves no half-written `.eml`
 * (the temporary file is removed) and the failure (`ENOSPC`…) is temporary: the sender tries again later.
 */
export function fileTransport(dir?: string): MailTransport {
  return {
    name: 'file',
    async send(message) {
      const folder = dir ?? getPath('mail_dir');
      fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      const name = `${stamp}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(folder, name);
      const partial = path.join(folder, `.${name}.tmp`);
      const content = await composeMessage(message);
      try {
        fs.writeFileSync(partial, content, { mode: 0o600, flag: 'wx' });
        fs.renameSync(partial, file);
      } catch (error) {
        fs.rmSync(partial, { force: true });
        throw error;
      }
      return { messageId: message.messageId, response: `file ${file}`, accepted: message.to.map((a) => a.address), rejected: [] };
    },
    close() {},
  };
}

/** The transport `mail_transport` names. */
export function transportFromConfig(): MailTransport {
  const name = get('mail_transport');
  if (name === 'smtp') return smtpTransport();
  if (name === 'console') return consoleTransport();
  if (name === 'file') return fileTransport();
  throw new Error(`mail_transport doit valoir « smtp », « console » ou « file » (valeur : « ${String(name)} »).`);
}

const TEMPORARY_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETEMP',
  // The file transport's disk: full, over quota, read-only (remounted so after an error), out of descriptors, busy.
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EMFILE',
  'ENFILE',
  'EAGAIN',
  'EBUSY',
]);

/**
 * True for a failure worth retrying: an SMTP reply 4xx, a time-out, a refused or cut connection, a disk of the
 * file transport that is full, over quota or read-only. False for a 5xx reply (refused address, wrong password), a
 * TLS requirement the server does not meet, a bad configuration, a folder the process may not write (`EACCES`).
 */
export function isTemporaryFailure(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === 'number' && responseCode >= 400) return responseCode < 500;
  return typeof code === 'string' && TEMPORARY_CODES.has(code);
}
