/**
 * What the previous fw-mvc's `fw make:crud` wrote as the user's files of an entity, path by path: the base of the
 * three-way merge of `fw make:crud <Entity> --upgrade` for a project made before the manual files recorded what
 * they were written with (docs/decisions.md "Upgrading an entity's files"). The emitters of this folder are frozen
 * copies of that release's; they read the same plan as today's.
 */
import type { CrudPlan } from '../plan.js';
import { legacyController } from './controller.js';
import { legacyModel } from './model.js';
import {
  legacyBulkDeleteView,
  legacyForm,
  legacyFormView,
  legacyIndexView,
  legacyPaginationView,
  legacyResultsView,
  legacyShowView,
  legacyTableView,
} from './views.js';

/** The manual files of the entity as the previous release wrote them, by path (`layouts/app.html` aside: shared, not the entity's). */
export function legacyManualFiles(plan: CrudPlan): ReadonlyMap<string, string> {
  const snake = plan.entity.snake;
  const views = `mvc/views/${plan.viewDir}`;
  return new Map([
    [`mvc/controllers/${snake}_controller.ts`, legacyController(plan)],
    [`mvc/models/${snake}_model.ts`, legacyModel(plan)],
    [`mvc/forms/${snake}_form.ts`, legacyForm(plan)],
    [`${views}/index.html`, legacyIndexView(plan)],
    [`${views}/show.html`, legacyShowView(plan)],
    [`${views}/form.html`, legacyFormView(plan)],
    [`${views}/_table.html`, legacyTableView(plan)],
    [`${views}/_pagination.html`, legacyPaginationView(plan)],
    [`${views}/_results.html`, legacyResultsView(plan)],
    [`${views}/bulk_delete.html`, legacyBulkDeleteView(plan)],
  ]);
}
