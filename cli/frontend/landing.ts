/**
 * The static landing page of `fw sync:landing` (docs/frontend.md "`fw sync:landing [--check]`"):
 * `mvc/views/landing/index.html` rendered with the project's view environment (its views over the framework's, its
 * translations over the framework's) and no request (so no nonce, no CSRF token, no session), written to
 * `docs/index.html` with the project's `static/` mirrored to `docs/static/`, every absolute `/static/…` URL made
 * relative. Reads only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';
import { frameworkRoot, listFiles } from '../i18n/usage.js';
import type { WriterFile } from '../writer.js';

export const LANDING_TEMPLATE = 'landing/index.html';
export const LANDING_SOURCE = `mvc/views/${LANDING_TEMPLATE}`;
export const LANDING_PAGE = 'docs/index.html';
export const LANDING_STATIC = 'docs/static';

/**
 * `="/static/x"` and `url(/static/x)` become `="static/x"` and `url(static/x)`, and a link to `/` a link to the page
 * itself (`./`): a static site may be served from a sub-folder (`https://host/project/`).
 */
export function relativeStaticUrls(html: string): string {
  return html
    .replace(/(\shref=)(["'])\/\2/gi, '$1$2./$2')
    .replace(/(\s(?:src|href|poster|srcset|content|action)=["']?)\/static\//gi, '$1static/')
    .replace(/(url\(\s*["']?)\/static\//gi, '$1static/');
}

/** In a copied stylesheet at `docs/static/<dir>/x.css`, `url(/static/a.png)` becomes relative to that folder. */
function relativeCssUrls(css: string, depth: number): string {
  return css.replace(/(url\(\s*["']?)\/static\//gi, `$1${'../'.repeat(depth)}`);
}

/** The application name the pages show (`APP_NAME` of env/<APP_ENV>, as the project's config.ts reads it). */
async function appName(root: string): Promise<string | undefined> {
  const { parseEnv } = await import('../../runtime/env.js');
  const name = process.env.APP_ENV || 'dev';
  const file = path.join(root, 'env', name);
  const fromEnv = process.env.APP_NAME ?? (fs.existsSync(file) ? parseEnv(fs.readFileSync(file, 'utf8'), `env/${name}`).APP_NAME : undefined);
  return fromEnv || undefined;
}

/** Renders the landing page; a CliError when its template is missing or fails to render. */
export async function renderLanding(root: string): Promise<string> {
  if (!fs.existsSync(path.join(root, LANDING_SOURCE))) {
    throw new CliError(
      `${LANDING_SOURCE} introuvable : c'est le gabarit de la page d'accueil statique.`,
      'créez-le avec « fw make:public-page landing », puis relancez « fw sync:landing ».',
    );
  }
  const { configure } = await import('../../runtime/config.js');
  const { NunjucksRenderer } = await import('../../runtime/templates/nunjucks.js');
  const { pageContext } = await import('../../runtime/controller.js');
  const name = await appName(root);
  configure({ project_root: root, ...(name ? { app_name: name } : {}) });
  const renderer = new NunjucksRenderer({ searchPaths: [path.join(root, 'mvc', 'views'), path.join(frameworkRoot(root), 'runtime', 'views')], noCache: true });
  try {
    return relativeStaticUrls(renderer.render(LANDING_TEMPLATE, pageContext(undefined, {}, 'layouts/base.html')));
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
    throw new CliError(
      `le rendu de ${LANDING_SOURCE} a échoué : ${message}`,
      "une page statique n'a ni requête, ni session, ni routeur : url_for n'y est pas disponible, écrivez ces liens en clair (csrf_token() y est vide, current_user absent), puis relancez.",
    );
  }
}

/**
 * A file the page names under `/static/`, as a path inside the static folder: a name with a `.`, `..` or empty
 * segment (or a `\`) would read beside the framework's static folder rather than in it, and is refused.
 */
function staticName(file: string): string {
  const segments = file.split('/');
  if (file.includes('\\') || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new CliError(
      `${LANDING_SOURCE} nomme « /static/${file} » : un fichier statique se nomme par son chemin dans static/, sans segment « .. », « . » ni vide (ni « \\ ») ; rien n'a été écrit.`,
      `écrivez le chemin du fichier tel qu'il est sous static/ (par exemple /static/img/logo.png), puis relancez « fw sync:landing ».`,
    );
  }
  return file;
}

/** docs/index.html and the mirror of static/ (plus the framework's static files the page names and the project lacks). */
export async function landingFiles(root: string): Promise<WriterFile[]> {
  const html = await renderLanding(root);
  const files: WriterFile[] = [{ path: LANDING_PAGE, content: html, kind: 'canonical' }];
  const own = listFiles(path.join(root, 'static'), '');
  const frameworkStatic = path.join(frameworkRoot(root), 'runtime', 'static');
  const named = [...html.matchAll(/["'(]static\/([^"')?#\s]+)/g)]
    .map((match) => staticName(match[1]!))
    .filter((file) => !own.includes(file) && fs.existsSync(path.join(frameworkStatic, file)));
  const sources = [
    ...own.map((file) => [file, path.join(root, 'static', file)] as const),
    ...[...new Set(named)].map((file) => [file, path.join(frameworkStatic, file)] as const),
  ];
  for (const [file, source] of sources) {
    const bytes = fs.readFileSync(source);
    const content = file.endsWith('.css') ? Buffer.from(relativeCssUrls(bytes.toString('utf8'), file.split('/').length - 1)) : bytes;
    files.push({ path: `${LANDING_STATIC}/${file}`, content, kind: 'canonical' });
  }
  return files;
}

/** Files under docs/static/ that the mirror would not write (removed by a sync, reported by --check). */
export function extraStaticFiles(root: string, files: readonly WriterFile[]): string[] {
  const planned = new Set(files.map((file) => file.path));
  return listFiles(path.join(root, LANDING_STATIC), '')
    .map((file) => `${LANDING_STATIC}/${file}`)
    .filter((file) => !planned.has(file));
}
