/**
 * `mail:doctor`'s SMTP dialogue (docs/mail.md "Commands"), run by nodemailer's `transporter.verify()` with the
 * options the SMTP transport sends with (`smtpTransportOptions`): the connection (TCP, or TLS from the first byte with
 * MAIL_USE_SSL) and its greeting, EHLO, STARTTLS (required with MAIL_USE_TLS, used when offered otherwise), AUTH with
 * the mechanism nodemailer would use when MAIL_USERNAME is set, then QUIT. No message is ever sent. verify() says only
 * that the dialogue went through, or the error that stopped it; what each step got is read from nodemailer's own
 * record of the dialogue (its `logger`, with `debug`): the server's replies, the commands sent, the connection made
 * (docs/decisions.md "mail:doctor through nodemailer's verify()"). Each step waits at most MAIL_TIMEOUT seconds; a
 * failed step leaves the next ones skipped. Of the lines nodemailer sends, only the command's name is read: the
 * password goes to the server only, never kept nor printed.
 */
import type tls from 'node:tls';
import util from 'node:util';
import { loadNodemailer, smtpTransportOptions } from '../../runtime/mail/transports.js';
import type { MailSettings } from './settings.js';

export type ProbeStepName = 'connect' | 'ehlo' | 'starttls' | 'auth';

export interface ProbeStep {
  readonly step: ProbeStepName;
  readonly status: 'OK' | 'WARN' | 'FAIL' | 'SKIP';
  readonly detail: string;
  readonly hint?: string;
}

/** A reply of the server, and the command it answers (null: the greeting). */
interface Reply {
  readonly command: string | null;
  readonly code: number;
  readonly lines: readonly string[];
}

/** What nodemailer's record of the dialogue shows. */
interface Dialogue {
  /** Milliseconds from the start to the connection (TLS included with MAIL_USE_SSL); undefined: never connected. */
  connectedMs: number | undefined;
  readonly replies: Reply[];
  /** The commands sent, by name (`EHLO`, `STARTTLS`, `AUTH PLAIN`…): an answer to a challenge is not one. */
  readonly commands: string[];
}

/** The commands whose name is read from a client line; any other line (a base64 answer to AUTH LOGIN) is ignored. */
const COMMAND = /^(EHLO|HELO|STARTTLS|QUIT|AUTH [A-Z0-9-]+)\b/;

/** A bunyan-like logger for nodemailer that keeps the dialogue: `tnx` tells a server line, a client line, the network. */
function recorder(
  dialogue: Dialogue,
  started: number,
): Record<'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal', (...entry: unknown[]) => void> & {
  level(): void;
} {
  const record = (meta: unknown, message: unknown, ...args: unknown[]): void => {
    const { tnx, remoteAddress } = (meta ?? {}) as { tnx?: unknown; remoteAddress?: unknown };
    if (tnx === 'network' && remoteAddress !== undefined) dialogue.connectedMs ??= Date.now() - started;
    else if (tnx === 'client') {
      const command = COMMAND.exec(String(message))?.[1];
      if (command) dialogue.commands.push(command);
    } else if (tnx === 'server') {
      const lines = util.format(message, ...args).split(/\r?\n/);
      const code = Number(/^\d{3}/.exec(lines[0] ?? '')?.[0] ?? 0);
      dialogue.replies.push({ command: dialogue.commands.at(-1) ?? null, code, lines: lines.map((line) => line.replace(/^\d{3}[ -]?/, '')) });
    }
  };
  return { level: () => {}, trace: record, debug: record, info: record, warn: record, error: record, fatal: record };
}

