/**
 * The account pages of the `auth`, `mfa` and `suivi` starters: their files and the routes they add to
 * `mvc/routes.ts`. The profile is the same for all; the dashboard is the signed-in user's (`auth`, `mfa`) or the
 * behaviour record's (`suivi`: counts, latest observations, flags per pupil).
 */
import type { ModelNode } from '../../compiler/ir.js';
import { emitAppLayout } from '../../emitters/crud/app-layout.js';
import type { MenuToAdd, RouteToAdd } from '../../emitters/codemods/routes-edit.js';
import type { PlannedFile } from '../../emitters/planned-file.js';
import { DASHBOARD_CONTROLLER, PROFILE_CONTROLLER, emitDashboardController, emitProfileController } from '../../emitters/starters/account-controllers.js';
import { emitDashboardView, emitProfileView } from '../../emitters/starters/account-views.js';
import type { AccountDashboard } from './starter.js';

/** The starter named in the files, whichever builds them: `mfa` writes the same files as `auth`. */
function ownerCommand(dashboard: AccountDashboard): string {
  return `fw starter:build ${dashboard === 'suivi' ? 'suivi' : 'auth'}`;
}

function manual(path: string, content: string): PlannedFile {
  return { path, content, kind: 'manual' };
}

/** The dashboard's files: its controller and view (and, for `suivi`, the model of its queries, read from `model`). */
async function dashboardFiles(model: ModelNode, dashboard: AccountDashboard): Promise<PlannedFile[]> {
  const command = ownerCommand(dashboard);
  if (dashboard === 'account') {
    return [
      manual('mvc/controllers/dashboard_controller.ts', emitDashboardController(command)),
      manual('mvc/views/dashboard/index.html', emitDashboardView(command)),
    ];
  }
  const suivi = await import('../../emitters/starters/suivi-dashboard.js');
  const { emitSuiviDashboardView } = await import('../../emitters/starters/suivi-dashboard-view.js');
  const { SUIVI_FLAGS } = await import('./suivi.js');
  const spec = suivi.suiviDashboardSpec(model, new Set(SUIVI_FLAGS.filter((flag) => flag.positive).map((flag) => flag.name)));
  return [
    manual('mvc/controllers/dashboard_controller.ts', suivi.emitSuiviDashboardController(command)),
    manual('mvc/models/dashboard_model.ts', suivi.emitSuiviDashboardModel(spec, command)),
    manual('mvc/views/dashboard/index.html', emitSuiviDashboardView(spec, command)),
  ];
}

/**
 * The dashboard a build writes: the piece's, else the behaviour record's when the project has it (its entities and
 * its `/observations` pages), so that `mfa` or `auth` built on top of `suivi` keep its dashboard, as the home page
 * follows the pages rather than the starter being built.
 */
export async function dashboardOf(wanted: AccountDashboard | undefined, model: ModelNode, routes: string): Promise<AccountDashboard> {
  if (wanted) return wanted;
  if (!model.entities.some((entity) => entity.name === 'ObservationCours')) return 'account';
  const { declaredRoutes, parse } = await import('../../emitters/codemods/routes-edit.js');
  return declaredRoutes(parse(routes)).has('GET /observations') ? 'suivi' : 'account';
}

/** The controller, view and layout files (manual: created once, the user's afterwards). */
export async function accountFiles(model: ModelNode, dashboard: AccountDashboard): Promise<PlannedFile[]> {
  const profile = ownerCommand('account');
  return [
    ...(await dashboardFiles(model, dashboard)),
    manual('mvc/controllers/profile_controller.ts', emitProfileController(profile)),
    manual('mvc/views/profile/show.html', emitProfileView(profile)),
    manual('mvc/views/layouts/app.html', emitAppLayout()),
  ];
}

function route(method: string, path: string, handler: string, name: string): RouteToAdd {
  return { method, path, handler, options: `{ name: '${name}' }` };
}

/** The routes, one group per controller: behind login (no `public`), the POST behind CSRF as every POST. */
export function accountRoutes(
  dashboard: AccountDashboard,
): Array<{ import: { name: string; from: string }; routes: RouteToAdd[]; comment: string; menu: MenuToAdd[] }> {
  return [
    {
      import: { name: DASHBOARD_CONTROLLER, from: './controllers/dashboard_controller.js' },
      routes: [route('GET', '/dashboard', `${DASHBOARD_CONTROLLER}.index`, 'dashboard')],
      comment: `Tableau de bord (${ownerCommand(dashboard)})`,
      menu: [{ path: '/dashboard', label: 'Tableau de bord' }],
    },
    {
      import: { name: PROFILE_CONTROLLER, from: './controllers/profile_controller.js' },
      routes: [
        route('GET', '/profile', `${PROFILE_CONTROLLER}.show`, 'profile'),
        route('POST', '/profile/password', `${PROFILE_CONTROLLER}.changePassword`, 'profile.password'),
      ],
      comment: `Profil et mot de passe (${ownerCommand('account')})`,
      menu: [{ path: '/profile', label: 'Mon profil' }],
    },
  ];
}
