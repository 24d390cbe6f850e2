/**
 * `mail:doctor`'s SMTP dialogue (docs/mail.md "Commands"): connect (TCP, or TLS from the first byte with
 * MAIL_USE_SSL) and read the greeting, EHLO, STARTTLS (required with MAIL_USE_TLS, used when offered otherwise, as
 * the transport does), AUTH (PLAIN, else LOGIN) when MAIL_USERNAME is set, then QUIT. No message is ever sent. Each
 * step waits at most MAIL_TIMEOUT seconds, and each is reported on its own: a failed step leaves the next ones
 * skipped. The password is sent to the server only, never printed.
 */
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import type { MailSettings } from './settings.js';

export type ProbeStepName = 'connect' | 'ehlo' | 'starttls' | 'auth';

export interface ProbeStep {
  readonly step: ProbeStepName;
  readonly status: 'OK' | 'WARN' | 'FAIL' | 'SKIP';
  readonly detail: string;
  readonly hint?: string;
}

interface Reply {
  readonly code: number;
  readonly lines: string[];
}

/** A failure of one step: its text is the detail reported. */
class StepError extends Error {}

/** The SMTP replies of one socket (swapped for the TLS socket after STARTTLS). */
class Conversation {
  #socket: net.Socket;
  #buffer = '';
  #pending: string[] = [];
  #waiter: (() => void) | undefined;
  #ended: Error | undefined;

  constructor(
    socket: net.Socket,
    readonly timeoutMs: number,
  ) {
    this.#socket = socket;
    this.#attach(socket);
  }

  #attach(socket: net.Socket): void {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let index: number;
      while ((index = this.#buffer.indexOf('\n')) >= 0) {
        this.#pending.push(this.#buffer.slice(0, index).replace(/\r$/, ''));
        this.#buffer = this.#buffer.slice(index + 1);
      }
      this.#waiter?.();
    });
    socket.on('error', (error) => {
      this.#ended ??= error;
      this.#waiter?.();
    });
    socket.on('close', () => {
      this.#ended ??= new Error('connexion fermée par le serveur');
      this.#waiter?.();
    });
  }

  get socket(): net.Socket {
    return this.#socket;
  }

  /** Hands the conversation to a new socket (after STARTTLS); the old one's data is no longer read. */
  swap(socket: net.Socket): void {
    this.#socket.removeAllListeners('data');
    this.#socket.removeAllListeners('close');
    this.#socket.on('error', () => {});
    this.#socket = socket;
    this.#buffer = '';
    this.#pending = [];
    this.#ended = undefined;
    this.#attach(socket);
  }

  send(line: string): void {
    this.#socket.write(`${line}\r\n`);
  }

  /** The next complete reply (`250-…` lines up to `250 …`), within the time-out. */
  async reply(what: string): Promise<Reply> {
    const lines: string[] = [];
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      while (this.#pending.length > 0) {
        const line = this.#pending.shift()!;
        const match = /^(\d{3})([ -])?(.*)$/.exec(line);
        if (!match) throw new StepError(`réponse illisible à ${what} : « ${clip(line)} »`);
        lines.push(match[3] ?? '');
        if (match[2] !== '-') return { code: Number(match[1]), lines };
      }
      if (this.#ended) throw new StepError(`${describeError(this.#ended)} (en attendant la réponse à ${what})`);
      const left = deadline - Date.now();
      if (left <= 0) throw new StepError(`aucune réponse à ${what} en ${this.timeoutMs / 1000} s (MAIL_TIMEOUT)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#waiter = undefined;
    }
  }

  close(): void {
    if (!this.#socket.destroyed) {
      this.#socket.end('QUIT\r\n');
      setTimeout(() => this.#socket.destroy(), 200).unref();
    }
  }
}

function clip(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function describeError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connexion refusée (ECONNREFUSED)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `nom d'hôte introuvable (${code})`;
  if (code === 'ECONNRESET') return 'connexion coupée par le serveur (ECONNRESET)';
  return code ? `${error.message.replace(/\.$/, '')} (${code})` : error.message.replace(/\.$/, '');
}

function replyText(reply: Reply): string {
  return clip(`${reply.code} ${reply.lines.join(' ')}`);
}

/** The name sent with EHLO: this machine's name when it is a plain host name, else a literal address. */
function ehloName(): string {
  const name = os.hostname();
  return /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(name) ? name : '[127.0.0.1]';
}

/** Waits for `event` on `socket` within `timeoutMs`; an error or a close first rejects. */
function waitFor(socket: net.Socket, event: 'connect' | 'secureConnect', timeoutMs: number, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new StepError(`${what} : rien en ${timeoutMs / 1000} s (MAIL_TIMEOUT)`));
    }, timeoutMs);
    const onError = (error: Error): void => {
      cleanup();
      reject(new StepError(`${what} : ${describeError(error)}`));
    };
    const onClose = (): void => onError(new Error('connexion fermée par le serveur'));
    const onDone = (): void => {
      cleanup();
      resolve();
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      socket.off('error', onError);
      socket.off('close', onClose);
      socket.off(event, onDone);
    };
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.once(event, onDone);
  });
}

