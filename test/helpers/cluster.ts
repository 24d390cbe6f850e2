/**
 * A server entry point run as a real process (`node server.mjs` in a temporary project), as `node dist/app.js`
 * starts a generated project: with WEB_CONCURRENCY above 1 it becomes the primary of that many workers
 * (runtime/app/cluster.ts). Also a bounded poll and a plain HTTP request on a connection of its own, so that the
 * kernel hands each request to whichever worker accepts first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { TempProject } from './project.js';

export interface ClusterProcess {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>`, once `waitListening` has seen the address. */
  base: string;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  readonly exited: Promise<number | null>;
}

/**
 * Writes `script` as `server.mjs` in the project and runs it with `env` over the test's environment (the session
 * and limit stores unset unless `env` sets them; INFO logs).
 */
export function startServerProcess(project: TempProject, script: string, env: NodeJS.ProcessEnv): ClusterProcess {
  const file = project.write('server.mjs', script);
  const child = spawn(process.execPath, [file], {
    cwd: project.root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FW_LOG_LEVEL: 'INFO', SESSION_STORE: '', RATE_LIMIT_STORE: '', ...env },
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, base: '', output: () => text, exited };
}

/** Waits for the address the primary announces once its `workers` listen, and sets `base`. */
export async function waitListening(server: ClusterProcess, workers: number, ms = 15_000): Promise<string> {
  const found = await waitFor('the address', () => new RegExp(`http://127\\.0\\.0\\.1:(\\d+), ${workers} processus`).exec(server.output()), ms);
  server.base = `http://127.0.0.1:${found[1]}`;
  return server.base;
}

/** SIGTERM, then SIGKILL if the process has not exited within `ms`; resolves with the exit code (null when killed). */
export async function stopServerProcess(server: ClusterProcess, ms = 20_000): Promise<number | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.child.exitCode;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), ms);
  try {
    return await server.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` every 50 ms until it returns something truthy; throws past `ms`. */
export async function waitFor<T>(what: string, probe: () => T | null | undefined | false | Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > until) throw new Error(`${what} : rien après ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface PlainAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request on a connection of its own (no keep-alive): status, headers and body; an error past `ms` without an answer. */
export function plainRequest(url: string, options: { method?: string; ms?: number } = {}): Promise<PlainAnswer> {
  const ms = options.ms ?? 5000;
  return new Promise((resolve, reject) => {
    const request = http
      .request(url, { method: options.method ?? 'GET', agent: false, timeout: ms }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        res.on('error', reject);
      })
      .on('error', reject)
      .on('timeout', () => request.destroy(new Error(`no answer within ${ms} ms`)));
    request.end();
  });
}
