/**
 * The home page of a project built by starters (docs/starters.md): links to the starters' pages that
 * `mvc/routes.ts` declares, and the sign-in state when the login routes are there. Regenerable: every starter build
 * rewrites it from what the project holds while it keeps its marker line; a user who removes the line owns it.
 */
import { templateMarkerLine } from '../marker.js';
import { PRIMARY } from '../crud/views-common.js';

export const HOME_VIEW = 'mvc/views/home/index.html';

/** A page the home links to. */
export interface HomeLink {
  readonly href: string;
  readonly label: string;
  readonly description: string;
}

export interface HomeFeatures {
  /** The command that rewrites the page (in its marker line). */
  readonly command: string;
  /** `registerAuthRoutes` is wired: the page shows who is signed in, or the sign-in button. */
  readonly login: boolean;
  readonly links: readonly HomeLink[];
}

function linkCard(link: HomeLink): string {
  return `  <li>
    <a href="${link.href}" class="block rounded-lg border border-gray-200 bg-white p-5 shadow-xs hover:border-blue-300 hover:bg-blue-50">
      <span class="block font-semibold text-gray-900">${link.label}</span>
      <span class="mt-1 block text-sm text-gray-600">${link.description}</span>
    </a>
  </li>`;
}

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
  const links = features.links.length
    ? `
<ul class="mt-8 grid gap-4 sm:grid-cols-2" id="home-links">
${features.links.map(linkCard).join('\n')}
</ul>`
    : '';
  return `${templateMarkerLine(features.command)}
{#- Home page (GET /, HomeController.index). Remove the line above to make it yours: starters then leave it alone. -#}
{% extends "layouts/app.html" %}
{% block content %}
<section class="mx-auto max-w-3xl py-6">
<h1 class="text-3xl font-bold text-gray-900">{{ app_name or trans('app.name') }}</h1>${login}${links}
<p class="mt-10 text-sm text-gray-500">Pages générées par fw-mvc (« fw routes:list » les liste toutes).</p>
</section>
{% endblock %}
`;
}
