/** The Form base class (docs/api-mapping.md "Form"; the names: docs/decisions.md#names-in-typescript). */
import { UploadedFile, type Request } from '../http/request.js';
import { FormDefinitionError, FormValidationError, UnknownFieldError } from './errors.js';
import { Field, prettyName, type CleanedData, type Choice, type ChoiceOption, type FieldInput, type HtmlAttrs } from './field.js';
import { holdsChoices } from './fields-choice.js';

/** The fields of a form class, by name, in display order. */
export type FieldMap = Record<string, Field>;

/** One submitted value: `request.body` gives lists of strings; code and tests may pass scalars. */
export type FormInputValue = string | number | boolean | bigint | null | undefined | UploadedFile | ReadonlyArray<string | number | boolean | bigint>;
/** The data a form is bound to. */
export type FormInput = Readonly<Record<string, FormInputValue>>;

export interface FormOptions {
  /** Uploaded files by field name (`fromRequest` passes `request.files`). */
  files?: Readonly<Record<string, UploadedFile>>;
  /** Values shown by an unbound form (a record being edited); they win over each field's `initial`. */
  initial?: Readonly<Record<string, unknown>>;
  /** Choices of choice fields for this instance (RelationField targets loaded by the controller). */
  choices?: Readonly<Record<string, readonly Choice[]>>;
}

/** A Form subclass as a value: what `fromRequest` and generic code work with. */
export interface FormClass<T extends Form = Form> {
  new (data?: FormInput | null, options?: FormOptions): T;
  readonly fields?: FieldMap;
}

/** What templates get for one field. */
export type FieldContext = {
  readonly name: string;
  /** `field-<name>`, the id used by `components/form_field.html`. */
  readonly id: string;
  readonly label: string;
  readonly type: string;
  /** The entered value (bound form) or the initial one, as text. */
  readonly value: string;
  /** Every entered or initial value (multi-value fields). */
  readonly values: string[];
  /** The first error message, or ''. */
  readonly error: string;
  readonly errors: string[];
  readonly has_error: boolean;
  readonly required: boolean;
  readonly help_text: string;
  readonly multiple: boolean;
  /** Choices marked selected from the displayed values; empty for fields without choices. */
  readonly choices: ChoiceOption[];
  readonly attrs: HtmlAttrs;
  /** A field made of several inputs adds its own keys (LinkRowsField: `rows`). */
  readonly [extra: string]: unknown;
};

/** What templates get for a form: one entry per field name, plus the keys below. */
export interface FormContext {
  readonly fields: FieldContext[];
  readonly errors: Record<string, string[]>;
  readonly non_field_errors: string[];
  readonly is_bound: boolean;
  readonly [name: string]: FieldContext | FieldContext[] | Record<string, string[]> | string[] | boolean;
}

/** Keys of FormContext that no field may take (the compiler keeps the same list: compiler/class-members.ts). */
export const RESERVED_FIELD_NAMES: readonly string[] = ['fields', 'errors', 'non_field_errors', 'is_bound'];
const RESERVED: ReadonlySet<string> = new Set(RESERVED_FIELD_NAMES);

/**
 * A form: fields declared as a static map on the subclass, bound to submitted data or not.
 *
 *     class ContactForm extends Form {
 *       static fields = { nom: new StringField({ label: 'Nom', maxLength: 100 }), email: new EmailField() };
 *       override clean(): void { … this.addError(null, '…') … }
 *     }
 *     const form = ContactForm.fromRequest(request);
 *     if (form.isValid()) save(form.cleanedData);
 *
 * Give the field map as the type parameter and `cleanedData` is typed field by field (`null` only for
 * `required: false`), so that `new Contact(form.cleanedData)` is checked by tsc:
 *
 *     const CONTACT_FIELDS = { nom: new StringField({ maxLength: 100 }), age: new IntegerField({ required: false }) };
 *     class ContactForm extends Form<typeof CONTACT_FIELDS> { static fields = CONTACT_FIELDS; }
 *     // form.cleanedData: { nom: string; age: number | null }
 *
 * Validation runs once, on the first call that needs it (`isValid()`, `errors`, `cleanedData`, `context()`, …).
 */
