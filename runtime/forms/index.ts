/**
 * Forms with typed fields (docs/api-mapping.md "Forms, validator, pagination (`core.forms`, Validator, Pagination)").
 */
export { Form, type FieldMap, type FormClass, type FormContext, type FieldContext, type FormInput, type FormInputValue, type FormOptions } from './form.js';
export {
  Field,
  TextInputField,
  charCount,
  type FieldOptions,
  type FieldInput,
  type FieldState,
  type SubmittedValues,
  type Choice,
  type ChoiceOption,
  type HtmlAttrs,
  type Cleaned,
  type CleanedValue,
  type CleanedData,
} from './field.js';
export {
  StringField,
  TextAreaField,
  EmailField,
  PhoneField,
  UrlField,
  SlugField,
  type StringFieldOptions,
  type LengthOptions,
  type PhoneFormat,
} from './fields-text.js';
export { IntegerField, FloatField, DecimalField, type IntegerFieldOptions, type FloatFieldOptions, type DecimalFieldOptions } from './fields-number.js';
export {
  BooleanField,
  ChoiceField,
  RelationField,
  RelatedIdsField,
  type BooleanFieldOptions,
  type ChoiceFieldOptions,
  type RelationFieldOptions,
  type RelationKey,
} from './fields-choice.js';
export { DateField, DateTimeField, TimeField } from './fields-date.js';
export { LinkRowsField, type LinkRow, type LinkRowsFieldOptions, type LinkRowContext, type LinkInputContext } from './fields-links.js';
export { FileField, ImageField, IMAGE_EXTENSIONS, IMAGE_MIME_TYPES, type FileFieldOptions } from './fields-file.js';
export { FormValidationError, FormDefinitionError, UnknownFieldError } from './errors.js';
export { messages as formMessages, formatSize } from './messages.js';
