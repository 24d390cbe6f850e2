/** A file of a multipart body, as the body reader keeps it. */

/**
 * A file received in a multipart body; it stays in memory and nothing is written to disk. A file over
 * `upload_max_size` is `truncated`: its bytes were dropped as soon as it passed the limit (`data` is empty) and
 * `size` is the byte count it was sent with, so that the form refuses it (422) with the rest of the form kept.
 */
export class UploadedFile {
  /** The bytes received for this part (the length of `data`, unless the file was truncated). */
  readonly size: number;
  /** True when the file passed `upload_max_size` and its bytes were dropped: it can only be refused. */
  readonly truncated: boolean;

  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly data: Buffer,
    readonly fieldName = '',
    received?: { size: number; truncated: true },
  ) {
    this.size = received?.size ?? data.length;
    this.truncated = received?.truncated ?? false;
  }
}
