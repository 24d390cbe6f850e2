/**
 * `fw` run in a long-lived process for the whole test file (`cli-server.ts`), answered synchronously: the test
 * thread posts the request to a worker thread and sleeps on a shared flag until the answer is there
 * (docs/testing.md "How `fw` runs in tests").
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { CliAnswer, CliRequest } from './cli-server.js';

export interface BridgeRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

interface Bridge {
  readonly worker: Worker;
  readonly flag: Int32Array;
  readonly port: MessagePort;
}

let bridge: Bridge | undefined;
let nextId = 1;

function open(): Bridge {
  const shared = new SharedArrayBuffer(4);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./cli-bridge-worker.js', import.meta.url), { workerData: { shared, port: port2 }, transferList: [port2] });
  worker.unref();
  return { worker, flag: new Int32Array(shared), port: port1 };
}

/**
 * Runs `fw <args>` in the file's command runner (or the `run(args)` of `module`, a URL) and waits for its answer (at
 * most `timeoutMs`).
 */
export function runInRunner(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  input: string,
  timeoutMs: number,
  module?: string,
): BridgeRun {
  bridge ??= open();
  const request: CliRequest = { id: nextId++, cwd, args, env, input, ...(module ? { module } : {}) };
  Atomics.store(bridge.flag, 0, 0);
  bridge.worker.postMessage(request);
  if (Atomics.wait(bridge.flag, 0, 0, timeoutMs) === 'timed-out') {
    bridge.worker.postMessage('stop');
    Atomics.wait(bridge.flag, 0, 0, 10_000);
    receiveMessageOnPort(bridge.port);
    throw new Error(`« fw ${args.join(' ')} » n'a pas répondu en ${timeoutMs / 1000} s`);
  }
  const received = receiveMessageOnPort(bridge.port)?.message as CliAnswer | { id: number; failure: string } | undefined;
  if (!received || received.id !== request.id) throw new Error(`réponse inattendue du processus des commandes pour « fw ${args.join(' ')} »`);
  if ('failure' in received) throw new Error(received.failure);
  return received;
}
