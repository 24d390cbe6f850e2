/** The account pages of the `auth` and `mfa` starters: their files and the routes they add to `mvc/routes.ts`. */
import { emitAppLayout } from '../../emitters/crud/views-record.js';
import type { RouteToAdd } from '../../emitters/crud/routes-edit.js';
import type { PlannedFile } from '../../emitters/planned-file.js';
import { DASHBOARD_CONTROLLER, PROFILE_CONTROLLER, emitDashboardController, emitProfileController } from '../../emitters/starters/account-controllers.js';
import { emitDashboardView, emitProfileView } from '../../emitters/starters/account-views.js';

/** The controller, view and layout files (manual: created once, the user's afterwards). */
export function accountFiles(command: string): PlannedFile[] {
  const manual = (path: string, content: string): PlannedFile => ({ path, content, kind: 'manual' });
  return [
    manual('mvc/controllers/dashboard_controller.ts', emitDashboardController(command)),
    manual('mvc/controllers/profile_controller.ts', emitProfileController(command)),
    manual('mvc/views/dashboard/index.html', emitDashboardView(command)),
    manual('mvc/views/profile/show.html', emitProfileView(command)),
    manual('mvc/views/layouts/app.html', emitAppLayout()),
  ];
}

function route(method: string, path: string, handler: string, name: string): RouteToAdd {
  return { method, path, handler, options: `{ name: '${name}' }` };
}

/** The routes, one group per controller: behind login (no `public`), the POST behind CSRF as every POST. */
export const ACCOUNT_ROUTES: ReadonlyArray<{ import: { name: string; from: string }; routes: RouteToAdd[]; comment: string }> = [
  {
    import: { name: DASHBOARD_CONTROLLER, from: './controllers/dashboard_controller.js' },
    routes: [route('GET', '/dashboard', `${DASHBOARD_CONTROLLER}.index`, 'dashboard')],
    comment: 'Tableau de bord (fw starter:build auth)',
  },
  {
    import: { name: PROFILE_CONTROLLER, from: './controllers/profile_controller.js' },
    routes: [
      route('GET', '/profile', `${PROFILE_CONTROLLER}.show`, 'profile'),
      route('POST', '/profile/password', `${PROFILE_CONTROLLER}.changePassword`, 'profile.password'),
    ],
    comment: 'Profil et mot de passe (fw starter:build auth)',
  },
];
