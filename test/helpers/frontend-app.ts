/**
 * A project made by `fw new` with htmx and Alpine (CSP build) prepared by `fw js:init htmx-alpine`, and a page that
 * loads them in its blocks as js:init says: an Alpine counter (a component registered in static/js/app.js, as the
 * CSP build wants) and an htmx button that swaps in a fragment. Also a landing page made static by
 * `fw sync:landing`. Served with `tsx app.ts` and the framework's default headers.
 */
import type { ChildProcess } from 'node:child_process';
import { newProject, type CliProject } from './cli.js';
import { linkFramework, linkPackages, serveProject } from './crud-app.js';

const APP_JS = `// Application script (see fw js:init): Alpine's CSP build evaluates no code from attributes, so components are here.
document.addEventListener('alpine:init', () => {
  window.Alpine.data('counter', () => ({
    count: 0,
    increment() {
      this.count++;
    },
  }));
});
`;

const PAGE = `{% extends "layouts/public.html" %}
{% block title %}Démo front{% endblock %}
{% block head %}
<link rel="icon" href="data:,">
{% endblock %}
{% block content %}
<h1 class="text-2xl font-semibold text-gray-900">Démo htmx et Alpine</h1>
<section class="mt-6 rounded-lg border border-gray-200 bg-white p-4" x-data="counter">
  <p>Compteur : <span id="count" x-text="count">0</span></p>
  <button type="button" id="increment" class="mt-2 rounded-md bg-blue-600 px-3 py-2 text-sm font-medium text-white" @click="increment">Ajouter un</button>
</section>
<section class="mt-6 rounded-lg border border-gray-200 bg-white p-4">
  <button type="button" id="load" class="rounded-md border border-gray-300 bg-white px-3 py-2 text-sm font-medium text-gray-700" hx-get="/demo/fragment" hx-target="#zone" hx-swap="innerHTML">Charger le fragment</button>
  <div id="zone" class="mt-3 text-gray-700">Pas encore chargé.</div>
</section>
{% endblock %}
{% block scripts %}
<script src="/static/vendor/htmx/htmx.min.js" defer{% if csp_nonce() %} nonce="{{ csp_nonce() }}"{% endif %}></script>
<script src="/static/vendor/alpine/alpine.min.js" defer{% if csp_nonce() %} nonce="{{ csp_nonce() }}"{% endif %}></script>
{% endblock %}
`;

const CONTROLLER = `import { BaseController, Response, type Request } from 'fw-mvc';

export class DemoController extends BaseController {
  static page(request: Request): Response {
    return BaseController.render('demo/index.html', { request });
  }

  static fragment(): Response {
    return new Response(200, '<p id="swapped" class="font-medium text-green-700">Fragment chargé par htmx.</p>');
  }
}
`;

const ROUTES = `import type { Router } from 'fw-mvc';
import { HomeController } from './controllers/home_controller.js';
import { DemoController } from './controllers/demo_controller.js';

export function registerRoutes(router: Router): void {
  router.add('GET', '/', HomeController.index, { name: 'home', public: true });
  router.add('GET', '/demo', DemoController.page, { name: 'demo', public: true });
  router.add('GET', '/demo/fragment', DemoController.fragment, { name: 'demo.fragment', public: true });
}
`;

export const LANDING_PAGE = `{% extends "layouts/public.html" %}
{% block title %}{{ trans('landing.title') }}{% endblock %}
{% block content %}
<section class="rounded-lg border border-gray-200 bg-white p-8">
  <h1 class="text-3xl font-bold text-gray-900">{{ trans('landing.title') }}</h1>
  <p class="mt-4 text-lg text-gray-700">{{ trans('landing.intro') }}</p>
</section>
{% endblock %}
`;

export interface FrontendApp {
  readonly project: CliProject;
  readonly url: string;
  stop(): Promise<void>;
}

function ok(project: CliProject, args: readonly string[]): string {
  const run = project.run(args);
  if (run.status !== 0) throw new Error(`fw ${args.join(' ')} a échoué (${run.status}) :\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

/** Builds the project (js:init, the demo page, sync:landing) and serves it. */
export async function startFrontendApp(env: Readonly<Record<string, string>> = {}): Promise<FrontendApp> {
  const project = newProject('Front');
  let child: ChildProcess | undefined;
  try {
    linkFramework(project);
    linkPackages(project, ['htmx.org', '@alpinejs/csp']);
    ok(project, ['js:init', 'htmx-alpine']);
    project.write('static/js/app.js', APP_JS);
    project.write('mvc/views/demo/index.html', PAGE);
    project.write('mvc/controllers/demo_controller.ts', CONTROLLER);
    project.write('mvc/routes.ts', ROUTES);
    project.write('mvc/views/landing/index.html', LANDING_PAGE);
    project.editJson('translations/fr.json', (data) => {
      data['landing.title'] = 'Front, la vitrine';
      data['landing.intro'] = 'Une page statique rendue par fw sync:landing.';
    });
    ok(project, ['sync:landing']);
    const served = await serveProject(project, env);
    child = served.child;
    return {
      project,
      url: served.url,
      async stop() {
        if (child && child.exitCode === null) {
          const exited = new Promise((resolve) => child!.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        await project.cleanup();
      },
    };
  } catch (error) {
    child?.kill('SIGTERM');
    await project.cleanup();
    throw error;
  }
}
