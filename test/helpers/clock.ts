/** What the session-store tests share: a clock moved by hand, and the message of a rejected promise. */
import * as assert from 'uvu/assert';

/** A fixed starting instant (ms) for the clocks below. */
export const T0 = 1_700_000_000_000;

/** A clock the test moves by hand, in seconds (`now()` in milliseconds, as Date.now). */
export function manualClock(start = T0): { now: () => number; advance(seconds: number): void } {
  let at = start;
  return { now: () => at, advance: (seconds) => void (at += seconds * 1000) };
}

/** The same clock moved in milliseconds. */
export function manualClockMs(start = T0): { now: () => number; advance(ms: number): void } {
  let at = start;
  return { now: () => at, advance: (ms) => void (at += ms) };
}

/** The message a promise is rejected with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as Error).message;
  }
  assert.unreachable('the promise should have been rejected');
  return '';
}