function tlsOptions(settings: MailSettings, extra: tls.ConnectionOptions): tls.ConnectionOptions {
  // `host` is what the certificate is checked against (an address cannot be a TLS server name).
  return { host: settings.host, ...(net.isIP(settings.host) ? {} : { servername: settings.host }), ...extra };
}

/** The extensions of an EHLO reply, upper-cased (`STARTTLS`, `AUTH PLAIN LOGIN`…). */
function extensions(reply: Reply): string[] {
  return reply.lines.slice(1).map((line) => line.trim().toUpperCase());
}

/**
 * Runs the dialogue against `settings.host:port` and returns the four steps in order. `tlsExtra` adds node:tls
 * options (tests pass nothing: NODE_EXTRA_CA_CERTS serves for a private authority).
 */
export async function probeSmtp(settings: MailSettings, tlsExtra: tls.ConnectionOptions = {}): Promise<ProbeStep[]> {
  const timeoutMs = Math.round(settings.timeoutSeconds * 1000);
  const target = `${settings.host}:${settings.port}`;
  const steps: ProbeStep[] = [];
  const order: ProbeStepName[] = ['connect', 'ehlo', 'starttls', 'auth'];
  const finish = (reason: string): ProbeStep[] => {
    for (const step of order.slice(steps.length)) steps.push({ step, status: 'SKIP', detail: reason });
    return steps;
  };
  let conversation: Conversation | undefined;
  let current: ProbeStepName = 'connect';
  try {
    // 1. Connection and greeting.
    const started = Date.now();
    const socket = settings.useSsl
      ? tls.connect({ port: settings.port, ...tlsOptions(settings, tlsExtra) })
      : net.connect({ host: settings.host, port: settings.port });
    socket.on('error', () => {});
    try {
      await waitFor(socket, settings.useSsl ? 'secureConnect' : 'connect', timeoutMs, settings.useSsl ? `connexion TLS à ${target}` : `connexion à ${target}`);
    } catch (error) {
      socket.destroy();
      throw error;
    }
    conversation = new Conversation(socket, timeoutMs);
    const greeting = await conversation.reply("l'accueil du serveur");
    if (greeting.code !== 220) throw new StepError(`${target} refuse la session : ${replyText(greeting)}`);
    const tlsNote = settings.useSsl ? `, TLS implicite (${(socket as tls.TLSSocket).getProtocol?.() ?? 'TLS'}, certificat vérifié)` : '';
    steps.push({ step: 'connect', status: 'OK', detail: `${target} joint en ${Date.now() - started} ms${tlsNote} ; accueil : ${replyText(greeting)}` });

    // 2. EHLO.
    current = 'ehlo';
    conversation.send(`EHLO ${ehloName()}`);
    let ehlo = await conversation.reply('EHLO');
    if (ehlo.code !== 250) throw new StepError(`EHLO refusé : ${replyText(ehlo)}`);
    steps.push({ step: 'ehlo', status: 'OK', detail: `${ehlo.code}, extensions : ${extensions(ehlo).join(', ') || '(aucune)'}` });

    // 3. STARTTLS.
    current = 'starttls';
    if (settings.useSsl) steps.push({ step: 'starttls', status: 'SKIP', detail: 'session déjà chiffrée dès la connexion (MAIL_USE_SSL=true)' });
    else if (!extensions(ehlo).includes('STARTTLS')) {
      if (settings.useTls) {
        throw new StepError('le serveur ne propose pas STARTTLS alors que MAIL_USE_TLS=true : aucun message ne partirait');
      }
      steps.push({
        step: 'starttls',
        status: 'WARN',
        detail: `STARTTLS non proposé : les messages${settings.username ? ' et le mot de passe' : ''} passeraient en clair`,
        hint: 'utilisez le port chiffré du serveur (MAIL_USE_TLS=true, ou MAIL_USE_SSL=true sur le port 465)',
      });
    } else {
      conversation.send('STARTTLS');
      const ready = await conversation.reply('STARTTLS');
      if (ready.code !== 220) throw new StepError(`STARTTLS refusé : ${replyText(ready)}`);
      const secure = tls.connect({ socket: conversation.socket, ...tlsOptions(settings, tlsExtra) });
      secure.on('error', () => {});
      // The plain socket's reader lets go before the handshake, so that it never sees TLS bytes.
      conversation.swap(secure);
      await waitFor(secure, 'secureConnect', timeoutMs, 'négociation TLS');
      conversation.send(`EHLO ${ehloName()}`);
      ehlo = await conversation.reply('EHLO après STARTTLS');
      if (ehlo.code !== 250) throw new StepError(`EHLO après STARTTLS refusé : ${replyText(ehlo)}`);
      steps.push({
        step: 'starttls',
        status: 'OK',
        detail: `session chiffrée (${secure.getProtocol() ?? 'TLS'}, certificat vérifié)${settings.useTls ? '' : ' ; MAIL_USE_TLS=false : elle resterait en clair sur un serveur qui ne le propose plus'}`,
      });
    }

    // 4. AUTH.
    current = 'auth';
    if (!settings.username) steps.push({ step: 'auth', status: 'SKIP', detail: "MAIL_USERNAME est vide : pas d'authentification" });
    else {
      const auth = extensions(ehlo).find((line) => line.startsWith('AUTH ') || line.startsWith('AUTH='));
      const mechanisms = auth ? auth.slice(5).split(/\s+/) : [];
      let answer: Reply;
      if (mechanisms.includes('PLAIN')) {
        conversation.send(`AUTH PLAIN ${Buffer.from(`\0${settings.username}\0${settings.password}`, 'utf8').toString('base64')}`);
        answer = await conversation.reply('AUTH PLAIN');
      } else if (mechanisms.includes('LOGIN')) {
        conversation.send('AUTH LOGIN');
        answer = await conversation.reply('AUTH LOGIN');
        if (answer.code === 334) {
          conversation.send(Buffer.from(settings.username, 'utf8').toString('base64'));
          answer = await conversation.reply("l'identifiant (AUTH LOGIN)");
          if (answer.code === 334) {
            conversation.send(Buffer.from(settings.password, 'utf8').toString('base64'));
            answer = await conversation.reply('le mot de passe (AUTH LOGIN)');
          }
        }
      } else {
        throw new StepError(
          `le serveur n'annonce ni AUTH PLAIN ni AUTH LOGIN${auth ? ` (${auth})` : ' (aucune extension AUTH, peut-être seulement après STARTTLS)'}`,
        );
      }
      if (answer.code !== 235) throw new StepError(`authentification de ${settings.username} refusée : ${replyText(answer)}`);
      steps.push({ step: 'auth', status: 'OK', detail: `${settings.username} authentifié (${replyText(answer)})` });
    }
    return steps;
  } catch (error) {
    const detail = error instanceof StepError ? error.message : describeError(error as Error);
    steps.push({ step: current, status: 'FAIL', detail, ...(hintFor(current, detail) ? { hint: hintFor(current, detail)! } : {}) });
    return finish('étape précédente en échec');
  } finally {
    conversation?.close();
  }
}

function hintFor(step: ProbeStepName, detail: string): string | undefined {
  if (step === 'connect' && /ECONNREFUSED|introuvable/.test(detail)) return 'vérifiez MAIL_HOST et MAIL_PORT (587 pour STARTTLS, 465 avec MAIL_USE_SSL=true)';
  if (detail.includes('MAIL_TIMEOUT')) return 'vérifiez MAIL_HOST, MAIL_PORT et le pare-feu ; un port TLS implicite (465) attend MAIL_USE_SSL=true';
  if (/certificate|certificat|self.signed|CERT/i.test(detail))
    return "le certificat du serveur n'est pas reconnu : NODE_EXTRA_CA_CERTS pour une autorité privée";
  if (step === 'starttls') return 'utilisez le port où le serveur propose STARTTLS, ou MAIL_USE_SSL=true sur son port TLS (465)';
  if (step === 'auth') return 'vérifiez MAIL_USERNAME et MAIL_PASSWORD';
  return undefined;
}
