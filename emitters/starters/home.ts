/**
 * The home page of a project built by starters (docs/starters.md "The home page"): a card for each entry of the
 * application's menu that the visitor may open (`menu()`, docs/runtime.md "The menu"), with the description of the
 * starters' pages, and the sign-in state when the login routes are there. Regenerable: every starter build rewrites it
 * from what the project holds while it keeps its marker line; a user who removes the line owns it.
 */
import { templateMarkerLine } from '../marker.js';
import { PRIMARY } from '../crud/views-common.js';

export const HOME_VIEW = 'mvc/views/home/index.html';

/** The line under a menu entry's label on its card, by the entry's path. */
export interface HomeDescription {
  readonly href: string;
  readonly description: string;
}

export interface HomeFeatures {
  /** The command that rewrites the page (in its marker line). */
  readonly command: string;
  /** `registerAuthRoutes` is wired: the page shows who is signed in, or the sign-in button. */
  readonly login: boolean;
  readonly descriptions: readonly HomeDescription[];
}

/** A nunjucks dict literal: the descriptions by path (JSON strings are nunjucks strings). */
function descriptionsDict(descriptions: readonly HomeDescription[]): string {
  if (descriptions.length === 0) return '{}';
  const lines = descriptions.map((entry) => `  ${JSON.stringify(entry.href)}: ${JSON.stringify(entry.description)}`);
  return `{\n${lines.join(',\n')}\n}`;
}

const CARD = 'block rounded-lg border border-gray-200 bg-white p-5 shadow-xs hover:border-blue-300 hover:bg-blue-50';

export function emitStarterHome(features: HomeFeatures): string {
  const login = features.login
    ? `
{% if current_user %}
<p class="mt-4 text-gray-700">Connecté en tant que <strong id="home-user">{{ current_user.login }}</strong>.</p>
{% else %}
<p class="mt-4 text-gray-700">Connectez-vous pour accéder aux pages de l’application.</p>
<p class="mt-4"><a href="/login" class="${PRIMARY}" id="home-login">Se connecter</a></p>
{% endif %}`
    : '';
  return `${templateMarkerLine(features.command)}
{#- Home page (GET /, HomeController.index). Remove the line above to make it yours: starters then leave it alone. -#}
{% extends "layouts/app.html" %}
{% block content %}
{#- One card per menu entry the visitor may open (docs/runtime.md "The menu"): router.menu() in mvc/routes.ts. -#}
{%- set pages = menu() %}
{%- set descriptions = ${descriptionsDict(features.descriptions)} %}
<section class="mx-auto max-w-3xl py-6">
<h1 class="text-3xl font-bold text-gray-900">{{ app_name or trans('app.name') }}</h1>${login}
{% if pages | length %}
<ul class="mt-8 grid gap-4 sm:grid-cols-2" id="home-links">
{%- for page in pages %}
  <li>
    <a href="{{ page.href }}" class="${CARD}">
      <span class="block font-semibold text-gray-900">{{ page.label }}</span>
      {%- if descriptions[page.href] %}
      <span class="mt-1 block text-sm text-gray-600">{{ descriptions[page.href] }}</span>
      {%- endif %}
    </a>
  </li>
{%- endfor %}
</ul>
{% endif %}
<p class="mt-10 text-sm text-gray-500">Pages générées par fw-mvc (« fw routes:list » les liste toutes).</p>
</section>
{% endblock %}
`;
}
