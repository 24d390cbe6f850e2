/**
 * Named loggers writing one line per record on stderr (levels as in Python's logging), at or above FW_LOG_LEVEL
 * (INFO by default); and RepeatedLog, which writes a cause that repeats once per interval with its count
 * (docs/runtime.md "Logs").
 */
export type Level = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
const RANK: Record<Level, number> = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 };

export interface LogRecord {
  logger: string;
  level: Level;
  message: string;
  fields: Record<string, unknown> | undefined;
  time: Date;
}
export type LogSink = (record: LogRecord) => void;

const defaultSink: LogSink = (record) => {
  const extra = record.fields ? ` ${JSON.stringify(record.fields)}` : '';
  process.stderr.write(`${record.time.toISOString()} ${record.level} ${record.logger}: ${record.message}${extra}\n`);
};

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
    sink({ logger: this.name, level, message, fields, time: new Date() });
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
    this.schedule(() => this.#endInterval(cause), this.intervalMs);
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
