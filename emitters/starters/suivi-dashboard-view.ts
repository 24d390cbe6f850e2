/**
 * The view of the `suivi` starter's dashboard (docs/starters.md): the counts, the latest observations with their
 * flags as badges and their remark, and the table of flags per pupil with its class filter. Manual file.
 */
import { accountCards } from './account-views.js';
import { INPUT, PRIMARY, SECONDARY } from '../crud/views-common.js';
import type { SuiviDashboardSpec } from './suivi-dashboard.js';

const CARD = 'rounded-lg border border-gray-200 bg-white p-5 shadow-xs';
const BADGE = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium';
const POSITIVE = `${BADGE} bg-green-100 text-green-800`;
const NEGATIVE = `${BADGE} bg-amber-100 text-amber-800`;
const STAT = 'block rounded-lg border border-gray-200 bg-white p-3 shadow-xs hover:border-blue-300 hover:bg-blue-50 sm:p-5';

export function emitSuiviDashboardView(spec: SuiviDashboardSpec, command: string): string {
  const pupils = `/${spec.pupilsPlural}`;
  const courses = `/${spec.courses.plural}`;
  const observations = `/${spec.observations.plural}`;
  const stat = (id: string, label: string, href: string) => `  <a href="${href}" class="${STAT}">
    <span class="block truncate text-xs text-gray-600 sm:text-sm">${label}</span>
    <span class="mt-1 block text-2xl font-semibold text-gray-900 sm:text-3xl" id="count-${id}">{{ counts.${id} }}</span>
  </a>`;
  return `{#- The dashboard of the behaviour record (GET /dashboard, behind login). Variables: user (the session user),
    counts (eleves, cours, observations), latest (the latest observations), flags (name, label, positive), totals (per
    pupil: observations and each flag), classes, classe (the class chosen, or ''). This file is yours: \`${command}\`
    created it and never overwrites it (unless --force). -#}
{% extends "layouts/app.html" %}
{% block content %}
<div class="flex flex-wrap items-center justify-between gap-4">
  <div>
    <h1 class="text-2xl font-semibold text-gray-900">Tableau de bord</h1>
    <p class="mt-1 text-gray-700">Bonjour <strong id="dashboard-user">{{ user.login }}</strong>.</p>
  </div>
  <a href="${observations}/new" class="${PRIMARY}" id="new-observation">Nouvelle observation</a>
</div>

<div class="mt-6 grid grid-cols-3 gap-3 sm:gap-6">
${stat('eleves', 'Élèves', pupils)}
${stat('cours', 'Cours', courses)}
${stat('observations', 'Observations', observations)}
</div>

<section class="mt-8" aria-labelledby="latest-title">
  <div class="flex flex-wrap items-baseline justify-between gap-2">
    <h2 id="latest-title" class="text-lg font-semibold text-gray-900">Dernières observations</h2>
    <a href="${observations}" class="text-sm font-medium text-blue-700 hover:underline">Toutes les observations</a>
  </div>
  {% if latest.length %}
  <ul class="mt-3 space-y-3" id="latest-observations">
    {% for obs in latest %}
    <li class="${CARD}">
      <div class="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <a href="${observations}/{{ obs.id }}" class="font-semibold text-gray-900 hover:underline">{{ obs.eleve }} <span class="font-normal text-gray-500">({{ obs.classe }})</span></a>
        <span class="w-full text-sm text-gray-500 sm:w-auto">{{ obs.when }}</span>
      </div>
      <p class="mt-1 text-sm text-gray-600">{{ obs.cours }}</p>
      {% if obs.flags.length %}
      <ul class="mt-3 flex flex-wrap gap-2" aria-label="Comportements observés">
        {% for flag in obs.flags %}<li class="{{ '${POSITIVE}' if flag.positive else '${NEGATIVE}' }}">{{ flag.label }}</li>{% endfor %}
      </ul>
      {% endif %}
      {% if obs.remarque %}<p class="mt-3 whitespace-pre-line border-l-4 border-gray-200 pl-3 text-sm text-gray-700">{{ obs.remarque }}</p>{% endif %}
    </li>
    {% endfor %}
  </ul>
  {% else %}
  <p class="mt-3 ${CARD} text-sm text-gray-600" id="latest-observations">Aucune observation pour l’instant. <a href="${observations}/new" class="font-medium text-blue-700 hover:underline">Enregistrer la première</a>.</p>
  {% endif %}
</section>

<section class="mt-8" aria-labelledby="totals-title">
  <div class="flex flex-wrap items-end justify-between gap-3">
    <h2 id="totals-title" class="text-lg font-semibold text-gray-900">Comportements par élève</h2>
    {% if classes.length %}
    <form method="get" action="/dashboard" class="flex items-end gap-2">
      <div>
        <label for="dashboard-classe" class="mb-1 block text-xs font-medium text-gray-600">Classe</label>
        <select id="dashboard-classe" name="classe" class="${INPUT}">
          <option value="">Toutes</option>
          {% for name in classes %}<option value="{{ name }}"{% if name == classe %} selected{% endif %}>{{ name }}</option>{% endfor %}
        </select>
      </div>
      <button type="submit" class="${SECONDARY}">Afficher</button>
    </form>
    {% endif %}
  </div>
  {% if totals.length %}
  <div class="mt-3 overflow-x-auto rounded-lg border border-gray-200 bg-white shadow-xs">
    <table class="min-w-full text-left text-sm" id="pupil-totals">
      <thead class="bg-gray-50">
        <tr>
          <th scope="col" class="sticky left-0 border-b border-gray-200 bg-gray-50 px-4 py-3 font-semibold text-gray-700">Élève</th>
          <th scope="col" class="border-b border-gray-200 px-3 py-3 text-right font-semibold text-gray-700">Observations</th>
          {% for flag in flags %}<th scope="col" class="border-b border-gray-200 px-3 py-3 text-right font-semibold text-gray-700">{{ flag.label }}</th>{% endfor %}
        </tr>
      </thead>
      <tbody>
        {% for row in totals %}
        <tr class="border-b border-gray-100 last:border-b-0 hover:bg-gray-50" data-eleve="{{ row.id }}">
          <th scope="row" class="sticky left-0 whitespace-nowrap bg-white px-4 py-3 font-medium text-gray-900"><a href="${pupils}/{{ row.id }}" class="hover:underline">{{ row.eleve }}</a> <span class="font-normal text-gray-500">{{ row.classe }}</span></th>
          <td class="px-3 py-3 text-right tabular-nums text-gray-900" data-flag="observations">{{ row.observations }}</td>
          {% for flag in flags %}
          <td class="px-3 py-3 text-right tabular-nums" data-flag="{{ flag.name }}">{% if row[flag.name] %}<span class="{{ '${POSITIVE}' if flag.positive else '${NEGATIVE}' }}">{{ row[flag.name] }}</span>{% else %}<span class="text-gray-400">0</span>{% endif %}</td>
          {% endfor %}
        </tr>
        {% endfor %}
      </tbody>
    </table>
  </div>
  {% else %}
  <p class="mt-3 ${CARD} text-sm text-gray-600" id="pupil-totals">{{ "Aucun élève de cette classe n’a d’observation." if classe else "Aucun élève n’a encore d’observation." }}</p>
  {% endif %}
</section>

<div class="mt-8 grid gap-6 md:grid-cols-2">
${accountCards(CARD)}
</div>
{% endblock %}
`;
}
