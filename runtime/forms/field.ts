/** The field base classes shared by every field family (runtime spec "Form fields (core.forms)"). */
import type { UploadedFile } from '../http/request.js';
import { FormDefinitionError, FormValidationError } from './errors.js';
import { messages } from './messages.js';

/** Options common to every field. */
export interface FieldOptions {
  /** Shown to the user and named in messages; default: the field name, capitalised, `_` as spaces. */
  label?: string;
  /** Default true. BooleanField ignores it (see its `mustBeChecked`). */
  required?: boolean;
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

/**
 * A form field: options, `clean()` (raw input → cleaned value, or FormValidationError with a French message
 * naming the label) and display helpers. Fields hold no per-request state, so one instance may serve every
 * form of a class.
 */
export abstract class Field<T = unknown> {
  readonly label: string | undefined;
  readonly required: boolean;
  readonly initial: unknown;
  readonly helpText: string;
  /** The input type for templates (`text`, `number`, `checkbox`, `select`, `email`, `file`, …). */
  readonly type: string;
  /** True when the field reads every submitted value, not only the first. */
  readonly multiple: boolean = false;
  /** True when the field reads `request.files` rather than the body. */
  readonly isFile: boolean = false;

  constructor(options: FieldOptions, defaultType: string) {
    this.label = options.label;
    this.required = options.required ?? true;
    this.initial = options.initial;
    this.helpText = options.helpText ?? '';
    this.type = options.inputType ?? defaultType;
  }

  /** The cleaned value, `null` for an empty optional field; throws FormValidationError when refused. */
  abstract clean(input: FieldInput, label: string): T | null;

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

  /** The choices to render, marked selected from the displayed values; none for fields without choices. */
  choiceOptions(_selected: readonly string[]): ChoiceOption[] {
    return [];
  }
}

/**
 * A field fed by one text value: trimmed (see `normalize`), empty → required error or `null`, otherwise
 * `convert()`.
 */
export abstract class TextInputField<T> extends Field<T> {
  clean(input: FieldInput, label: string): T | null {
    const text = this.normalize(input.value ?? '');
    if (text === '') {
      if (this.required) throw new FormValidationError(messages.required(label));
      return null;
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

/** The cleaned value type of a field, `null` included (an empty optional field). */
export type CleanedValue<F> = F extends Field<infer T> ? T | null : never;

/**
 * The cleaned data of a form class, field by field: `form.cleanedData as CleanedData<typeof MyForm.fields>`.
 * Complete once `isValid()` returned true.
 */
export type CleanedData<M extends Record<string, Field>> = { [K in keyof M]: CleanedValue<M[K]> };

/** Length in characters (code points, as MariaDB counts a VARCHAR), not UTF-16 units. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Checks the length rules shared by text fields. */
export function checkLength(text: string, label: string, minLength: number | undefined, maxLength: number | undefined): void {
  const n = charCount(text);
  if (minLength !== undefined && n < minLength) throw new FormValidationError(messages.minLength(label, minLength));
  if (maxLength !== undefined && n > maxLength) throw new FormValidationError(messages.maxLength(label, maxLength));
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
