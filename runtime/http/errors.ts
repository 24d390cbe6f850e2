/** HTTP errors as values: the dispatcher turns them into a page or a JSON envelope (docs/architecture.md "Errors as values"). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'error',
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** A request body over the allowed limit (docs/runtime.md "Limits and time-outs"). */
export class RequestEntityTooLarge extends HttpError {
  constructor(readonly limit: number) {
    super(413, `Le corps de la requête dépasse la limite de ${limit} octets.`, 'payload_too_large');
    this.name = 'RequestEntityTooLarge';
  }
}

/** A body that cannot be parsed (malformed JSON or multipart). */
export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, message, 'bad_request');
    this.name = 'BadRequestError';
  }
}

/**
 * A request carrying more ids than a bulk action accepts, or a list too long for one SQL statement (docs/crud.md
 * "Bulk delete"). 413: the request is well-formed, only too large for the server to process.
 */
export class TooManyIdsError extends HttpError {
  constructor(
    readonly count: number,
    readonly limit: number,
  ) {
    super(413, `Trop d'identifiants : ${count} reçus, ${limit} au plus.`, 'too_many_ids');
    this.name = 'TooManyIdsError';
  }
}

/** A form body with more fields (or multipart parts) than `max_form_fields` (docs/runtime.md "Limits and time-outs"). */
export class TooManyFieldsError extends HttpError {
  constructor(readonly limit: number) {
    super(413, `Le formulaire compte plus de ${limit} champs (limite max_form_fields).`, 'too_many_fields');
    this.name = 'TooManyFieldsError';
  }
}
