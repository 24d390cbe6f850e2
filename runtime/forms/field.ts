/** The field base classes shared by every field family (docs/api-mapping.md "Fields"). */
import type { UploadedFile } from '../http/request.js';
import { FormDefinitionError, FormValidationError } from './errors.js';
import { messages } from './messages.js';

/**
 * Options common to every field. `R` is the literal type of `required` (`true` when absent), so that the
 * cleaned value's type says whether it may be null: `new StringField({ required: false })` cleans to
 * `string | null`, `new StringField()` to `string`.
 */
export interface FieldOptions<R extends boolean = boolean> {
  /** Shown to the user and named in messages; default: the field name, capitalised, `_` as spaces. */
  label?: string;
  /** Default true. BooleanField ignores it (see its `mustBeChecked`). */
  required?: R;
  /** Displayed by an unbound form when the form's `initial` option gives no value. */
  initial?: unknown;
  helpText?: string;
  /** The input type handed to templates instead of the field's own (`password`, `search`, …). */
  inputType?: string;
}

/** What a form hands to a field: the first submitted value, every submitted value, and the uploaded file. */
export interface FieldInput {
  readonly value: string | undefined;
  readonly values: readonly string[];
  readonly file: UploadedFile | undefined;
  /** The other submitted names and their values, for a field made of several inputs (LinkRowsField). */
  readonly siblings?: SubmittedValues;
}

/** Every submitted name, and the values of any of them, as text. */
export interface SubmittedValues {
  readonly names: readonly string[];
  values(name: string): string[];
}

/** What a field made of several inputs needs to describe them to a template (`Field.extraContext`). */
export interface FieldState {
  readonly label: string;
  /** The submitted values of a bound form, else null (then `initial` is shown). */
  readonly input: FieldInput | null;
  readonly initial: unknown;
  /** Messages of the field's inputs, by input name (FormValidationError.details). */
  readonly details: Readonly<Record<string, string>>;
}

/** A choice as declared: `[value, label]`; values are compared as strings. */
export type Choice = readonly [value: string | number, label: string];

/** A choice as handed to templates. */
export interface ChoiceOption {
  readonly value: string;
  readonly label: string;
  readonly selected: boolean;
}

/** Extra HTML attributes a template may put on the input (`maxlength`, `min`, `accept`, …). */
export type HtmlAttrs = Record<string, string | number | boolean>;

/** What `clean()` gives for a field of value type `T` whose `required` is `R`: `T`, or `T | null` unless required. */
export type Cleaned<T, R extends boolean> = R extends true ? T : T | null;

/**
 * A form field: options, `clean()` (raw input → cleaned value, or FormValidationError with a French message
 * naming the label) and display helpers. Fields hold no per-request state, so one instance may serve every
 * form of a class.
 */
export abstract class Field<T = unknown, R extends boolean = boolean> {
  readonly label: string | undefined;
  readonly required: R;
  readonly initial: unknown;
  readonly helpText: string;
  /** The input type for templates (`text`, `number`, `checkbox`, `select`, `email`, `file`, …). */
  readonly type: string;
  /** True when the field reads every submitted value, not only the first. */
  readonly multiple: boolean = false;
  /** True when the field reads `request.files` rather than the body. */
  readonly isFile: boolean = false;

  constructor(options: FieldOptions<R>, defaultType: string) {
    this.label = options.label;
    this.required = (options.required ?? true) as R;
    this.initial = options.initial;
    this.helpText = options.helpText ?? '';
    this.type = options.inputType ?? defaultType;
  }

  /** The cleaned value, `null` for an empty optional field; throws FormValidationError when refused. */
  abstract clean(input: FieldInput, label: string): Cleaned<T, R>;

  /** How an initial or stored value is shown in the input (`null` → ''). */
  format(value: unknown): string {
    if (value === null || value === undefined) return '';
    if (Array.isArray(value)) return value.map((v) => this.format(v)).join(',');
    return String(value);
  }

  /** The displayed values of an initial or stored value, as a list (for multi-value inputs). */
  formatList(value: unknown): string[] {
    if (value === null || value === undefined) return [];
    if (Array.isArray(value)) return value.map((v) => this.format(v));
    return [this.format(value)];
  }

  /** HTML attributes derived from the rules (`maxlength`, `min`, …). */
  attrs(): HtmlAttrs {
    return {};
  }

  /** Keys added to the field's template context (the rows of a LinkRowsField); none by default. */
  extraContext(_state: FieldState): Record<string, unknown> {
    return {};
  }

  /** The choices to render, marked selected from the displayed values; none for fields without choices. */
  choiceOptions(_selected: readonly string[]): ChoiceOption[] {
    return [];
  }
}

/**
 * A field fed by one text value: trimmed (see `normalize`), empty → required error or `null`, otherwise
 * `convert()`.
 */
export abstract class TextInputField<T, R extends boolean = boolean> extends Field<T, R> {
  clean(input: FieldInput, label: string): Cleaned<T, R> {
    const text = this.normalize(input.value ?? '');
    if (text === '') {
      if (this.required) throw new FormValidationError(messages.required(label));
      return null as Cleaned<T, R>; // not required, so R is not `true`
    }
    return this.convert(text, label);
  }

  /** Both ends trimmed. */
  protected normalize(raw: string): string {
    return raw.trim();
  }

  /** A non-empty, normalised text → the cleaned value. */
  protected abstract convert(text: string, label: string): T;
}

/**
 * The cleaned value type of a field: what its `clean()` returns, `null` included only when the field may be
 * left empty (`required: false`; a BooleanField and a RelatedIdsField never give null).
 */
export type CleanedValue<F> = F extends { clean(input: FieldInput, label: string): infer C } ? C : never;

/**
 * The cleaned data of a field map, field by field: the type of `form.cleanedData` for a
 * `Form<typeof FIELDS>`. Complete once `isValid()` returned true.
 */
export type CleanedData<M extends Record<string, Field>> = { [K in keyof M]: CleanedValue<M[K]> };

/** Length in characters (code points, as MariaDB counts a VARCHAR), not UTF-16 units. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Checks the length rules shared by text fields; `maxBytes` counts UTF-8 bytes, as MariaDB bounds a TEXT column. */
export function checkLength(text: string, label: string, minLength: number | undefined, maxLength: number | undefined, maxBytes?: number): void {
  const n = charCount(text);
  if (minLength !== undefined && n < minLength) throw new FormValidationError(messages.minLength(label, minLength));
  if (maxLength !== undefined && n > maxLength) throw new FormValidationError(messages.maxLength(label, maxLength));
  if (maxBytes !== undefined && Buffer.byteLength(text, 'utf8') > maxBytes) throw new FormValidationError(messages.maxBytes(label, maxBytes));
}

/** Refuses a declaration option that is not a non-negative integer (or a positive one). */
export function checkCount(name: string, value: number | undefined, positive = false): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < (positive ? 1 : 0)) {
    throw new FormDefinitionError(`Option ${name} invalide : ${String(value)} (entier ${positive ? 'strictement positif' : 'positif ou nul'} attendu).`);
  }
}

/** Refuses `min > max` in a declaration. */
export function checkOrder(name: string, min: number | undefined, max: number | undefined): void {
  if (min !== undefined && max !== undefined && min > max) {
    throw new FormDefinitionError(`Options ${name} incohérentes : le minimum (${min}) dépasse le maximum (${max}).`);
  }
}

/** The default label of a field name: `date_naissance` → `Date naissance`. */
export function prettyName(name: string): string {
  const spaced = name.replace(/_+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
