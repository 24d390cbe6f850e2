/**
 * The tests' command runner: a long-lived process that runs `fw` commands one after another in-process, so that
 * a test file pays once for loading the CLI (ts-morph, Ajv, the compiler) instead of once per command
 * (docs/testing.md "How `fw` runs in tests"). Each command gets what a new process would get: its working
 * directory, its environment, its standard input, and its own standard output, error and exit code.
 *
 * Started by `cli-bridge.ts` with `fork()`; a request is `{ id, cwd, args, env, input }` on the IPC channel, the
 * answer `{ id, status, stdout, stderr }`. With `module`, the request runs that module's `run(args)` (a test's
 * stand-in for a command, such as `diagnostics-runner.ts`) instead of `fw`.
 */
import { Readable } from 'node:stream';
import { runFw } from '../../cli/main.js';

export interface CliRequest {
  readonly id: number;
  readonly cwd: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly input: string;
  /** The URL of a module whose `run(args): Promise<number>` runs instead of `fw <args>`. */
  readonly module?: string;
}

export interface CliAnswer {
  readonly id: number;
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

type Write = typeof process.stdout.write;

/** Replaces the whole of process.env by `env` (a command reads and may change it). */
function setEnvironment(env: Readonly<Record<string, string>>): void {
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, env);
}

/** A write function that appends to `chunks` instead of writing, with the stream's signature. */
function capture(chunks: string[]): Write {
  return ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), done?: (error?: Error | null) => void) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8'));
    const callback = typeof encoding === 'function' ? encoding : done;
    if (callback) queueMicrotask(() => callback(null));
    return true;
  }) as Write;
}

async function runModule(url: string, args: readonly string[]): Promise<number> {
  const { run } = (await import(url)) as { run?: (args: readonly string[]) => Promise<number> };
  if (typeof run !== 'function') throw new Error(`${url} n'exporte pas run(args)`);
  return run(args);
}

async function runOne(request: CliRequest): Promise<CliAnswer> {
  const out: string[] = [];
  const err: string[] = [];
  const writeOut = process.stdout.write;
  const writeErr = process.stderr.write;
  const stdin = Object.getOwnPropertyDescriptor(process, 'stdin');
  const input = Readable.from(request.input === '' ? [] : [Buffer.from(request.input)]) as unknown as NodeJS.ReadStream;
  process.chdir(request.cwd);
  setEnvironment(request.env);
  process.exitCode = undefined;
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, get: () => input });
  let status: number;
  try {
    status = request.module ? await runModule(request.module, request.args) : await runFw(request.args);
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    if (stdin) Object.defineProperty(process, 'stdin', stdin);
    input.destroy();
  }
  return { id: request.id, status, stdout: out.join(''), stderr: err.join('') };
}

// A command may add a listener per run (`fw new` removes its temporary folder on exit): no warning for that.
process.setMaxListeners(0);
// An error a command lets escape after it answered belongs to no request: it is shown, the runner goes on.
process.on('unhandledRejection', (reason) => process.stderr.write(`fw (tests) : rejet non traité : ${String(reason)}\n`));

let queue: Promise<void> = Promise.resolve();
process.on('message', (request: CliRequest) => {
  queue = queue.then(async () => {
    const answer = await runOne(request).catch((error: unknown): CliAnswer => ({
      id: request.id,
      status: 1,
      stdout: '',
      stderr: `fw (tests) : ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    }));
    process.send!(answer);
  });
});
process.on('disconnect', () => process.exit(0));
