/**
 * Named loggers writing one line per record on stderr (levels as in Python's logging), at or above FW_LOG_LEVEL
 * (INFO by default), as text or as JSON (LOG_FORMAT); each line of a request carries its id (runWithLogContext);
 * and RepeatedLog, which writes a cause that repeats once per interval with its count (docs/runtime.md "Logs").
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type Level = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
const RANK: Record<Level, number> = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 };

export interface LogRecord {
  logger: string;
  level: Level;
  message: string;
  fields: Record<string, unknown> | undefined;
  time: Date;
  /** The id of the request this record was logged for (runWithLogContext), else undefined. */
  requestId: string | undefined;
  /** The message already says what the fields hold: the text format leaves them out (the access line). */
  fieldsInMessage?: boolean;
}
export type LogSink = (record: LogRecord) => void;

/** What every record logged while a request is answered carries. */
export interface LogContext {
  readonly requestId: string;
}

const contextStore = new AsyncLocalStorage<LogContext>();

/** Runs `fn` so that every record logged by it, and by what it awaits or schedules, carries `context`'s request id. */
export function runWithLogContext<T>(context: LogContext, fn: () => T): T {
  return contextStore.run(context, fn);
}

/**
 * Runs `fn` outside any request's context: for what a request set going without being part of it (the later
 * events of a connection it opened, a summary line at the end of an interval).
 */
export function outsideRequest<T>(fn: () => T): T {
  return contextStore.exit(fn);
}

/** The context of the request being answered, if any. */
export function currentLogContext(): LogContext | undefined {
  return contextStore.getStore();
}

export type LogFormat = 'text' | 'json';

/** Thrown for a LOG_FORMAT that is neither `text` nor `json`. */
export class LogFormatError extends Error {
  constructor(readonly value: string) {
    super(`LOG_FORMAT : valeur inconnue « ${value} ». Attendu : text (une ligne lisible, par défaut) ou json (un objet JSON par ligne).`);
    this.name = 'LogFormatError';
  }
}

/** LOG_FORMAT: `text` (default, also when empty) or `json`, any case; throws LogFormatError on anything else. */
export function logFormatOf(text: string | undefined): LogFormat {
  const lower = text?.trim().toLowerCase() ?? '';
  if (lower === '' || lower === 'text') return 'text';
  if (lower === 'json') return 'json';
  throw new LogFormatError(text!);
}

/** The format of the environment's LOG_FORMAT; an unknown value writes text here (the server's start refuses it: checkLogFormat). */
function environmentFormat(): LogFormat {
  try {
    return logFormatOf(process.env.LOG_FORMAT);
  } catch {
    return 'text';
  }
}

/** Throws LogFormatError when LOG_FORMAT is set to something unknown (called before a server starts). */
export function checkLogFormat(): void {
  logFormatOf(process.env.LOG_FORMAT);
}

/**
 * The text line: `<ISO time> <LEVEL> <logger> [<pid>]: <message>`, `[<pid> <request id>]` within a request, the
 * fields as JSON after the message.
 */
export function textLine(record: LogRecord): string {
  const where = record.requestId === undefined ? `[${process.pid}]` : `[${process.pid} ${record.requestId}]`;
  const extra = record.fields && !record.fieldsInMessage ? ` ${safeStringify(record.fields)}` : '';
  return `${isoTime(record.time)} ${record.level} ${record.logger} ${where}: ${record.message}${extra}\n`;
}

/** Keys of a JSON line that the fields of a record never replace. */
const RESERVED = new Set(['time', 'level', 'logger', 'pid', 'request_id', 'message']);

/**
 * The JSON line: one object, `time`, `level`, `logger`, `pid`, `request_id` (within a request), `message`, then the
 * record's fields (a field named like one of these is left out).
 */
export function jsonLine(record: LogRecord): string {
  let line = `{"time":"${isoTime(record.time)}","level":"${record.level}","logger":${jsonString(record.logger)},"pid":${process.pid}`;
  if (record.requestId !== undefined) line += `,"request_id":${jsonString(record.requestId)}`;
  line += `,"message":${jsonString(record.message)}`;
  const fields = record.fields;
  if (fields) {
    for (const key in fields) {
      const value = fields[key];
      if (value === undefined || RESERVED.has(key)) continue;
      line += `,${jsonString(key)}:${jsonValue(value)}`;
    }
  }
  return `${line}}\n`;
}

