/** Text fields: StringField, TextAreaField, EmailField, PhoneField, UrlField, SlugField. */
import { FormDefinitionError, FormValidationError } from './errors.js';
import { checkCount, checkLength, checkOrder, TextInputField, type FieldOptions, type HtmlAttrs } from './field.js';
import { messages } from './messages.js';

export interface LengthOptions<R extends boolean = boolean> extends FieldOptions<R> {
  minLength?: number;
  maxLength?: number;
  /** At most this many bytes once encoded in UTF-8 (a TEXT column of MariaDB holds 65,535 bytes). */
  maxBytes?: number;
}

export interface StringFieldOptions<R extends boolean = boolean> extends LengthOptions<R> {
  /** Tested with `RegExp.test` (a search: anchor it with `^…$`); `g` and `y` flags are dropped. */
  regex?: RegExp;
  /** Message when the regex does not match; default: « Le champ « X » n’a pas le format attendu. » */
  regexMessage?: string;
}

/** Control characters a single-line value may not hold (all C0 but the tab, and DEL). */
const SINGLE_LINE_FORBIDDEN = /[\u0000-\u0008\u000A-\u001F\u007F]/;
/** Control characters a multi-line value may not hold (tab and line feed allowed; CR is normalised away). */
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F]/;

function lengthAttrs(minLength: number | undefined, maxLength: number | undefined): HtmlAttrs {
  const attrs: HtmlAttrs = {};
  if (minLength !== undefined) attrs.minlength = minLength;
  if (maxLength !== undefined) attrs.maxlength = maxLength;
  return attrs;
}

/** A single-line text: trimmed, minLength / maxLength in characters, maxBytes in UTF-8 bytes, optional regex. Cleaned to a string. */
export class StringField<R extends boolean = true> extends TextInputField<string, R> {
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly maxBytes: number | undefined;
  readonly regex: RegExp | undefined;
  readonly regexMessage: string | undefined;

  constructor(options: StringFieldOptions<R> = {}) {
    super(options, 'text');
    checkCount('minLength', options.minLength);
    checkCount('maxLength', options.maxLength);
    checkCount('maxBytes', options.maxBytes);
    checkOrder('minLength/maxLength', options.minLength, options.maxLength);
    this.minLength = options.minLength;
    this.maxLength = options.maxLength;
    this.maxBytes = options.maxBytes;
    // A global or sticky regex keeps `lastIndex` between calls: one shared field would then alternate results.
    this.regex = options.regex ? new RegExp(options.regex.source, options.regex.flags.replace(/[gy]/g, '')) : undefined;
    this.regexMessage = options.regexMessage;
  }

  protected convert(text: string, label: string): string {
    if (SINGLE_LINE_FORBIDDEN.test(text)) throw new FormValidationError(messages.forbiddenCharacter(label));
    checkLength(text, label, this.minLength, this.maxLength, this.maxBytes);
    if (this.regex && !this.regex.test(text)) throw new FormValidationError(this.regexMessage ?? messages.pattern(label));
    return text;
  }

  override attrs(): HtmlAttrs {
    return lengthAttrs(this.minLength, this.maxLength);
  }
}

/**
 * A multi-line text: line endings normalised to `\n` (a browser sends CRLF), both ends trimmed, inner
 * whitespace kept; minLength / maxLength in characters, maxBytes in UTF-8 bytes. Templates render it escaped (autoescape).
 */
export class TextAreaField<R extends boolean = true> extends TextInputField<string, R> {
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly maxBytes: number | undefined;

  constructor(options: LengthOptions<R> = {}) {
    super(options, 'textarea');
    checkCount('minLength', options.minLength);
    checkCount('maxLength', options.maxLength);
    checkCount('maxBytes', options.maxBytes);
    checkOrder('minLength/maxLength', options.minLength, options.maxLength);
    this.minLength = options.minLength;
    this.maxLength = options.maxLength;
    this.maxBytes = options.maxBytes;
  }

  protected override normalize(raw: string): string {
    return raw.replace(/\r\n?/g, '\n').trim();
  }

  protected convert(text: string, label: string): string {
    if (MULTI_LINE_FORBIDDEN.test(text)) throw new FormValidationError(messages.forbiddenCharacter(label));
    checkLength(text, label, this.minLength, this.maxLength, this.maxBytes);
    return text;
  }

  override attrs(): HtmlAttrs {
    return lengthAttrs(this.minLength, this.maxLength);
  }
}

const EMAIL_MAX = 254;
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** One `@`; a dot-atom local part of at most 64 characters; an ASCII domain of two labels or more, TLD ≥ 2. */
const EMAIL = new RegExp(`^(?=[^@]{1,64}@)(${ATOM}(?:\\.${ATOM})*)@((?:${LABEL}\\.)+[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9])$`);

