/**
 * The TypeScript names the framework owns, which an entity may not take (docs/entities.md "Limits and reserved
 * names"): a generated file imports names of `fw-mvc` and of its subpaths, declares its own, and uses the
 * globals of TypeScript and Node; an entity class (or a class generated from its name, `<Entity>Controller`…)
 * named like one of them would hide it, and the project would no longer type-check.
 *
 * test/compiler-framework-names.test.ts checks this list against the exports of the runtime's entries, and
 * test/generator-definitions-chain.test.ts against every name the generated files import, declare or use.
 */

/** PascalCase names exported by `fw-mvc`, `fw-mvc/crud`, `fw-mvc/auth`, `fw-mvc/media`, `fw-mvc/rbac`, `fw-mvc/mfa`, `fw-mvc/mail`. */
// prettier-ignore
export const FRAMEWORK_EXPORTS: readonly string[] = [
  'AccessCheck', 'AddressInput', 'ApiRoutesImportError', 'Application', 'ApplicationOptions', 'AttemptOutcome', 'AttemptTicket', 'AuthEventDetails', 'AuthMiddleware',
  'AuthTable', 'AuthUser', 'BadRequestError', 'BaseController', 'Blocking', 'BooleanField', 'BooleanFieldOptions', 'CheckLimitOptions',
  'Choice', 'ChoiceField', 'ChoiceFieldOptions', 'ChoiceKeyKind', 'ChoiceOption', 'Cleaned', 'CleanedData', 'CleanedValue',
  'ConfigKey', 'ConfigKeyError', 'ConfigValues', 'Connection', 'Context', 'CoverMediaOptions', 'CrudAction', 'CrudActionName',
  'CrudChoices', 'CrudControllerOptions', 'CrudControllerShape', 'CrudDescription', 'CrudDetail', 'CrudDetailField', 'CrudDetailLinks', 'CrudDetailValue',
  'CrudEntityClass', 'CrudFilterOption', 'CrudFormClass', 'CrudLinkDescription', 'CrudLinks', 'CrudMediaPages', 'CrudMediaSubmission', 'CrudModelClass',
  'CrudModelOptions', 'CrudOrder', 'CrudPage', 'CrudPageName', 'CrudPermission', 'CrudPivotDefault', 'CrudRecord', 'CrudResource',
  'CrudRow', 'CrudShow', 'CsrfMiddleware', 'Database',
  'DatabaseOptions', 'DatabaseRateLimitStore', 'DatabaseRateLimitStoreOptions', 'DatabaseSessionStore', 'DatabaseSessionStoreOptions', 'DatabaseUnavailableError', 'DateField', 'DateTimeField',
  'DecimalField', 'DecimalFieldOptions', 'DeleteMediaOptions', 'Dialect', 'DialectName', 'DriverValue', 'DuplicateError', 'EmailField',
  'EmptyContext', 'EntityId', 'EnvSyntaxError', 'Field', 'FieldContext', 'FieldInput', 'FieldMap', 'FieldOptions',
  'FieldState', 'FileField', 'FileFieldOptions', 'FileSessionStore', 'FileSessionStoreOptions', 'FilterKind', 'Flash', 'FlashLevel',
  'FloatField', 'FloatFieldOptions', 'ForeignKeyError', 'Form', 'FormClass', 'FormContext', 'FormDefinitionError', 'FormInput',
  'FormInputValue', 'FormOptions', 'FormValidationError', 'Handler', 'HtmlAttrs', 'HttpError', 'ImageField', 'InUseError',
  'IntegerField', 'IntegerFieldOptions', 'LegacyCrudNames', 'LengthOptions', 'LimitStatus', 'LinkDetail', 'LinkDetailField', 'LinkInputContext', 'LinkRow',
  'LinkRowContext', 'LinkRowsField', 'LinkRowsFieldOptions', 'LinkSpec', 'ListFilterSpec', 'ListPageSql', 'ListQuery', 'ListSpec',
  'LogContext', 'LogFormatError', 'LogRecord', 'MailAddress', 'MailAddressError', 'MailInput', 'MailJobPayload', 'MailMessage', 'MailRelated', 'MailSendError', 'MailSender',
  'MailSenderOptions', 'MailStatus', 'MailTemplateError', 'MailTransport', 'MariaDbOptions', 'MariaDbSessionStore', 'MediaEntry', 'MediaFieldContext',
  'MediaFormItem', 'MediaItem', 'MediaNotAttachedError', 'MediaOwner', 'MediaPages', 'MediaReadRule', 'MediaRecord', 'MediaRecordOptions',
  'MediaRemoval', 'MediaShowContext', 'MediaShowItem', 'MediaSubmission', 'MediaThumbnail', 'MediaVariantsJob', 'MemoryRateLimitStore', 'MemoryRateLimitStoreOptions', 'MemorySessionStore', 'MenuEntry', 'MenuItem', 'MenuOptions',
  'MfaChallengeState', 'MfaDb', 'MfaFactor', 'MfaFactorStatus', 'MfaVerification', 'Middleware', 'MultiMap', 'NewMediaFile',
  'NewUser', 'NunjucksRenderer', 'OutgoingMessage', 'OwnedMediaChanges', 'PageLink', 'PageLinkParam', 'Pagination', 'PaginationContext',
  'PaginationDict', 'PaginationOptions', 'Params', 'PasswordPolicyError', 'Permission', 'PhoneField', 'PhoneFormat', 'PivotLink',
  'PreparedMail', 'ProfileMessages', 'ProfilePages', 'ProfilePagesOptions', 'ProfilePasswordErrors', 'QueryFileError', 'QueryMap', 'QueryParameterError',
  'Queryable', 'QueuedMail', 'QueuedPayload', 'RateLimitAttempt', 'RateLimitCount', 'RateLimitCounting', 'RateLimitReservation', 'RateLimitStore', 'RateLimitStoreName',
  'RecordReadAccess', 'RecordTable', 'RedisConnection', 'RedisRateLimitStore', 'RedisRateLimitStoreOptions', 'RedisSessionStore', 'RedisSessionStoreOptions', 'RedisUnavailableError',
  'ReferenceSpec', 'RelatedIdsField', 'RelationField', 'RelationFieldOptions', 'RelationKey', 'RenderedMail', 'Request', 'RequestEntityTooLarge',
  'RequestSession', 'ReserveAttemptOptions', 'ResetTokenRefusal', 'ResetTokenRow', 'Response', 'Role', 'RoleRow', 'RoleSummary',
  'RouteEntry', 'RouteError', 'RouteGroup', 'RouteOptions', 'Router', 'Row', 'SaveUploadOptions', 'SavedUpload',
  'SecondFactor', 'SendMailNowOptions', 'SendMailOptions', 'SendResult', 'SerializationError', 'ServeMediaOptions', 'ServeOptions', 'SessionData',
  'SealedMessageError', 'SessionStore', 'SessionStoreName', 'SessionUser', 'SlugField', 'SmtpOptions', 'SqlFragment', 'SqliteOptions', 'StringField',
  'StringFieldOptions', 'SubmittedValues', 'TemplateError', 'TemplateMailMessage', 'TemplateManager', 'TemplateRenderer', 'TextAreaField', 'TextInputField',
  'TimeField', 'TooManyFieldsError', 'TooManyIdsError', 'Transaction', 'TrustedProxies', 'TrustedProxiesError', 'UnavailableReason', 'UnknownFieldError',
  'UnknownFilterError', 'UnknownRoleError', 'UnknownUserError', 'UploadError', 'UploadInvalidExtensionError', 'UploadInvalidImageError', 'UploadInvalidMimeTypeError', 'UploadMetadata',
  'UploadPathError', 'UploadStorageError', 'UploadStorageUnavailableError', 'UploadTooLargeError', 'UploadTooManyPixelsError', 'UploadedFile', 'UrlField', 'UserAccess', 'Validator',
  'VariantName',
];