/** What JSON.stringify would escape in a string: quotes, backslashes, control characters, lone surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON, without JSON.stringify when nothing needs escaping (the common case, several times a line). */
function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** A field's value as JSON: strings and numbers directly, anything else through JSON.stringify. */
function jsonValue(value: unknown): string {
  if (typeof value === 'string') return jsonString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return safeStringify(value);
}

/** The ISO text of the last time written: the lines of one millisecond share it. */
let lastTime = NaN;
let lastIso = '';

function isoTime(time: Date): string {
  const ms = time.getTime();
  if (ms !== lastTime) {
    lastTime = ms;
    lastIso = time.toISOString();
  }
  return lastIso;
}

/** JSON of a value; one JSON cannot write (a BigInt, a cycle) is written as its text. */
function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? JSON.stringify(String(value));
  } catch {
    return JSON.stringify(String(value));
  }
}

/**
 * Lines waiting to be written: those of one turn of the event loop go to stderr in one write, at its end
 * (setImmediate), rather than one system call per line, which cost about as much as the rest of a small request
 * (docs/performance.md "The access line"). A process that exits writes what is waiting first ('exit'); only a
 * SIGKILL loses the lines of its last turn.
 */
let pending = '';
let flushScheduled = false;
/** How long a line may wait for others before it is written. */
const FLUSH_AFTER_MS = 10;
/** Past this much waiting text, it is written at once. */
const FLUSH_AT = 64 * 1024;

function flush(): void {
  flushScheduled = false;
  if (pending === '') return;
  const text = pending;
  pending = '';
  process.stderr.write(text);
}

function enqueue(line: string): void {
  pending += line;
  if (pending.length >= FLUSH_AT) return flush();
  if (flushScheduled) return;
  flushScheduled = true;
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', flush);
  }
  setTimeout(flush, FLUSH_AFTER_MS).unref();
}
let exitHooked = false;

/** Writes the lines still waiting now (before a write of one's own to stderr that must come after them). */
export function flushLogs(): void {
  flush();
}

const format = environmentFormat();
const defaultSink: LogSink = format === 'json' ? (record) => enqueue(jsonLine(record)) : (record) => enqueue(textLine(record));

let sink: LogSink = defaultSink;

/** FW_LOG_LEVEL: DEBUG, INFO, WARNING (or WARN), ERROR; anything else is INFO. */
function levelOf(text: string | undefined): Level {
  const upper = text?.trim().toUpperCase();
  if (upper === 'WARN') return 'WARNING';
  return upper !== undefined && upper in RANK ? (upper as Level) : 'INFO';
}

let threshold: Level = levelOf(process.env.FW_LOG_LEVEL);

/** Replaces where records go (tests capture them); returns the previous sink. */
export function setLogSink(next: LogSink | null): LogSink {
  const previous = sink;
  sink = next ?? defaultSink;
  return previous;
}

export function setLogLevel(level: Level): void {
  threshold = level;
}

export class Logger {
  constructor(readonly name: string) {}
  log(level: Level, message: string, fields?: Record<string, unknown>): void {
    if (RANK[level] < (RANK[threshold] ?? 20)) return;
    sink({ logger: this.name, level, message, fields, time: new Date(), requestId: contextStore.getStore()?.requestId });
  }
  /** True when a record of `level` would be written (to skip building one that would not). */
  enabled(level: Level): boolean {
    return RANK[level] >= (RANK[threshold] ?? 20);
  }
  /** A record whose message says what its fields hold: the text format writes the message only, JSON both. */
  summary(level: Level, message: string, fields: Record<string, unknown>): void {
    if (RANK[level] < (RANK[threshold] ?? 20)) return;
    sink({ logger: this.name, level, message, fields, time: new Date(), requestId: contextStore.getStore()?.requestId, fieldsInMessage: true });
  }
  debug(message: string, fields?: Record<string, unknown>): void {
    this.log('DEBUG', message, fields);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.log('INFO', message, fields);
  }
  warning(message: string, fields?: Record<string, unknown>): void {
    this.log('WARNING', message, fields);
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.log('ERROR', message, fields);
  }
}

const loggers = new Map<string, Logger>();
/**
 * A request path as the logs write it: the token of a password-reset link (`/password/reset/<token>`) is replaced by
 * `…`, since whoever reads a log could use the link (docs/runtime.md "Logs").
 */
