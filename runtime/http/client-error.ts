/**
 * The answer to a request node could not parse or that came too slowly (its 'clientError' event): node's own
 * answer carries no header but `Connection: close`, so it is written here, with the headers the application adds
 * to every response (the six security headers, docs/runtime.md "Limits and time-outs").
 */
import type { Socket } from 'node:net';
import type { FixedHeaders } from './fixed-headers.js';

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

const MESSAGES: Readonly<Record<number, string>> = {
  400: 'Requête HTTP mal formée.',
  408: 'La requête est arrivée trop lentement.',
  413: 'Requête trop volumineuse.',
  431: 'Les en-têtes de la requête sont trop volumineux.',
};

/** The status for a parser or time-out error, as node chooses it. */
export function clientErrorStatus(code: string | undefined): number {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 413;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    default:
      return 400;
  }
}

/** The whole response, head and body, as bytes; `headers` come first (those of a response without a request). */
export function clientErrorResponse(status: number, headers: FixedHeaders): Buffer {
  const body = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>${status}</title></head><body><h1>${status}</h1><p>${MESSAGES[status] ?? MESSAGES[400]}</p></body></html>`;
  const lines = [`HTTP/1.1 ${status} ${REASONS[status] ?? REASONS[400]}`];
  const fixed = headers.forRequest(undefined);
  for (let i = 0; i < fixed.length; i += 2) lines.push(`${fixed[i]}: ${fixed[i + 1]}`);
  lines.push('Content-Type: text/html; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close');
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'utf8');
}

/**
 * The 'clientError' listener: answers once on a socket nothing was written to yet, then closes it. A reset
 * connection, or one where a response has already started, is only destroyed (as node does).
 */
export function clientErrorListener(headers: FixedHeaders): (err: Error & { code?: string }, socket: Socket) => void {
  return (err, socket) => {
    // node keeps the response in flight on the socket; once its head is out, another answer would corrupt the stream.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(clientErrorStatus(err.code), headers), () => socket.destroy());
  };
}
