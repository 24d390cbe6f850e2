/**
 * The read-only project context the checks run over: the project's root, its environment (env/<APP_ENV> loaded into
 * `process.env` first, as the server loads it), its database settings or why they cannot be read, and what several
 * checks read from the project (a database state…) read once and shared. Gathering it writes nothing.
 */
import { readDbSettings, type DbSettings } from '../db/connection.js';
import { CliError } from '../errors.js';
import { OUTSIDE_REASON, outsideProject } from './files.js';

/** The command a context is gathered for: a check whose verdict depends on it reads it (a missing env/dev…). */
export type DiagnosticCommand = 'doctor' | 'project:check' | 'project:audit' | 'auth:doctor' | 'mail:doctor';

export interface ProjectContext {
  readonly root: string;
  readonly command: DiagnosticCommand;
  /** APP_ENV (default `dev`), read after env/<APP_ENV> was loaded. */
  readonly appEnv: string;
  readonly production: boolean;
  /** The database settings of env/<APP_ENV>; null when they cannot be read (`settingsError` says why). */
  readonly settings: DbSettings | null;
  readonly settingsError: CliError | null;
  /** `read()` run once per context and key: the checks that need the same fact share one read (one connection). */
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
}

/**
 * The context of the project at `root`: loads its env file and reads its database settings (no connection yet).
 * `command` defaults to `auth:doctor`, the first command that gathered one.
 */
export function projectContext(root: string, command: DiagnosticCommand = 'auth:doctor'): ProjectContext {
  let settings: DbSettings | null = null;
  let settingsError: CliError | null = null;
  const envFile = `env/${process.env.APP_ENV || 'dev'}`;
  // An env file reached by a link out of the project is not loaded: its syntax errors quote it (FW-STRUCT-008).
  if (outsideProject(root, envFile)) settingsError = new CliError(`${envFile} : ${OUTSIDE_REASON}`, '');
  else
    try {
      settings = readDbSettings(root);
    } catch (error) {
      // A bad env file (an unclosed quote, a folder in its place, no read permission) is reported, never thrown.
      settingsError = error instanceof CliError ? error : new CliError((error as Error).message ?? String(error), '');
    }
  const appEnv = (process.env.APP_ENV || 'dev').trim();
  const reads = new Map<string, Promise<unknown>>();
  return {
    root,
    command,
    appEnv,
    production: appEnv === 'prod',
    settings,
    settingsError,
    once<T>(key: string, read: () => Promise<T>): Promise<T> {
      if (!reads.has(key)) reads.set(key, read());
      return reads.get(key) as Promise<T>;
    },
  };
}
