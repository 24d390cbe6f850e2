/**
 * Static public pages on `PagesController` (`mvc/controllers/pages_controller.ts`, manual): `fw make:public-page
 * <name>` (template `mvc/views/<name>/index.html`, route `GET /<name>` named `public.page.<name>`) and
 * `fw make:public-contact` (template `mvc/views/pages/contact.html`, route `GET /contact` named `public.contact`).
 */
import { escape } from '../crud/views-common.js';
import type { ControllerPart } from '../codemods/controller-edit.js';

export const PAGES_CONTROLLER = 'PagesController';
export const PAGES_CONTROLLER_FILE = 'mvc/controllers/pages_controller.ts';

/** A page name: lowercase letters, digits and dashes, no dash at either end nor two in a row. */
export const PAGE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Static members every class has (a static method of that name would not compile), and BaseController's own. */
const TAKEN_METHODS = new Set([
  'name',
  'length',
  'prototype',
  'caller',
  'arguments',
  'apply',
  'call',
  'bind',
  'constructor',
  'toString',
  'render',
  'redirect',
  'redirectWithFlash',
  'setFlash',
  'json',
]);

export interface PagePlan {
  readonly name: string;
  /** `a-propos` → `aPropos`; `2024` → `page2024`; a name every class already has gets `Page`. */
  readonly method: string;
  readonly title: string;
  readonly template: string;
  readonly path: string;
  readonly routeName: string;
}

/**
 * Words of page names written without their accents (a name is ASCII), given back when the title is derived:
 * `a-propos` → « À propos », `mentions-legales` → « Mentions légales ». `--title` sets any other title.
 */
const ACCENTED: Readonly<Record<string, string>> = {
  a: 'à',
  accessibilite: 'accessibilité',
  activites: 'activités',
  actualites: 'actualités',
  confidentialite: 'confidentialité',
  equipe: 'équipe',
  evenements: 'événements',
  generales: 'générales',
  legales: 'légales',
  presentation: 'présentation',
  realisations: 'réalisations',
  references: 'références',
  securite: 'sécurité',
  societe: 'société',
};

