/**
 * The thread between a test and its command runner (`cli-server.ts`): it starts the runner on the first request
 * and relays requests and answers, so that the test's thread can wait for an answer synchronously
 * (`cli-bridge.ts`) while this thread does the I/O.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { CliAnswer, CliRequest } from './cli-server.js';

const { shared, port } = workerData as { shared: SharedArrayBuffer; port: MessagePort };
const flag = new Int32Array(shared);
let runner: ChildProcess | undefined;
let pending: CliRequest | undefined;

function answer(message: CliAnswer | { readonly id: number; readonly failure: string }): void {
  pending = undefined;
  port.postMessage(message);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

function start(): ChildProcess {
  const child = fork(new URL('./cli-server.js', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
  child.on('message', (message: CliAnswer) => answer(message));
  child.on('exit', (code, signal) => {
    if (runner === child) runner = undefined;
    if (pending) answer({ id: pending.id, failure: `le processus des commandes s'est arrêté (${signal ?? code}) pendant « fw ${pending.args.join(' ')} »` });
  });
  return child;
}

parentPort!.on('message', (message: CliRequest | 'stop') => {
  if (message === 'stop') {
    runner?.kill('SIGKILL');
    return;
  }
  pending = message;
  runner ??= start();
  runner.send(message);
});
