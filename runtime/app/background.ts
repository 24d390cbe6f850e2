/**
 * Work an application runs beside its server while it serves (the mail sender of `fw-mvc/mail`): a module
 * registers a start function with `onServe`; `serve()` starts every registered one once it listens and stops
 * them after the last request on SIGTERM. The core never imports the modules that register here.
 */
import { getLogger } from '../logger.js';

/** Stops what a start function started; awaited before the process exits. */
export type StopBackground = () => Promise<void> | void;
/** Starts a background job; returns how to stop it, or nothing when it decided not to start. */
export type StartBackground = () => StopBackground | void;

const log = getLogger('fw.app');
const starters = new Map<string, StartBackground>();
let running: Map<string, StopBackground> | null = null;

/**
 * Registers `start` under `name` (a second registration under one name replaces the first). Started by `serve()`,
 * or at once when the application already serves.
 */
export function onServe(name: string, start: StartBackground): void {
  starters.set(name, start);
  if (running && !running.has(name)) startOne(name, start, running);
}

/** Starts every registered job (called by `serve()` once it listens). */
export function startBackground(): void {
  if (running) return;
  const started = new Map<string, StopBackground>();
  running = started;
  for (const [name, start] of starters) startOne(name, start, started);
}

/** Stops every started job and waits for them; a job that fails to stop is logged, the others still stop. */
export async function stopBackground(): Promise<void> {
  const started = running;
  running = null;
  if (!started) return;
  await Promise.all(
    [...started].map(async ([name, stop]) => {
      try {
        await stop();
      } catch (error) {
        log.error(`Arrêt de « ${name} » en échec : ${(error as Error).message}`);
      }
    }),
  );
}

function startOne(name: string, start: StartBackground, into: Map<string, StopBackground>): void {
  const stop = start();
  if (stop) into.set(name, stop);
}