function clip(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function replyText(reply: Reply): string {
  return clip(`${reply.code} ${reply.lines.join(' ')}`);
}

/** The extensions of an EHLO reply, upper-cased (`STARTTLS`, `AUTH PLAIN LOGIN`…). */
function extensions(reply: Reply | undefined): string[] {
  return (reply?.lines ?? []).slice(1).map((line) => line.trim().toUpperCase());
}

/** nodemailer's code of an error (ETIMEDOUT, ESOCKET, EAUTH…). */
function codeOf(error: Error | undefined): unknown {
  return (error as { code?: unknown } | undefined)?.code;
}

/** A 2xx reply. */
function positive(reply: Reply): boolean {
  return reply.code >= 200 && reply.code < 300;
}

/** The error that stopped the dialogue, in words; the system's code (ECONNREFUSED…) is in nodemailer's message. */
function describe(error: Error, timeoutSeconds: number, waitingFor: string): string {
  if (codeOf(error) === 'ETIMEDOUT') return `aucune réponse à ${waitingFor} en ${timeoutSeconds} s (MAIL_TIMEOUT)`;
  const system = /\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\b/.exec(error.message)?.[1];
  if (system === 'ECONNREFUSED') return 'connexion refusée (ECONNREFUSED)';
  if (system === 'ENOTFOUND' || system === 'EAI_AGAIN') return `nom d'hôte introuvable (${system})`;
  if (system === 'ECONNRESET') return 'connexion coupée par le serveur (ECONNRESET)';
  if (error.message.startsWith('Connection closed')) return `connexion fermée par le serveur (en attendant la réponse à ${waitingFor})`;
  return clip(error.message.replace(/\.$/, ''));
}

/** The steps, in order, from what the dialogue shows and the error that stopped it (undefined: verify() passed). */
function stepsOf(settings: MailSettings, dialogue: Dialogue, failure: Error | undefined): ProbeStep[] {
  const steps: ProbeStep[] = [];
  const target = `${settings.host}:${settings.port}`;
  const stopped = (waitingFor: string): string => (failure ? describe(failure, settings.timeoutSeconds, waitingFor) : `pas de réponse à ${waitingFor}`);
  const failed = (step: ProbeStepName, detail: string): ProbeStep[] => {
    const hint = hintFor(step, detail);
    steps.push({ step, status: 'FAIL', detail, ...(hint ? { hint } : {}) });
    for (const rest of (['connect', 'ehlo', 'starttls', 'auth'] as const).slice(steps.length))
      steps.push({ step: rest, status: 'SKIP', detail: 'étape précédente en échec' });
    return steps;
  };
  const reply = (command: string | null, nth = 0): Reply | undefined => dialogue.replies.filter((r) => r.command === command)[nth];

  // 1. Connection and greeting.
  const greeting = reply(null);
  if (dialogue.connectedMs === undefined) {
    const detail = codeOf(failure) === 'ETIMEDOUT' ? `rien en ${settings.timeoutSeconds} s (MAIL_TIMEOUT)` : stopped('la connexion');
    return failed('connect', `connexion${settings.useSsl ? ' TLS' : ''} à ${target} : ${detail}`);
  }
  if (!greeting) return failed('connect', stopped("l'accueil du serveur"));
  if (greeting.code !== 220) return failed('connect', `${target} refuse la session : ${replyText(greeting)}`);
  const implicit = settings.useSsl ? ', TLS implicite (certificat vérifié)' : '';
  steps.push({ step: 'connect', status: 'OK', detail: `${target} joint en ${dialogue.connectedMs} ms${implicit} ; accueil : ${replyText(greeting)}` });

  // 2. EHLO (nodemailer says HELO when EHLO is refused, unless STARTTLS is required).
  const ehlo = reply('EHLO');
  if (!ehlo) return failed('ehlo', stopped('EHLO'));
  let offered = extensions(ehlo);
  if (positive(ehlo)) steps.push({ step: 'ehlo', status: 'OK', detail: `${ehlo.code}, extensions : ${offered.join(', ') || '(aucune)'}` });
  else {
    const helo = reply('HELO');
    if (!helo || !positive(helo)) return failed('ehlo', `EHLO refusé : ${replyText(ehlo)}${helo ? ` ; HELO refusé : ${replyText(helo)}` : ''}`);
    offered = [];
    steps.push({
      step: 'ehlo',
      status: 'WARN',
      detail: `EHLO refusé (${replyText(ehlo)}), HELO accepté : aucune extension, ni STARTTLS ni AUTH`,
      hint: 'vérifiez MAIL_HOST et MAIL_PORT : un serveur de soumission répond à EHLO',
    });
  }

  // 3. STARTTLS.
  let lastEhlo = ehlo;
  if (settings.useSsl) steps.push({ step: 'starttls', status: 'SKIP', detail: 'session déjà chiffrée dès la connexion (MAIL_USE_SSL=true)' });
  else if (!offered.includes('STARTTLS')) {
    if (settings.useTls) return failed('starttls', 'le serveur ne propose pas STARTTLS alors que MAIL_USE_TLS=true : aucun message ne partirait');
    steps.push({
      step: 'starttls',
      status: 'WARN',
      detail: `STARTTLS non proposé : les messages${settings.username ? ' et le mot de passe' : ''} passeraient en clair`,
      hint: 'utilisez le port chiffré du serveur (MAIL_USE_TLS=true, ou MAIL_USE_SSL=true sur le port 465)',
    });
  } else {
    const ready = reply('STARTTLS');
    if (!ready) return failed('starttls', stopped('STARTTLS'));
    if (ready.code !== 220) return failed('starttls', `STARTTLS refusé : ${replyText(ready)}`);
    // nodemailer says EHLO again once the session is encrypted: before that, the TLS negotiation failed.
    if (dialogue.commands.filter((command) => command === 'EHLO').length < 2) return failed('starttls', `négociation TLS : ${stopped('la négociation TLS')}`);
    const again = reply('EHLO', 1);
    if (!again) return failed('starttls', stopped('EHLO après STARTTLS'));
    if (!positive(again)) return failed('starttls', `EHLO après STARTTLS refusé : ${replyText(again)}`);
    lastEhlo = again;
    steps.push({
      step: 'starttls',
      status: 'OK',
      detail: `session chiffrée (STARTTLS, certificat vérifié)${settings.useTls ? '' : ' ; MAIL_USE_TLS=false : elle resterait en clair sur un serveur qui ne le propose plus'}`,
    });
  }

  // 4. AUTH.
  if (!settings.username) steps.push({ step: 'auth', status: 'SKIP', detail: "MAIL_USERNAME est vide : pas d'authentification" });
  else {
    const auth = dialogue.replies.filter((r) => r.command?.startsWith('AUTH ')).at(-1);
    if (auth?.code === 235 && !failure) steps.push({ step: 'auth', status: 'OK', detail: `${settings.username} authentifié (${replyText(auth)})` });
    else if (auth || failure) return failed('auth', `authentification de ${settings.username} refusée : ${auth ? replyText(auth) : stopped('AUTH')}`);
    else {
      // verify() passes without AUTH when the server announces none, and so would a message: sent unauthenticated.
      const announced = extensions(lastEhlo).find((line) => line.startsWith('AUTH'));
      return failed(
        'auth',
        `le serveur n'annonce aucune extension AUTH${announced ? ` (${announced})` : ''} : MAIL_USERNAME ne servirait pas, le message partirait sans authentification`,
      );
    }
  }
  if (failure) {
    // Every step looked through, yet verify() failed: the last step reached takes the error.
    const last = steps.pop()!;
    return failed(last.step, stopped('la fin du dialogue'));
  }
  return steps;
}

/**
 * Runs the dialogue against `settings.host:port` and returns the four steps in order. `tlsExtra` adds node:tls
 * options (tests pass nothing: NODE_EXTRA_CA_CERTS serves for a private authority).
 */
export async function probeSmtp(settings: MailSettings, tlsExtra: tls.ConnectionOptions = {}): Promise<ProbeStep[]> {
  const dialogue: Dialogue = { connectedMs: undefined, replies: [], commands: [] };
  const nodemailer = await loadNodemailer();
  const started = Date.now();
  const transporter = nodemailer.createTransport({
    ...smtpTransportOptions({
      host: settings.host,
      port: settings.port,
      username: settings.username,
      password: settings.password,
      requireTls: settings.useTls,
      implicitTls: settings.useSsl,
      timeoutSeconds: settings.timeoutSeconds,
      ...(Object.keys(tlsExtra).length > 0 ? { tls: tlsExtra } : {}),
    }),
    logger: recorder(dialogue, started),
    debug: true,
  });
  let failure: Error | undefined;
  try {
    await transporter.verify();
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
  } finally {
    transporter.close();
  }
  return stepsOf(settings, dialogue, failure);
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
