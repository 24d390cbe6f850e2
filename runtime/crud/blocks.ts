/**
 * Building blocks of the CRUD pages: list state, CSV export, bulk ids, relation choices, links, references. The core
 * `fw-mvc` exports them (older generated controllers and models call them); `fw-mvc/crud` (index.ts) adds the actions
 * and queries built on them (docs/decisions.md "The CRUD in the runtime").
 */
export {
  ListQuery,
  UnknownFilterError,
  escapeLike,
  textOrder,
  withQuery,
  type ListSpec,
  type ListFilterSpec,
  type FilterKind,
  type SqlFragment,
  type EmptyContext,
} from './list-query.js';
export {
  KEYS_FIRST_OFFSET,
  LIST_COUNT_MAX,
  LIST_COUNT_TTL_MS,
  forgetListCounts,
  keysFirstSql,
  listCount,
  listPage,
  listRowsQuery,
  type ListPageSql,
} from './list-page.js';
export { csvCell, csvResponse, toCsv, CSV_MAX_ROWS } from './csv.js';
export { IDS_MAX, PLACEHOLDERS_MAX, parseId, parseIds, placeholders } from './ids.js';
export { htmxRedirect, htmxTarget, isHtmx } from './htmx.js';
export { CHOICES_MAX, missingChoiceKeys, type ChoiceKeyKind } from './choices.js';
export {
  linkDetails,
  linkedIds,
  linkRowKeys,
  linkRows,
  replaceLinks,
  relatedKeys,
  saveLinkRows,
  type LinkDetail,
  type LinkDetailField,
  type LinkSpec,
  type PivotLink,
} from './links.js';
export { InUseError, assertUnreferenced, findReferences, inUseError, inUseMessage, type Blocking, type ReferenceSpec } from './references.js';
