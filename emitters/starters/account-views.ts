/**
 * The views of the `auth` and `mfa` starters (docs/starters.md): the dashboard, the profile page with its password
 * form, and `account/_mfa.html`, the card that links to the second factor's pages. The dashboard and the profile
 * include that card when it exists (`ignore missing`): the `mfa` starter adds it, so building `mfa` on top of `auth`
 * only adds files. Manual files. Their links are in the menu of `layouts/app.html` (its `nav` block, which these pages
 * leave to the layout: cli/starters/home.ts).
 */
import { CSRF, INPUT, PRIMARY, SECONDARY } from '../crud/views-common.js';

/** The card the `mfa` starter adds, included by the dashboard and the profile. */
export const MFA_CARD_VIEW = 'account/_mfa.html';

const CARD = 'rounded-lg border border-gray-200 bg-white p-6 shadow-xs';

/** The dashboards' "Votre compte" card (link to the profile) and, when the MFA starter wrote it, the second factor's card. */
export function accountCards(card: string): string {
  return `  <section class="${card}">
    <h2 class="text-base font-semibold text-gray-900">Votre compte</h2>
    <p class="mt-3 text-sm text-gray-600">Adresse, dernière connexion et mot de passe.</p>
    <p class="mt-4"><a href="/profile" class="${SECONDARY}">Mon profil</a></p>
  </section>
  {% include "${MFA_CARD_VIEW}" ignore missing %}`;
}

export function emitDashboardView(command: string): string {
  return `{#- The dashboard (GET /dashboard, behind login). Variables: user (the session user: login, roles). This file is
    yours: \`${command}\` created it and never overwrites it (unless --force). -#}
{% extends "layouts/app.html" %}
{% block content %}
<h1 class="text-2xl font-semibold text-gray-900">Tableau de bord</h1>
<p class="mt-2 text-gray-700">Bonjour <strong id="dashboard-user">{{ user.login }}</strong>, vous êtes connecté.</p>
<div class="mt-6 grid gap-6 md:grid-cols-2">
  <section class="${CARD}">
    <h2 class="text-base font-semibold text-gray-900">Vos rôles</h2>
    {% if user.roles and user.roles.length %}
    <ul class="mt-3 flex flex-wrap gap-2" id="dashboard-roles">
      {% for role in user.roles %}<li class="inline-flex items-center rounded-full bg-blue-100 px-2.5 py-0.5 text-xs font-medium text-blue-800">{{ role }}</li>{% endfor %}
    </ul>
    {% else %}
    <p class="mt-3 text-sm text-gray-600" id="dashboard-roles">Aucun rôle (« fw auth:user:role:add » en donne un ; il compte à la connexion suivante).</p>
    {% endif %}
  </section>
${accountCards(CARD)}
</div>
{% endblock %}
`;
}

function passwordInput(name: string, label: string, autocomplete: string): string {
  return `  <div>
    <label for="field-${name}" class="mb-1 block text-sm font-medium text-gray-700">${label}</label>
    <input type="password" id="field-${name}" name="${name}" autocomplete="${autocomplete}" required class="${INPUT}"{% if errors.${name} %} aria-invalid="true" aria-describedby="field-${name}-error"{% endif %}>
    {% if errors.${name} %}<p id="field-${name}-error" class="mt-1 text-sm text-red-600">{{ errors.${name} }}</p>{% endif %}
  </div>`;
}

export function emitProfileView(command: string): string {
  return `{#- The profile (GET /profile, behind login) and the password form (POST /profile/password). Variables: account
    (email, last_login_at, created_at: moments in UTC, shown in the application's time zone by format_date), roles,
    errors (status 422). This file is yours: \`${command}\` created it
    and never overwrites it (unless --force). -#}
{% extends "layouts/app.html" %}
{% block content %}
<h1 class="text-2xl font-semibold text-gray-900">Mon profil</h1>
<div class="mt-6 grid gap-6 md:grid-cols-2">
  <section class="${CARD}">
    <dl class="space-y-4 text-sm">
      <div><dt class="text-gray-500">Adresse e-mail</dt><dd class="mt-1 font-medium text-gray-900" id="profile-email">{{ account.email }}</dd></div>
      <div><dt class="text-gray-500">Rôles</dt><dd class="mt-1 font-medium text-gray-900" id="profile-roles">{{ roles | join(', ') if roles.length else 'aucun' }}</dd></div>
      <div><dt class="text-gray-500">Dernière connexion</dt><dd class="mt-1 font-medium text-gray-900" id="profile-last-login">{{ account.last_login_at | format_date if account.last_login_at else 'jamais' }}</dd></div>
      <div><dt class="text-gray-500">Compte créé le</dt><dd class="mt-1 font-medium text-gray-900" id="profile-created-at">{{ account.created_at | format_date }}</dd></div>
    </dl>
  </section>
  <section class="${CARD}">
    <h2 class="text-base font-semibold text-gray-900">Changer le mot de passe</h2>
    <p class="mt-1 text-sm text-gray-600">Vos autres sessions (autres navigateurs, autres appareils) seront fermées.</p>
    <form method="post" action="/profile/password" class="mt-4 space-y-4" novalidate>
      ${CSRF}
${passwordInput('current_password', 'Mot de passe actuel', 'current-password')}
${passwordInput('new_password', 'Nouveau mot de passe (8 caractères au moins)', 'new-password')}
${passwordInput('new_password_confirm', 'Nouveau mot de passe, à nouveau', 'new-password')}
      <button type="submit" class="${PRIMARY}">Changer le mot de passe</button>
    </form>
  </section>
  {% include "${MFA_CARD_VIEW}" ignore missing %}
</div>
{% endblock %}
`;
}

export function emitMfaCardView(command: string): string {
  return `{#- The second factor's card on the dashboard and the profile. This file is yours: \`${command}\` created it and
    never overwrites it (unless --force). -#}
<section class="${CARD}" id="mfa-card">
  <h2 class="text-base font-semibold text-gray-900">Second facteur</h2>
  <p class="mt-1 text-sm text-gray-600">Un code à six chiffres d’une application d’authentification (Google Authenticator, Aegis, 1Password…) en plus du mot de passe.</p>
  <p class="mt-4"><a href="/account/mfa" class="${PRIMARY}">Gérer le second facteur</a></p>
</section>
`;
}
