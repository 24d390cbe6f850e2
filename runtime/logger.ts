/** Named loggers writing one line per record on stderr (levels as in Python's logging). */
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
let threshold: Level = (process.env.FW_LOG_LEVEL?.toUpperCase() as Level | undefined) ?? 'INFO';

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
export function getLogger(name: string): Logger {
  let logger = loggers.get(name);
  if (!logger) loggers.set(name, (logger = new Logger(name)));
  return logger;
}
