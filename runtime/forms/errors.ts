/**
 * Errors of the forms layer (docs/api-mapping.md "Forms, validator, pagination (`core.forms`, Validator, Pagination)").
 */

/**
 * A value refused by a field, or by a form's `clean()` hook. Thrown by `Field.clean()` and caught by
 * `Form.isValid()`, which records `message` under the field (or in the non-field errors for `clean()`).
 * Custom fields and `clean()` overrides may throw it too.
 */
export class FormValidationError extends Error {
  override readonly name = 'FormValidationError';

  /**
   * A field made of several inputs (LinkRowsField: one row per link) gives each refused input its own message, by
   * input name; the form hands them back to the field's template context.
   */
  constructor(
    message: string,
    readonly details: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** A programming mistake in a form or field declaration (bad option, reserved field name, not a Field). */
export class FormDefinitionError extends Error {
  override readonly name = 'FormDefinitionError';
}

/** A field name that the form does not declare (`form.field(name)`, `form.addError(name, …)`). */
export class UnknownFieldError extends Error {
  override readonly name = 'UnknownFieldError';

  constructor(
    readonly fieldName: string,
    readonly formName: string,
    known: readonly string[],
  ) {
    super(`Champ inconnu « ${fieldName} » dans le formulaire ${formName}. Champs déclarés : ${known.join(', ') || '(aucun)'}.`);
  }
}