export class Form<F extends FieldMap = FieldMap> {
  /** True when the form was given data (even empty): only a bound form can be valid. */
  readonly isBound: boolean;
  /** Declared field names, in declaration order. */
  readonly fieldNames: readonly string[];
  private readonly declared: ReadonlyMap<string, Field>;
  private readonly data: FormInput;
  private readonly files: Readonly<Record<string, UploadedFile>>;
  private readonly initial: Readonly<Record<string, unknown>>;
  private readonly fieldErrorMap = new Map<string, string[]>();
  private readonly nonField: string[] = [];
  /** Messages of the inputs of a field made of several (FormValidationError.details), by field name. */
  private readonly detailErrors = new Map<string, Readonly<Record<string, string>>>();
  private cleaned: Record<string, unknown> = {};
  private validated = false;

  constructor(data?: FormInput | null, options: FormOptions = {}) {
    this.isBound = data !== undefined && data !== null;
    this.data = data ?? {};
    this.files = options.files ?? {};
    this.initial = options.initial ?? {};
    this.declared = declaredFields(this.constructor as FormClass, options.choices ?? {});
    this.fieldNames = [...this.declared.keys()];
  }

  /** A form bound to `request.body` (first value of each field, every value for multi-value fields) and `request.files`. */
  static fromRequest<T extends Form>(this: FormClass<T>, request: Request, options: FormOptions = {}): T {
    return new this(request.body, { ...options, files: { ...request.files, ...options.files } });
  }

  /** The field declared under `name` (with this instance's choices); UnknownFieldError otherwise. */
  field(name: string): Field {
    const field = this.declared.get(name);
    if (!field) throw new UnknownFieldError(name, this.constructor.name, this.fieldNames);
    return field;
  }

  /** The label of a field: its `label` option, or its name made readable. */
  label(name: string): string {
    return this.field(name).label ?? prettyName(name);
  }

  /** Field errors: name → messages, in declaration order; only fields with errors appear. */
  get errors(): Record<string, string[]> {
    this.ensureValidated();
    const out: Record<string, string[]> = {};
    for (const name of this.fieldNames) {
      const list = this.fieldErrorMap.get(name);
      if (list) out[name] = [...list];
    }
    return out;
  }

  /** Errors of the whole form (from `clean()` or `addError(null, …)`). */
  get nonFieldErrors(): string[] {
    this.ensureValidated();
    return [...this.nonField];
  }

  /** The messages of one field (empty list when none). */
  fieldErrors(name: string): string[] {
    this.ensureValidated();
    return [...(this.fieldErrorMap.get(name) ?? [])];
  }

  /** The first message of a field, or ''. */
  error(name: string): string {
    return this.fieldErrors(name)[0] ?? '';
  }

  hasError(name: string): boolean {
    return this.fieldErrors(name).length > 0;
  }

  /**
   * Records a message for a field, or for the whole form when `name` is null, and drops the field from
   * `cleanedData`. Usable after `isValid()` (a DuplicateError turned into a message) and inside `clean()`.
   */
  addError(name: string | null, message: string): void {
    this.ensureValidated();
    if (name === null) {
      this.nonField.push(message);
      return;
    }
    this.field(name);
    const list = this.fieldErrorMap.get(name);
    if (list) list.push(message);
    else this.fieldErrorMap.set(name, [message]);
    delete this.cleaned[name];
  }

  /** Cleans every field, then runs `clean()`; true when bound and without any error. */
  isValid(): boolean {
    if (!this.isBound) return false;
    this.ensureValidated();
    return this.fieldErrorMap.size === 0 && this.nonField.length === 0;
  }

  /**
   * Whole-form validation hook, run after the fields even when some failed (check that a field is in
   * `cleanedData` before using it). Call `addError()`, change `cleanedData`, or throw FormValidationError
   * for a non-field error.
   */
  clean(): void {}

  /**
   * Cleaned values of the valid fields (empty optional → null); complete once `isValid()` returned true (the
   * type describes that complete state: a field with an error is absent).
   */
  get cleanedData(): CleanedData<F> {
    this.ensureValidated();
    return this.cleaned as CleanedData<F>;
  }

  /** The entered value of a field as text, for re-display (or the initial value of an unbound form). */
  value(name: string, fallback = ''): string {
    const field = this.declared.get(name);
    if (field?.isFile) return '';
    if (this.isBound) {
      const values = this.rawValues(name);
      if (values.length === 0) return fallback;
      return field?.multiple ? values.join(',') : values[0]!;
    }
    const initial = this.initialOf(name);
    if (initial === undefined || initial === null) return fallback;
    return field ? field.format(initial) : String(initial);
  }

