/**
 * A generated project's `app.ts` run with tsx as a real process on 127.0.0.1 (port 0), as `npm run dev` does
 * (without the watch). The production path (`node dist/app.js`) is tested in test/project-production.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface AppProcessOptions {
  /** The project's root. */
  readonly cwd: string;
  /** tsx's CLI script (`…/node_modules/tsx/dist/cli.mjs`). */
  readonly tsx: string;
  /** The child's environment; PORT, HOST and APP_ENV are set over it. */
  readonly env: NodeJS.ProcessEnv;
  /** How long the server may take to print its address. */
  readonly timeoutMs: number;
}

export interface AppProcess {
  /** Known as soon as the process is spawned, so that a test's `after()` can kill it even if it never listens. */
  readonly child: ChildProcess;
  /** The `http://127.0.0.1:<port>` the server prints on stdout; rejects if it exits or stays silent too long. */
  readonly url: Promise<string>;
}

/** Spawns `tsx app.ts` with `PORT=0 HOST=127.0.0.1 APP_ENV=dev`. */
export function spawnApp(options: AppProcessOptions): AppProcess {
  const child = spawn(process.execPath, [options.tsx, 'app.ts'], {
    cwd: options.cwd,
    env: { ...options.env, PORT: '0', HOST: '127.0.0.1', APP_ENV: 'dev' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out} ${err}`));
    };
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out} ${err}`)), options.timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(found[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', onExit);
  });
  return { child, url };
}

/** Sends SIGTERM and resolves with the exit code (at once if the process has already exited). */
export function stopApp(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}