/**
 * Names the generated files declare beside the entity-derived ones: the controllers of `fw new` (HomeController),
 * of `make:public-page` (PagesController) and of the starters, the constants of the public pages
 * (emitters/public/entity-controller.ts) and of the crud modules. An entity `Home` would make a second
 * `HomeController`; an entity `List` a second `ListRow` beside the crud module's.
 */
// prettier-ignore
export const GENERATED_DECLARATIONS: readonly string[] = [
  'HomeController', 'PagesController', 'DashboardController', 'DashboardModel', 'ProfileController',
  'FORM_FIELDS', 'INSERT_PUBLIC_FORM', 'SELECT_PUBLIC_LIST', 'SELECT_PUBLIC_SHOW',
  // The older names of a crud module (emitters/crud/description.ts, while a project file imports them) and its controller:
  'BASE', 'COUNT', 'CSV_FILE', 'CSV_HEADER', 'INSERT', 'KEY', 'KEY_COLUMN', 'LABEL', 'LINKS', 'LIST', 'Links', 'ListRow',
  'REFERENCES', 'ROLES', 'SELECT', 'TABLE', 'TITLE', 'UNIQUE_KEYS', 'UPDATE',
  // The media pages of a crud module (emitters/crud/media-views.ts) and the suivi starter's dashboard model:
  'MEDIA', 'FLAGS', 'TOTALS_MAX', 'Counts', 'FlagName', 'LatestObservation', 'PupilTotals',
];

