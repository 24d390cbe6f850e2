/**
 * A minimal validator for hand-written checks (docs/api-mapping.md "Validator"): one message per field, the first
 * one kept. Duplicates found by the database are signalled by `DuplicateError` (runtime/db/errors.ts).
 */
import { charCount } from './forms/field.js';
import { messages } from './forms/messages.js';

export class Validator {
  /** Field → message; only the first message of a field is kept. */
  readonly errors: Record<string, string> = {};

  /** Refuses `null`, `undefined`, a blank string and an empty list; true when the value is present. */
  required(field: string, value: unknown, message?: string): boolean {
    const blank = value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
    if (blank) this.addError(field, message ?? messages.required(field));
    return !blank;
  }

  /**
   * Refuses a value longer than `maxLen` characters (code points, as a VARCHAR counts them); an absent value
   * passes (pair it with `required`). True when the value fits.
   */
  maxLength(field: string, value: unknown, maxLen: number, message?: string): boolean {
    if (!Number.isSafeInteger(maxLen) || maxLen < 0) throw new RangeError(`Validator.maxLength(« ${field} ») : longueur maximale invalide (${maxLen}).`);
    if (value === null || value === undefined) return true;
    const fits = charCount(String(value)) <= maxLen;
    if (!fits) this.addError(field, message ?? messages.maxLength(field, maxLen));
    return fits;
  }

  /** Records a message for a field unless it already has one. */
  addError(field: string, message: string): void {
    if (!Object.hasOwn(this.errors, field)) this.errors[field] = message;
  }

  isValid(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}
