/**
 * Closing a connection whose request body was not read to its end (refused with a 413, or left unread by the
 * route): the answer is sent, then what the client still sends is read and discarded, within a bound of bytes and
 * of time, before the connection is destroyed. Destroyed at once, the unread bytes make the kernel answer with a
 * reset, and a client that sends its whole body before it reads (nginx does) loses the answer: it reports a 502
 * instead of the 413 (docs/runtime.md "Limits and time-outs").
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused body is read at most, in milliseconds, once the answer is sent. */
export const LINGER_MS = 5000;

/** Margin over the multipart limit that a refused body may still send (what nginx adds to client_max_body_size). */
const LINGER_MARGIN = 1_048_576;

/**
 * Makes the close that node performs after the response of `message` (node calls the socket's destroySoon()) a
 * lingering one: the response is flushed and the writing side ended, then the request's remaining bytes are read
 * and dropped until the body ends (or the client closes), `maxBytes` and a margin more have come, or `LINGER_MS`
 * have passed.
 */
export function lingerOnClose(message: IncomingMessage, maxBytes: number): void {
  const socket = message.socket as (Socket & { destroySoon?: () => void }) | null;
  if (!socket || socket.destroyed) return;
  const bound = maxBytes + LINGER_MARGIN;
  let discarded = 0;
  message.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > bound) socket.destroy();
  });
  // Paused by the body reader when it refused the body: the bytes must flow again to be dropped.
  message.resume();
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // The whole body received, nothing is left to reset the connection: closed once the answer is flushed.
    const close = (): void => {
      if (socket.writableFinished) socket.destroy();
      else socket.once('finish', () => socket.destroy());
    };
    if (message.complete) close();
    else message.once('end', close);
  };
}
