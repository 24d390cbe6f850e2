/** HTTP clients for the tests (fetch without redirects, raw TCP) and the expected security headers. */
import * as assert from 'uvu/assert';
import net from 'node:net';

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a caller reads the fields it expects
  json<T = any>(): T;
  /** Every `Set-Cookie` header. */
  cookies: string[];
}

/** fetch with `redirect: 'manual'`; the body is always read. */
export async function call(base: string, path: string, init: RequestInit = {}): Promise<CallResult> {
  const response = await fetch(base + path, { redirect: 'manual', ...init });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: () => JSON.parse(text),
    cookies: response.headers.getSetCookie(),
  };
}

export interface RawResponse {
  status: number;
  /** Lower-case header name -> every value, in order. */
  headers: Record<string, string[]>;
  /** The single value of a header (fails the test when repeated). */
  header(name: string): string | undefined;
  body: Buffer;
  text: string;
}

export interface RawOptions {
  /** Give up after this many milliseconds (default 10 000). */
  timeoutMs?: number;
}

/**
 * Writes the payload pieces one after another on a fresh socket (stopping as soon as an answer arrives)
 * and parses the first HTTP response. Send `Connection: close` so that the server ends the socket.
 */
export function rawRequest(port: number, payload: string | Buffer | Array<string | Buffer>, options: RawOptions = {}): Promise<RawResponse> {
  const pieces = Array.isArray(payload) ? payload : [payload];
  const isHead = String(pieces[0] ?? '').startsWith('HEAD ');
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let answered = false;
    let done = false;
    const timer = setTimeout(() => finish(new Error(`pas de réponse complète en ${options.timeoutMs ?? 10_000} ms`)), options.timeoutMs ?? 10_000);
    const finish = (err?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const data = Buffer.concat(chunks);
      if (data.length > 0) {
        try {
          resolve(parseResponse(data, isHead));
          return;
        } catch (parseErr) {
          reject(parseErr);
          return;
        }
      }
      reject(err ?? new Error('connexion fermée sans réponse'));
    };
    socket.on('data', (chunk: Buffer) => {
      answered = true;
      chunks.push(chunk);
      if (isComplete(Buffer.concat(chunks), isHead)) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    // A reset after the answer is expected when the server stops reading an oversized body.
    socket.on('error', (err) => finish(err));
    socket.once('connect', async () => {
      for (const piece of pieces) {
        if (answered || done) break;
        await new Promise<void>((ok) => socket.write(piece, () => ok()));
      }
    });
  });
}

function splitHead(data: Buffer): { status: number; headers: Record<string, string[]>; bodyStart: number } | null {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!statusLine) throw new Error(`ligne de statut illisible : ${lines[0]}`);
  const headers: Record<string, string[]> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine[1]), headers, bodyStart: end + 4 };
}

function isComplete(data: Buffer, isHead: boolean): boolean {
  const head = splitHead(data);
  if (!head) return false;
  if (isHead || head.status === 304 || head.status === 204) return true;
  const length = head.headers['content-length']?.[0];
  if (length !== undefined) return data.length - head.bodyStart >= Number(length);
  if (head.headers['transfer-encoding']?.[0] === 'chunked') return data.subarray(head.bodyStart).includes('0\r\n\r\n');
  return false;
}

function parseResponse(data: Buffer, isHead: boolean): RawResponse {
  const head = splitHead(data);
  if (!head) throw new Error(`réponse incomplète : ${data.toString('latin1').slice(0, 200)}`);
  let body = data.subarray(head.bodyStart);
  const length = head.headers['content-length']?.[0];
  if (isHead || head.status === 304 || head.status === 204) body = Buffer.alloc(0);
  else if (length !== undefined) body = body.subarray(0, Number(length));
  else if (head.headers['transfer-encoding']?.[0] === 'chunked') body = dechunk(body);
  return {
    status: head.status,
    headers: head.headers,
    header(name) {
      const values = head.headers[name.toLowerCase()];
      if (values && values.length > 1) assert.unreachable(`en-tête ${name} répété : ${JSON.stringify(values)}`);
      return values?.[0];
    },
    body,
    text: body.toString('utf8'),
  };
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

// --- expected values (written out here, not imported from the runtime, so a drift is caught) ---

export const CSP_PLAIN =
  "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:; frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

const CSP_NONCE =
  /^default-src 'self'; style-src 'self'; script-src 'self' 'nonce-([A-Za-z0-9_-]{22})'; img-src 'self' data:; frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'$/;

type HeaderSource = Headers | RawResponse | { get(name: string): string | null | undefined };

function readHeader(source: HeaderSource, name: string): string | null | undefined {
  if (source instanceof Headers) return source.get(name);
  if ('body' in source && 'header' in source) return source.header(name);
  return (source as { get(name: string): string | null | undefined }).get(name);
}

/**
 * Asserts the six security headers with their exact values (a repeated header would show up joined with
 * ", " and fail). With `nonce: true` the CSP must carry a 22-character base64url nonce, which is returned.
 */
export function assertSecurityHeaders(source: HeaderSource, label: string, options: { nonce?: boolean } = {}): string | undefined {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    assert.is(readHeader(source, name), value, `${label}: ${name}`);
  }
  const csp = readHeader(source, 'content-security-policy') ?? '';
  assert.not.ok(/unsafe-inline|unsafe-eval/.test(csp), `${label}: CSP sans unsafe-*`);
  if (options.nonce) {
    const match = CSP_NONCE.exec(csp);
    assert.ok(match, `${label}: CSP avec nonce attendue, reçu ${csp}`);
    return match![1];
  }
  assert.is(csp, CSP_PLAIN, `${label}: Content-Security-Policy`);
  return undefined;
}

/** The `session_id=<value>` pair to send back in a Cookie header, from the Set-Cookie list. */
export function sessionCookie(setCookies: string[]): string | undefined {
  const found = setCookies.find((c) => c.startsWith('session_id='));
  return found?.split(';')[0];
}