  /** Every entered value of a field (or the initial values of an unbound form), as text. */
  values(name: string): string[] {
    const field = this.declared.get(name);
    if (field?.isFile) return [];
    if (this.isBound) return this.rawValues(name);
    const initial = this.initialOf(name);
    return field ? field.formatList(initial) : initial === undefined || initial === null ? [] : [String(initial)];
  }

  /** Everything a template needs: one FieldContext per field name, `fields` in order, `errors`, `non_field_errors`. */
  context(): FormContext {
    const fields = this.fieldNames.map((name) => this.fieldContext(name));
    const byName: Record<string, FieldContext> = {};
    for (const f of fields) byName[f.name] = f;
    return { ...byName, fields, errors: this.errors, non_field_errors: this.nonFieldErrors, is_bound: this.isBound };
  }

  private fieldContext(name: string): FieldContext {
    const field = this.field(name);
    const value = this.value(name);
    const values = this.values(name);
    const errors = this.fieldErrors(name);
    const state = {
      label: this.label(name),
      input: this.isBound ? this.inputOf(name) : null,
      initial: this.initialOf(name),
      details: this.detailErrors.get(name) ?? {},
    };
    return {
      ...field.extraContext(state),
      name,
      id: `field-${name}`,
      label: this.label(name),
      type: field.type,
      value,
      values,
      error: errors[0] ?? '',
      errors,
      has_error: errors.length > 0,
      required: field.required,
      help_text: field.helpText,
      multiple: field.multiple,
      choices: field.choiceOptions((field.multiple ? values : [value]).map((v) => v.trim())),
      attrs: field.attrs(),
    };
  }

  private ensureValidated(): void {
    if (!this.isBound || this.validated) return;
    this.validated = true;
    for (const name of this.fieldNames) {
      try {
        this.cleaned[name] = this.field(name).clean(this.inputOf(name), this.label(name));
      } catch (err) {
        if (!(err instanceof FormValidationError)) throw err;
        this.addError(name, err.message);
        if (Object.keys(err.details).length > 0) this.detailErrors.set(name, err.details);
      }
    }
    try {
      this.clean();
    } catch (err) {
      if (!(err instanceof FormValidationError)) throw err;
      this.addError(null, err.message);
    }
  }

  private inputOf(name: string): FieldInput {
    const values = this.rawValues(name);
    const field = this.field(name);
    let file: UploadedFile | undefined;
    if (field.isFile) {
      const raw = Object.hasOwn(this.data, name) ? this.data[name] : undefined;
      file = Object.hasOwn(this.files, name) ? this.files[name] : raw instanceof UploadedFile ? raw : undefined;
    }
    const siblings = { names: Object.keys(this.data), values: (other: string) => this.rawValues(other) };
    return { value: values[0], values, file, siblings };
  }

  /** The submitted values of a name as strings (files and nulls left out). */
  private rawValues(name: string): string[] {
    const raw = Object.hasOwn(this.data, name) ? this.data[name] : undefined;
    const list: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
    return list.filter((v) => v !== undefined && v !== null && !(v instanceof UploadedFile)).map(String);
  }

  private initialOf(name: string): unknown {
    if (Object.hasOwn(this.initial, name)) return this.initial[name];
    return this.declared.get(name)?.initial;
  }
}

/** Reads and checks the static `fields` of a form class, applying per-instance choices. */
function declaredFields(formClass: FormClass, choices: Readonly<Record<string, readonly Choice[]>>): Map<string, Field> {
  const fields: unknown = formClass.fields ?? {};
  if (typeof fields !== 'object' || fields === null) {
    throw new FormDefinitionError(`${formClass.name}.fields doit être un objet { nom: champ }.`);
  }
  const out = new Map<string, Field>();
  for (const [name, field] of Object.entries(fields)) {
    if (!(field instanceof Field)) throw new FormDefinitionError(`${formClass.name}.fields.${name} n’est pas un champ (Field).`);
    if (RESERVED.has(name)) throw new FormDefinitionError(`${formClass.name} : le nom de champ « ${name} » est réservé (${[...RESERVED].join(', ')}).`);
    out.set(name, field as Field);
  }
  for (const [name, list] of Object.entries(choices)) {
    const field = out.get(name);
    if (!field) throw new UnknownFieldError(name, formClass.name, [...out.keys()]);
    if (!holdsChoices(field)) throw new FormDefinitionError(`${formClass.name}.${name} n’a pas de choix : l’option choices ne s’y applique pas.`);
    out.set(name, field.withChoices(list));
  }
  return out;
}