/** The title derived from a page name: dashes become spaces, known words get their accents, first letter capital. */
export function pageTitle(name: string): string {
  const spaced = name
    .split('-')
    .map((word) => ACCENTED[word] ?? word)
    .join(' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * What is wrong with a `--title`, or null: it goes as text into the template, so it must be one line, and must not
 * open a template tag (`{{`, `{%`, `{#`).
 */
export function titleProblem(title: string): string | null {
  if (title.trim() === '') return 'le titre est vide';
  if (/[\u0000-\u001f\u007f]/.test(title)) return 'le titre contient un saut de ligne ou un caractère de contrôle';
  const tag = /\{[{%#]/.exec(title);
  if (tag) return `le titre contient « ${tag[0]} », qui ouvrirait une balise du gabarit`;
  return null;
}

export function pagePlan(name: string, title?: string): PagePlan {
  let method = name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  if (/^[0-9]/.test(method)) method = `page${method}`;
  if (TAKEN_METHODS.has(method)) method = `${method}Page`;
  return {
    name,
    method,
    title: title?.trim() || pageTitle(name),
    template: `mvc/views/${name}/index.html`,
    path: `/${name}`,
    routeName: `public.page.${name}`,
  };
}

export function pagesControllerSkeleton(): string {
  return `// Static public pages (fw make:public-page <name>, fw make:public-contact): no login needed. This file is yours: the
// generators create it once, then only add the methods it lacks (through its syntax tree), never changing the
// ones already here. See docs/generators.md.
import { BaseController, type Request, type Response } from 'fw-mvc';

export class ${PAGES_CONTROLLER} extends BaseController {
}
`;
}

const IMPORTS = [
  { from: 'fw-mvc', name: 'BaseController' },
  { from: 'fw-mvc', name: 'Request', typeOnly: true },
  { from: 'fw-mvc', name: 'Response', typeOnly: true },
];

function renderMethod(method: string, path: string, routeName: string, template: string, origin: string): ControllerPart {
  return {
    imports: IMPORTS,
    before: [],
    methods: [
      {
        name: method,
        text: `  /** GET ${path} (${routeName}, ${origin}). */
  static ${method}(request: Request): Response {
    return BaseController.render('${template.replace(/^mvc\/views\//, '')}', { request });
  }`,
      },
    ],
    after: [],
  };
}

export function pagePart(page: PagePlan): ControllerPart {
  return renderMethod(page.method, page.path, page.routeName, page.template, `fw make:public-page ${page.name}`);
}

/** The page's template: its title and a paragraph, in the public layout; written once, then yours. */
export function emitPageView(page: PagePlan): string {
  const title = escape(page.title);
  return `{#- Public page « ${page.name} » (fw make:public-page ${page.name}), served at ${page.path}. This file is yours: write the page here. -#}
{% extends "layouts/public.html" %}
{% block title %}${title}{% endblock %}
{% block content %}
<section class="mx-auto max-w-3xl py-8">
  <h1 class="text-3xl font-bold tracking-tight text-gray-900">${title}</h1>
  <p class="mt-4 text-lg text-gray-700">{{ trans('public.page.generated') }}</p>
</section>
{% endblock %}
`;
}

export const CONTACT_PAGE = {
  method: 'contact',
  path: '/contact',
  routeName: 'public.contact',
  template: 'mvc/views/pages/contact.html',
} as const;

export function contactPart(): ControllerPart {
  return renderMethod(CONTACT_PAGE.method, CONTACT_PAGE.path, CONTACT_PAGE.routeName, CONTACT_PAGE.template, 'fw make:public-contact');
}

/** The contact page: title, introduction, contact and address blocks with placeholder values to replace; no form. */
export function emitContactView(): string {
  const card = 'rounded-lg border border-gray-200 bg-white p-6';
  const h2 = 'text-lg font-semibold text-gray-900';
  return `{#- Contact page (fw make:public-contact), served at /contact. This file is yours: replace the placeholder e-mail address,
    telephone number and address (public.contact.address_placeholder) with your own. It processes nothing. -#}
{% extends "layouts/public.html" %}
{% block title %}{{ trans('public.contact.title') }}{% endblock %}
{% block content %}
<section class="mx-auto max-w-3xl py-8">
  <h1 class="text-3xl font-bold tracking-tight text-gray-900">{{ trans('public.contact.title') }}</h1>
  <p class="mt-4 text-lg text-gray-700">{{ trans('public.contact.intro') }}</p>
  <div class="mt-8 grid gap-6 md:grid-cols-2">
    <section class="${card}" aria-labelledby="contact-coordinates">
      <h2 id="contact-coordinates" class="${h2}">{{ trans('public.contact.coordinates') }}</h2>
      <dl class="mt-4 space-y-3 text-sm">
        <div>
          <dt class="font-medium text-gray-600">{{ trans('public.contact.email_label') }}</dt>
          <dd class="mt-1"><a href="mailto:contact@exemple.fr" class="font-medium text-blue-700 hover:underline">contact@exemple.fr</a></dd>
        </div>
        <div>
          <dt class="font-medium text-gray-600">{{ trans('public.contact.phone') }}</dt>
          <dd class="mt-1"><a href="tel:+33100000000" class="font-medium text-blue-700 hover:underline">01 00 00 00 00</a></dd>
        </div>
      </dl>
    </section>
    <section class="${card}" aria-labelledby="contact-address">
      <h2 id="contact-address" class="${h2}">{{ trans('public.contact.address') }}</h2>
      <address class="mt-4 text-sm not-italic text-gray-700">{{ trans('public.contact.address_placeholder') }}</address>
    </section>
  </div>
</section>
{% endblock %}
`;
}
