/** Choice fields: BooleanField, ChoiceField, RelationField, RelatedIdsField. */
import { FormDefinitionError, FormValidationError } from './errors.js';
import { Field, TextInputField, type Choice, type ChoiceOption, type FieldInput, type FieldOptions } from './field.js';
import { messages } from './messages.js';

const TRUE_VALUES = new Set(['on', '1', 'true', 'oui']);

export interface BooleanFieldOptions extends FieldOptions {
  /** The box must be checked (terms of use); `required` itself is ignored by a checkbox. */
  mustBeChecked?: boolean;
}

/**
 * A checkbox: absent or any other value → false; `on`, `1`, `true`, `oui` (any case) → true. When several
 * values arrive (a hidden `0` before the box), any true one wins. Never `null`.
 */
export class BooleanField extends Field<boolean> {
  readonly mustBeChecked: boolean;

  constructor(options: BooleanFieldOptions = {}) {
    const mustBeChecked = options.mustBeChecked ?? false;
    super({ ...options, required: mustBeChecked }, 'checkbox');
    this.mustBeChecked = mustBeChecked;
  }

  clean(input: FieldInput, label: string): boolean {
    const checked = input.values.some((v) => TRUE_VALUES.has(v.trim().toLowerCase()));
    if (!checked && this.mustBeChecked) throw new FormValidationError(messages.mustBeChecked(label));
    return checked;
  }

  /** `'1'` for a true value (true, 1, '1', 'true', 'on', 'oui'), '' otherwise. */
  override format(value: unknown): string {
    if (value === true || value === 1 || value === 1n) return '1';
    return typeof value === 'string' && TRUE_VALUES.has(value.trim().toLowerCase()) ? '1' : '';
  }
}

/** Options of the fields that offer choices. */
export interface ChoiceFieldOptions<R extends boolean = boolean> extends FieldOptions<R> {
  /** `[value, label]` pairs; a form may replace them per instance (`new MyForm(data, { choices: { field: […] } })`). */
  choices?: readonly Choice[];
}

export function checkChoices(choices: readonly Choice[] | undefined): readonly Choice[] {
  if (choices === undefined) return [];
  const ok =
    Array.isArray(choices) &&
    choices.every((c) => Array.isArray(c) && c.length === 2 && (typeof c[0] === 'string' || typeof c[0] === 'number') && typeof c[1] === 'string');
  if (!ok) throw new FormDefinitionError('Option choices invalide : une liste de paires [valeur, libellé] est attendue.');
  return choices.map(([value, label]) => [value, label] as const);
}

export function toOptions(choices: readonly Choice[], selected: ReadonlySet<string>): ChoiceOption[] {
  return choices.map(([value, label]) => ({ value: String(value), label, selected: selected.has(String(value)) }));
}

/** A copy of a field with other choices (the declared field is shared by every form and stays untouched). */
export function withChoices<F extends Field>(field: F, choices: readonly Choice[]): F {
  const copy = Object.create(Object.getPrototypeOf(field) as object) as F;
  return Object.assign(copy, field, { choices: checkChoices(choices) });
}

/** A field whose choices a form may replace per instance. */
export interface ChoiceHolder {
  readonly choices: readonly Choice[];
  withChoices(choices: readonly Choice[]): Field;
}

/** True for ChoiceField, RelationField and RelatedIdsField. */
export function holdsChoices(field: Field): field is Field & ChoiceHolder {
  return typeof (field as Partial<ChoiceHolder>).withChoices === 'function';
}

/** A value among `choices` (compared as strings, after trimming). Cleaned to the value as a string. */
export class ChoiceField<T extends string | number = string, R extends boolean = true> extends TextInputField<T, R> implements ChoiceHolder {
  readonly choices: readonly Choice[];

  constructor(options: ChoiceFieldOptions<R> = {}) {
    super(options, 'select');
    this.choices = checkChoices(options.choices);
  }

