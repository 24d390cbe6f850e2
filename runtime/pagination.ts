/**
 * Pagination of lists (docs/crud.md "The list page"; the old names `par_page` → `perPage`, `nb_pages` →
 * `pageCount`, `to_dict()` → `toDict()`: docs/decisions.md#names-in-typescript, docs/api-mapping.md "Pagination").
 */
import { get } from './config.js';
import type { Request } from './http/request.js';
import { formQuery, type QueryValue } from './http/url-encoded.js';

/** A query parameter kept in page links; empty values (`null`, `undefined`, `''`) are left out. */
export type PageLinkParam = QueryValue;

export interface PaginationOptions {
  /** Query parameters that page links keep (`q`, `sort`, `direction`, filters); a `page` entry is ignored. */
  params?: Readonly<Record<string, PageLinkParam>>;
}

/** The plain data of a pagination (`toDict()`). */
export type PaginationDict = {
  total: number;
  perPage: number;
  pageCount: number;
  page: number;
  limit: number;
  offset: number;
  /** Page numbers to show; `null` marks a gap (rendered `…`). */
  pages: Array<number | null>;
  hasPrev: boolean;
  hasNext: boolean;
  prevPage: number | null;
  nextPage: number | null;
};

/** One entry of `context().links`: a page link, or a gap (`page` and `url` null). */
export type PageLink = {
  page: number | null;
  url: string | null;
  current: boolean;
};

/** What templates get (`components/pagination.html` reads `page`, `pageCount`, `pages`, `hasPrev`, `hasNext`, `url`). */
export type PaginationContext = PaginationDict & {
  /** The link prefix to which `page=N` is appended: `?` or `?q=x&sort=nom&`. */
  url: string;
  prevUrl: string | null;
  nextUrl: string | null;
  links: PageLink[];
  /** `css_visible` when there is a previous (next) page, `css_hidden` otherwise. */
  prevClass: string;
  nextClass: string;
  cssVisible: string;
  cssHidden: string;
  /** `urlFor(n)` from a template: the link of any page. */
  urlFor: (page: number) => string;
};

/** Up to this many page numbers, all are listed; beyond, a window of 7 entries with gaps. */
const ALL_PAGES_UP_TO = 7;

/**
 * One page of a list. The page comes from the query parameter `page`: absent, not a plain number, or below 1
 * gives 1; above the last page gives the last page. `limit` and `offset` go straight into the SQL.
 */
export class Pagination {
  readonly total: number;
  readonly perPage: number;
  readonly pageCount: number;
  readonly page: number;
  readonly limit: number;
  readonly offset: number;
  /**
   * Page numbers to show. Up to 7 pages, all of them; beyond, always 7 entries: the first and last pages,
   * the current one with its neighbours, and `null` for each gap: page 5 of 20 → [1, null, 4, 5, 6, null, 20];
   * page 2 → [1, 2, 3, 4, 5, null, 20]; page 19 → [1, null, 16, 17, 18, 19, 20].
   */
  readonly pages: Array<number | null>;
  private readonly linkQuery: string;

  constructor(request: Pick<Request, 'params'>, total: number | bigint, perPage = 20, options: PaginationOptions = {}) {
    const count = Number(total);
    if (!Number.isSafeInteger(count) || count < 0)
      throw new RangeError(`Pagination : total invalide (${String(total)}), un entier positif ou nul est attendu.`);
    if (!Number.isSafeInteger(perPage) || perPage < 1)
      throw new RangeError(`Pagination : perPage invalide (${String(perPage)}), un entier strictement positif est attendu.`);
    this.total = count;
    this.perPage = perPage;
    this.pageCount = Math.max(1, Math.ceil(count / perPage));
    this.page = Math.min(requestedPage(request.params.page?.[0]), this.pageCount);
    this.limit = perPage;
    this.offset = (this.page - 1) * perPage;
    this.pages = pageWindow(this.page, this.pageCount);
    this.linkQuery = formQuery(options.params ?? {}, 'page');
  }

  get hasPrev(): boolean {
    return this.page > 1;
  }

  get hasNext(): boolean {
    return this.page < this.pageCount;
  }

  get prevPage(): number | null {
    return this.hasPrev ? this.page - 1 : null;
  }

  get nextPage(): number | null {
    return this.hasNext ? this.page + 1 : null;
  }

  /** The link of a page: `?<params>&page=N`, params sorted by name (so the same list gives the same URL). */
  urlFor(page: number): string {
    return `${this.linkPrefix()}page=${page}`;
  }

  toDict(): PaginationDict {
    return {
      total: this.total,
      perPage: this.perPage,
      pageCount: this.pageCount,
      page: this.page,
      limit: this.limit,
      offset: this.offset,
      pages: [...this.pages],
      hasPrev: this.hasPrev,
      hasNext: this.hasNext,
      prevPage: this.prevPage,
      nextPage: this.nextPage,
    };
  }

  /** `toDict()` plus links and the `css_visible` / `css_hidden` classes of the previous and next elements. */
  context(): PaginationContext {
    const visible = get('css_visible');
    const hidden = get('css_hidden');
    const dict = this.toDict();
    return {
      ...dict,
      url: this.linkPrefix(),
      prevUrl: dict.prevPage === null ? null : this.urlFor(dict.prevPage),
      nextUrl: dict.nextPage === null ? null : this.urlFor(dict.nextPage),
      links: dict.pages.map((page) => ({ page, url: page === null ? null : this.urlFor(page), current: page === this.page })),
      prevClass: dict.hasPrev ? visible : hidden,
      nextClass: dict.hasNext ? visible : hidden,
      cssVisible: visible,
      cssHidden: hidden,
      urlFor: (page: number) => this.urlFor(page),
    };
  }

  private linkPrefix(): string {
    return this.linkQuery ? `?${this.linkQuery}&` : '?';
  }
}

/** The page asked for: digits only (so `2.5`, `-3`, `abc`, `1e2` give 1), at least 1. */
function requestedPage(raw: string | undefined): number {
  if (raw === undefined || !/^\d+$/.test(raw)) return 1;
  const page = Number(raw);
  return page >= 1 ? page : 1;
}

function pageWindow(page: number, count: number): Array<number | null> {
  const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (count <= ALL_PAGES_UP_TO) return range(1, count);
  if (page <= 4) return [...range(1, 5), null, count];
  if (page >= count - 3) return [1, null, ...range(count - 4, count)];
  return [1, null, page - 1, page, page + 1, null, count];
}
