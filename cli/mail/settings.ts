/**
 * The mail settings as the `mail:*` commands and the mail checks see them: the `MAIL_*` variables of
 * `env/<APP_ENV>` (the process's own variables winning), which a project's `config.ts` passes to the runtime's
 * `mail_*` keys (docs/mail.md "Configuration"). Like the other diagnostics, the CLI reads the environment, never the
 * project's code. Every value is checked here once: `problems` says what the server would get wrong.
 */
import { isValidMailAddress, parseAddress } from '../../runtime/mail/address.js';

/** The mail variables of the environment, in the order `env/example` documents them. */
export const MAIL_VARIABLES = [
  'MAIL_TRANSPORT',
  'MAIL_HOST',
  'MAIL_PORT',
  'MAIL_USERNAME',
  'MAIL_PASSWORD',
  'MAIL_FROM',
  'MAIL_USE_TLS',
  'MAIL_USE_SSL',
  'MAIL_TIMEOUT',
  'MAIL_ENABLED',
  'MAIL_DIR',
] as const;

export type MailTransportName = 'smtp' | 'console' | 'file';

/** The values, each falling back to the runtime's default when unset or invalid. */
export interface MailSettings {
  readonly transport: MailTransportName;
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly from: string;
  /** STARTTLS required. */
  readonly useTls: boolean;
  /** Implicit TLS. */
  readonly useSsl: boolean;
  /** Seconds per SMTP step. */
  readonly timeoutSeconds: number;
  readonly enabled: boolean;
  readonly dir: string;
}

/** A value the runtime would refuse or misread, or a combination that cannot work. */
export interface MailSettingProblem {
  readonly variable: string;
  readonly message: string;
  /** FAIL: nothing can be sent; WARN: works, but not as the user probably meant. */
  readonly severity: 'FAIL' | 'WARN';
}

export interface MailEnvironment {
  readonly settings: MailSettings;
  readonly problems: readonly MailSettingProblem[];
  /** The MAIL_* variables that hold a value (the password's value is never kept here). */
  readonly set: readonly string[];
}

const TRANSPORTS: readonly MailTransportName[] = ['smtp', 'console', 'file'];

/** Reads the MAIL_* variables of `env` (default: `process.env`, after the caller loaded `env/<APP_ENV>`). */
export function readMailEnvironment(env: NodeJS.ProcessEnv = process.env): MailEnvironment {
  const problems: MailSettingProblem[] = [];
  const value = (name: string): string => (env[name] ?? '').trim();
  const fail = (variable: string, message: string): void => void problems.push({ variable, message, severity: 'FAIL' });
  const warn = (variable: string, message: string): void => void problems.push({ variable, message, severity: 'WARN' });
  const flag = (name: string, fallback: boolean): boolean => {
    const text = value(name);
    if (text === '') return fallback;
    if (text === 'true' || text === 'false') return text === 'true';
    fail(name, `${name} doit valoir true ou false (valeur lue : « ${text} »)`);
    return fallback;
  };
  const transportText = value('MAIL_TRANSPORT') || 'smtp';
  let transport: MailTransportName = 'smtp';
  if ((TRANSPORTS as readonly string[]).includes(transportText)) transport = transportText as MailTransportName;
  else fail('MAIL_TRANSPORT', `MAIL_TRANSPORT doit valoir smtp, console ou file (valeur lue : « ${transportText} »)`);
  const host = value('MAIL_HOST');
  const useTls = flag('MAIL_USE_TLS', false);
  const useSsl = flag('MAIL_USE_SSL', false);
  const enabled = flag('MAIL_ENABLED', true);
  const portText = value('MAIL_PORT');
  let port = 587;
  if (portText !== '') {
    const parsed = Number(portText);
    if (/^\d+$/.test(portText) && parsed >= 1 && parsed <= 65535) port = parsed;
    else fail('MAIL_PORT', `MAIL_PORT doit être un numéro de port de 1 à 65535 (valeur lue : « ${portText} »)`);
  }
  const timeoutText = value('MAIL_TIMEOUT');
  let timeoutSeconds = 10;
  if (timeoutText !== '') {
    const parsed = Number(timeoutText);
    if (/^\d+(\.\d+)?$/.test(timeoutText) && parsed > 0 && parsed <= 600) timeoutSeconds = parsed;
    else fail('MAIL_TIMEOUT', `MAIL_TIMEOUT doit être un nombre de secondes de plus de 0 à 600 (valeur lue : « ${timeoutText} »)`);
  }
  const username = value('MAIL_USERNAME');
  const password = env.MAIL_PASSWORD ?? '';
  const from = value('MAIL_FROM');
  if (transport === 'smtp' && host === '') fail('MAIL_HOST', 'MAIL_HOST est vide : aucun serveur SMTP (MAIL_TRANSPORT vaut smtp)');
  if (from === '') fail('MAIL_FROM', "MAIL_FROM est vide : aucun expéditeur pour les messages qui n'en donnent pas");
  else {
    try {
      const parsed = parseAddress('from', from);
      if (!isValidMailAddress(parsed.address)) throw new Error('adresse invalide');
    } catch (error) {
      fail('MAIL_FROM', `MAIL_FROM n'est pas une adresse acceptée (« ${from} ») : ${(error as Error).message.replace(/\.$/, '')}`);
    }
  }
  if (useTls && useSsl)
    warn('MAIL_USE_TLS', 'MAIL_USE_TLS et MAIL_USE_SSL valent true : le TLS implicite (MAIL_USE_SSL) chiffre déjà la session, STARTTLS ne sert pas');
  if (username !== '' && password === '') warn('MAIL_PASSWORD', 'MAIL_USERNAME est renseigné mais MAIL_PASSWORD est vide');
  if (username === '' && password !== '') warn('MAIL_USERNAME', "MAIL_PASSWORD est renseigné mais MAIL_USERNAME est vide : pas d'authentification");
  const set = MAIL_VARIABLES.filter((name) => value(name) !== '');
  return {
    settings: { transport, host, port, username, password, from, useTls, useSsl, timeoutSeconds, enabled, dir: value('MAIL_DIR') || 'storage/mail' },
    problems,
    set,
  };
}

/** The runtime's `mail_*` keys for these settings (what the project's config.ts passes from the same variables). */
export function mailConfigKeys(settings: MailSettings): Record<string, unknown> {
  return {
    mail_transport: settings.transport,
    mail_host: settings.host,
    mail_port: settings.port,
    mail_username: settings.username,
    mail_password: settings.password,
    mail_from: settings.from,
    mail_use_tls: settings.useTls,
    mail_use_ssl: settings.useSsl,
    mail_timeout: settings.timeoutSeconds,
    mail_enabled: settings.enabled,
    mail_dir: settings.dir,
  };
}

/** `smtp 127.0.0.1:587 (STARTTLS exigé, AUTH alice)`, `console`, `file storage/mail`: the transport, for messages. */
export function describeTransport(settings: MailSettings): string {
  if (settings.transport === 'console') return 'console';
  if (settings.transport === 'file') return `file ${settings.dir}`;
  const security = settings.useSsl ? 'TLS implicite' : settings.useTls ? 'STARTTLS exigé' : 'STARTTLS si proposé';
  return `smtp ${settings.host || '(MAIL_HOST vide)'}:${settings.port} (${security}${settings.username ? `, AUTH ${settings.username}` : ''})`;
}
