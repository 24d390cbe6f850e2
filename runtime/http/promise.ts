/** Values that may or may not be promises: the request path stays synchronous until something awaits. */

/** True for a promise or any other thenable (what `await` would wait for). */
export function isPromise<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