export function pathForLog(path: string): string {
  return path.replace(/^(\/password\/reset\/)[^/?#]+/, '$1…');
}

/**
 * Names of query parameters whose values a log never writes: anything that looks like a credential or a one-time
 * code. Matched anywhere in the decoded name, so it also catches `reset_token`, `api_key`, `X-Amz-Signature`; it
 * hides a few harmless ones too (`postcode`, `author`), which costs less than a leaked token.
 */
const SECRET_PARAMETER = /token|pass|secret|code|key|sig|auth|session|otp|credential|nonce|jwt|ticket|hash/i;

/** The longest path and query a log line writes; the rest is cut, `…` marking the cut. */
export const LOGGED_PATH_MAX = 1000;

/**
 * A request's path and raw query as the logs write them: pathForLog's path, the query with the value of every
 * parameter whose name looks secret replaced by `…` (`/callback?code=…&state=abc`), cut at LOGGED_PATH_MAX
 * (docs/runtime.md "Logs").
 */
export function targetForLog(path: string, query: string): string {
  let target = pathForLog(path);
  if (query !== '') target += `?${queryForLog(query)}`;
  return target.length > LOGGED_PATH_MAX ? `${target.slice(0, LOGGED_PATH_MAX)}…` : target;
}

/** A raw query string with the values of secret-looking parameters replaced by `…`. */
export function queryForLog(query: string): string {
  return query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq !== -1 && SECRET_PARAMETER.test(decodedName(part.slice(0, eq))) ? `${part.slice(0, eq)}=…` : part;
    })
    .join('&');
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

export function getLogger(name: string): Logger {
  let logger = loggers.get(name);
  if (!logger) loggers.set(name, (logger = new Logger(name)));
  return logger;
}

/** How long a repeated cause stays silent after its line: its count is written at the end (docs/runtime.md "Logs"). */
export const REPEAT_INTERVAL_MS = 10_000;

/** Runs `fn` after `ms` (a timer that does not keep the process alive; tests give their own). */
export type RepeatScheduler = (fn: () => void, ms: number) => void;

const unrefTimer: RepeatScheduler = (fn, ms) => void setTimeout(fn, ms).unref();

interface Repeat {
  count: number;
  level: Level;
  message: string;
  fields: Record<string, unknown> | undefined;
}

/**
 * A logger for failures that repeat (an outage seen by every request): the first record of a cause is written at
 * once; those that follow within the interval are only counted, and at its end one line gives the last of them
 * with the count, `… (répété 412 fois en 10 s)`, for as long as the cause goes on. A cause is a key the caller
 * chooses (what failed and why, never the request).
 */
export class RepeatedLog {
  readonly #repeats = new Map<string, Repeat>();

  constructor(
    readonly logger: Logger,
    readonly intervalMs: number = REPEAT_INTERVAL_MS,
    private readonly schedule: RepeatScheduler = unrefTimer,
  ) {}

  log(level: Level, cause: string, message: string, fields?: Record<string, unknown>): void {
    const repeat = this.#repeats.get(cause);
    if (repeat) {
      repeat.count++;
      Object.assign(repeat, { level, message, fields });
      return;
    }
    this.logger.log(level, message, fields);
    this.#repeats.set(cause, { count: 0, level, message, fields });
    // The count that follows covers other requests: its line carries none's id.
    this.schedule(() => outsideRequest(() => this.#endInterval(cause)), this.intervalMs);
  }

  error(cause: string, message: string, fields?: Record<string, unknown>): void {
    this.log('ERROR', cause, message, fields);
  }

  warning(cause: string, message: string, fields?: Record<string, unknown>): void {
    this.log('WARNING', cause, message, fields);
  }

  #endInterval(cause: string): void {
    const repeat = this.#repeats.get(cause);
    if (!repeat) return;
    if (repeat.count === 0) {
      this.#repeats.delete(cause);
      return;
    }
    const seconds = Math.round(this.intervalMs / 100) / 10;
    this.logger.log(repeat.level, `${repeat.message} (répété ${repeat.count} fois en ${String(seconds).replace('.', ',')} s)`, repeat.fields);
    // Still going on: the next interval is counted as well.
    repeat.count = 0;
    this.schedule(() => this.#endInterval(cause), this.intervalMs);
  }
}