/** An e-mail address: at most 254 characters, pragmatic syntax, domain lower-cased (local part kept). */
export class EmailField<R extends boolean = true> extends TextInputField<string, R> {
  readonly maxLength: number;

  constructor(options: FieldOptions<R> & { maxLength?: number } = {}) {
    super(options, 'email');
    checkCount('maxLength', options.maxLength, true);
    this.maxLength = Math.min(options.maxLength ?? EMAIL_MAX, EMAIL_MAX);
  }

  protected convert(text: string, label: string): string {
    checkLength(text, label, undefined, this.maxLength);
    const match = EMAIL.exec(text);
    if (!match) throw new FormValidationError(messages.email(label));
    return `${match[1]}@${match[2]!.toLowerCase()}`;
  }

  override attrs(): HtmlAttrs {
    return { maxlength: this.maxLength };
  }
}

/** `national`: `06 12 34 56 78`; `e164`: `+33612345678`. */
export type PhoneFormat = 'national' | 'e164';

const PHONE_LOCAL = /^0[1-9](?:[ .-]?\d{2}){4}$/;
const PHONE_INTERNATIONAL = /^\+33[ .-]?[1-9](?:[ .-]?\d{2}){4}$/;

/**
 * A French phone number: `0X XX XX XX XX` (spaces, dots, dashes or nothing between pairs) or
 * `+33 X XX XX XX XX`. Cleaned by default to the national form `0X XX XX XX XX` with single spaces
 * (option `format: 'e164'` gives `+33XXXXXXXXX`).
 */
export class PhoneField<R extends boolean = true> extends TextInputField<string, R> {
  readonly phoneFormat: PhoneFormat;

  constructor(options: FieldOptions<R> & { format?: PhoneFormat } = {}) {
    super(options, 'tel');
    const format = options.format ?? 'national';
    if (format !== 'national' && format !== 'e164') throw new FormDefinitionError(`Option format invalide : ${String(format)} (national ou e164).`);
    this.phoneFormat = format;
  }

  protected convert(text: string, label: string): string {
    let national: string;
    if (PHONE_LOCAL.test(text)) national = text.replace(/[ .-]/g, '');
    else if (PHONE_INTERNATIONAL.test(text)) national = `0${text.slice(3).replace(/[ .-]/g, '')}`;
    else throw new FormValidationError(messages.phone(label));
    if (this.phoneFormat === 'e164') return `+33${national.slice(1)}`;
    return national.match(/\d{2}/g)!.join(' ');
  }
}

const URL_MAX = 2048;

/** An absolute http or https URL of at most 2048 characters (or `maxLength`, when lower) that `new URL` parses; cleaned as entered (trimmed). */
export class UrlField<R extends boolean = true> extends TextInputField<string, R> {
  readonly maxLength: number;

  constructor(options: FieldOptions<R> & { maxLength?: number } = {}) {
    super(options, 'url');
    checkCount('maxLength', options.maxLength, true);
    this.maxLength = Math.min(options.maxLength ?? URL_MAX, URL_MAX);
  }

  protected convert(text: string, label: string): string {
    checkLength(text, label, undefined, this.maxLength);
    if (!/^https?:\/\//i.test(text) || /[\s\u0000-\u001F\u007F]/.test(text)) throw new FormValidationError(messages.url(label));
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new FormValidationError(messages.url(label));
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') throw new FormValidationError(messages.url(label));
    return text;
  }

  override attrs(): HtmlAttrs {
    return { maxlength: this.maxLength };
  }
}

const SLUG_CHARS = /^[a-z0-9-]+$/;
const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A slug as typed: lowercase ASCII letters, digits and single inner hyphens; at most 120 characters by
 * default. Accents, capitals, underscores and spaces are refused, never converted.
 */
export class SlugField<R extends boolean = true> extends TextInputField<string, R> {
  readonly minLength: number | undefined;
  readonly maxLength: number;

  constructor(options: LengthOptions<R> = {}) {
    super(options, 'text');
    checkCount('minLength', options.minLength);
    checkCount('maxLength', options.maxLength, true);
    checkOrder('minLength/maxLength', options.minLength, options.maxLength);
    this.minLength = options.minLength;
    this.maxLength = options.maxLength ?? 120;
  }

  protected convert(text: string, label: string): string {
    if (!SLUG_CHARS.test(text)) throw new FormValidationError(messages.slug(label));
    if (!SLUG_SHAPE.test(text)) throw new FormValidationError(messages.slugHyphens(label));
    checkLength(text, label, this.minLength, this.maxLength);
    return text;
  }

  override attrs(): HtmlAttrs {
    return { ...lengthAttrs(this.minLength, this.maxLength), pattern: '[a-z0-9]+(-[a-z0-9]+)*' };
  }
}
