/**
 * What the CRUD actions and queries need of an entity's media (`make:crud --media`, docs/crud.md "Media"): the shape
 * of `MediaPages` and `MediaSubmission` of `fw-mvc/media`, which builds on this module (docs/architecture.md "What
 * may import what": `crud/` never imports `media/`). The generated `<snake>_media.ts` makes the `MediaPages`.
 */
import type { Transaction } from '../db/database.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';

/** What a form sent for the media of a record (a `MediaSubmission`). */
export interface CrudMediaSubmission {
  /** 400 or 403: a media id the form names is not one of the record's; nothing may change. */
  readonly refusal: number | null;
  readonly isValid: boolean;
  /** The status of the form sent back when `store()` returned false (422, 507). */
  readonly failureStatus: number;
  store(): Promise<boolean>;
  apply(recordId: number, tx: Transaction): Promise<void>;
  discard(): Promise<void>;
  finish(): Promise<void>;
}

/** The media entries of an entity and what its pages do with them (a `MediaPages`). */
export interface CrudMediaPages {
  /** The image of the list's thumbnail column, or null. */
  readonly listImage: unknown;
  guard(request: Request): Promise<Response | null>;
  read(request: Request, recordId: number | null): Promise<CrudMediaSubmission>;
  /** Method syntax: `MediaPages` takes its own `MediaSubmission`, the one its `read()` gave. */
  formContext(recordId: number | null, sent?: CrudMediaSubmission): Promise<object>;
  showContext(recordId: number): Promise<object>;
  thumbnails(ids: readonly number[]): Promise<object>;
  deleteFor(ids: readonly number[]): Promise<number>;
}

/**
 * The media messages of a form page sent back, for its error summary (docs/crud.md "Required fields and the error
 * summary"): each links to its entry's file input, `media-<name>-file` in `_media_fields.html`.
 */
export function mediaErrorLinks(formContext: object): Array<{ id: string; message: string }> {
  const links: Array<{ id: string; message: string }> = [];
  for (const [name, entry] of Object.entries(formContext as Record<string, { errors?: unknown }>)) {
    const errors = Array.isArray(entry?.errors) ? entry.errors : [];
    for (const message of errors) links.push({ id: `media-${name}-file`, message: String(message) });
  }
  return links;
}