/** TypeScript's global types that are not JavaScript values (the values are read from globalThis below). */
// prettier-ignore
export const TYPESCRIPT_GLOBAL_TYPES: readonly string[] = [
  'Awaited', 'Capitalize', 'ConstructorParameters', 'Exclude', 'Extract', 'InstanceType', 'Lowercase', 'NoInfer',
  'NonNullable', 'Omit', 'OmitThisParameter', 'Parameters', 'Partial', 'Pick', 'Readonly', 'Record', 'Required',
  'ReturnType', 'ThisParameterType', 'ThisType', 'Uncapitalize', 'Uppercase',
  'ArrayBufferLike', 'ArrayBufferView', 'ArrayLike', 'AsyncGenerator', 'AsyncGeneratorFunction', 'AsyncIterable',
  'AsyncIterableIterator', 'AsyncIterator', 'CallableFunction', 'ClassDecorator', 'ConcatArray', 'Generator',
  'GeneratorFunction', 'Iterable', 'IterableIterator', 'Iterator', 'IteratorResult', 'IteratorReturnResult',
  'IteratorYieldResult', 'MethodDecorator', 'NewableFunction', 'ParameterDecorator', 'PromiseConstructorLike',
  'PromiseLike', 'PromiseSettledResult', 'PromiseFulfilledResult', 'PromiseRejectedResult', 'PropertyDecorator',
  'PropertyDescriptor', 'PropertyDescriptorMap', 'PropertyKey', 'ReadonlyArray', 'ReadonlyMap', 'ReadonlySet',
  'RegExpMatchArray', 'RegExpExecArray', 'TemplateStringsArray', 'TypedPropertyDescriptor', 'WeakKey',
  'NodeJS', 'NodeRequire', 'BufferEncoding', 'Console', 'Global', 'Symbol',
];

/** The PascalCase values of the running JavaScript's global object (Object, Date, Request, Response, URL…). */
function javascriptGlobals(): string[] {
  return Object.getOwnPropertyNames(globalThis).filter((name) => /^[A-Z]/.test(name));
}

let reserved: ReadonlySet<string> | undefined;

/** Every name of this file, with the globals of the running JavaScript. */
export function frameworkNames(): ReadonlySet<string> {
  reserved ??= new Set([...FRAMEWORK_EXPORTS, ...GENERATED_DECLARATIONS, ...TYPESCRIPT_GLOBAL_TYPES, ...javascriptGlobals()]);
  return reserved;
}

/** What the generated files name after an entity `E` besides `E` itself (emitters/base-class.ts, emitters/crud/…). */
export const ENTITY_CLASS_SUFFIXES: readonly string[] = ['Base', 'Data', 'Row', 'Controller', 'Form', 'Model', 'ListRow', 'PublicController', 'PublicForm'];

/** The constants generated after an entity's snake name in upper case (`CONTACT_LIST`, `CONTACT_FIELDS`). */
export const ENTITY_CONSTANT_SUFFIXES: readonly string[] = ['_LIST', '_FIELDS'];

/** Every TypeScript name the generated files derive from an entity name and its snake form. */
export function entityDerivedNames(name: string, snake: string): string[] {
  return [name, ...ENTITY_CLASS_SUFFIXES.map((s) => `${name}${s}`), ...ENTITY_CONSTANT_SUFFIXES.map((s) => `${snake.toUpperCase()}${s}`)];
}

/** The first name derived from `name` that the framework owns, or undefined when the entity may take that name. */
export function frameworkNameClash(name: string, snake: string): string | undefined {
  const names = frameworkNames();
  return entityDerivedNames(name, snake).find((derived) => names.has(derived));
}
