/** HTTP response value (docs/api-mapping.md "HTTP (`core.http`)"). */

export type HeaderValue = string | string[];

export class Response {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers: Record<string, HeaderValue>;
  /** When set, the body is streamed from this file path instead of `body` (static files). */
  filePath?: string;
  /**
   * The size of `filePath` when the response was made (static files: its Content-Length). When set, exactly this
   * many bytes are sent, read into buffers of that size (not 64 KiB ones): a file that grew since cannot overrun
   * the announced length.
   */
  fileSize?: number;
  /** The first byte of `filePath` to send (a 206 range); default 0. */
  fileStart?: number;

  constructor(status = 200, body: string | Buffer = '', contentType = 'text/html; charset=utf-8', headers: Record<string, HeaderValue> = {}) {
    this.status = status;
    this.body = body;
    this.contentType = contentType;
    this.headers = headers;
  }

  /** Sets a header, replacing any earlier value (names are case-insensitive on the wire; keep one spelling). */
  setHeader(name: string, value: HeaderValue): this {
    this.headers[name] = value;
    return this;
  }

  /** Appends a `Set-Cookie` header. */
  addCookie(cookie: string): this {
    const current = this.headers['Set-Cookie'];
    this.headers['Set-Cookie'] = current === undefined ? [cookie] : Array.isArray(current) ? [...current, cookie] : [current, cookie];
    return this;
  }

  /** The body as bytes. */
  bytes(): Buffer {
    return typeof this.body === 'string' ? Buffer.from(this.body, 'utf8') : this.body;
  }
}