  withChoices(choices: readonly Choice[]): this {
    return withChoices(this, choices);
  }

  protected convert(text: string, label: string): T {
    if (!this.choices.some(([value]) => String(value) === text)) throw new FormValidationError(messages.choice(label));
    return this.cleanChoice(text, label);
  }

  /** The cleaned value of an accepted choice. */
  protected cleanChoice(text: string, _label: string): T {
    return text as T;
  }

  override choiceOptions(selected: readonly string[]): ChoiceOption[] {
    return toOptions(this.choices, new Set(selected));
  }
}

const CANONICAL_INTEGER = /^-?(?:0|[1-9]\d*)$/;

export interface RelationFieldOptions<I extends boolean = false, R extends boolean = boolean> extends ChoiceFieldOptions<R> {
  /** The target's key is an integer: the cleaned value is always a number (a non-integer choice is refused). */
  integer?: I;
}

/** The cleaned type of a RelationField: `number` with `integer: true`, `string | number` otherwise. */
export type RelationKey<I extends boolean> = I extends true ? number : string | number;

/**
 * A many-to-one relation: a ChoiceField whose choices (usually `[id, label]` of the target rows) come from
 * the options, given by the controller; it runs no query. Cleaned to a number when the value is an integer
 * written canonically (`'12'` → 12), to the string otherwise; with `integer: true` (an integer key), always
 * to a number, typed so.
 */
export class RelationField<I extends boolean = false, R extends boolean = true> extends ChoiceField<RelationKey<I>, R> {
  readonly integer: I;

  constructor(options: RelationFieldOptions<I, R> = {}) {
    super(options);
    this.integer = (options.integer ?? false) as I;
  }

  protected override cleanChoice(text: string, label: string): RelationKey<I> {
    const isInteger = CANONICAL_INTEGER.test(text) && Number.isSafeInteger(Number(text));
    if (isInteger) return Number(text);
    if (this.integer) throw new FormValidationError(messages.choice(label));
    return text as RelationKey<I>;
  }
}

/**
 * A list of related ids (many-to-many): positive integers from repeated values (`ids=1&ids=2`), a comma list
 * (`1,2`) or both; duplicates dropped, first order kept. When choices are given, every id must be one of
 * them. An empty optional field cleans to `[]` (a list, never `null`).
 */
export class RelatedIdsField extends Field<number[]> implements ChoiceHolder {
  override readonly multiple = true;
  readonly choices: readonly Choice[];
  /** Whether choices were given: without any, every positive id is accepted (the database checks the rest). */
  readonly restricted: boolean;

  constructor(options: ChoiceFieldOptions = {}) {
    super(options, 'select');
    this.choices = checkChoices(options.choices);
    this.restricted = options.choices !== undefined;
  }

  withChoices(choices: readonly Choice[]): this {
    return Object.assign(withChoices(this, choices), { restricted: true });
  }

  clean(input: FieldInput, label: string): number[] {
    const pieces = splitIds(input.values);
    if (pieces.length === 0) {
      if (this.required) throw new FormValidationError(messages.required(label));
      return [];
    }
    const ids: number[] = [];
    for (const piece of pieces) {
      const id = /^\d+$/.test(piece) ? Number(piece) : NaN;
      if (!Number.isSafeInteger(id) || id < 1) throw new FormValidationError(messages.ids(label));
      if (!ids.includes(id)) ids.push(id);
    }
    if (this.restricted) {
      const allowed = new Set(this.choices.map(([value]) => String(value)));
      if (!ids.every((id) => allowed.has(String(id)))) throw new FormValidationError(messages.choice(label));
    }
    return ids;
  }

  override choiceOptions(selected: readonly string[]): ChoiceOption[] {
    return toOptions(this.choices, new Set(splitIds(selected)));
  }
}

/** `['1,2', ' 3 ', '']` → `['1', '2', '3']`. */
function splitIds(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
