/**
 * `fw make:public-page <name> [--title <title>] [--dry-run]`: a static public page (docs/generators.md "Static pages"): the template
 * `mvc/views/<name>/index.html`, a method of PagesController (`mvc/controllers/pages_controller.ts`, created when
 * absent, else the method is added), the route `GET /<name>` named `public.page.<name>`. docs/generators.md
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { frameworkPathOwner } from '../../../compiler/framework-paths.js';
import { CliError } from '../../errors.js';
import { projectRoot } from '../../current-project.js';
import { generatePublic, publicOptions } from '../../public/generate.js';

export function configure(command: Command): void {
  command
    .argument('<nom>', 'nom de la page : lettres minuscules, chiffres et tirets (ex. a-propos)')
    .option('--title <titre>', 'titre de la page (par défaut tiré du nom : a-propos → « À propos »)')
    .option('--dry-run', 'affiche ce qui changerait sans rien écrire');
}

export async function run({ args, options }: CommandInput): Promise<number> {
  const name = String(args[0]);
  const pages = await import('../../../emitters/public/pages.js');
  if (!pages.PAGE_NAME.test(name)) {
    const suggestion = name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
    throw new CliError(
      `nom de page invalide « ${name} » : lettres minuscules, chiffres et tirets seulement (il devient l'adresse /<nom> et le dossier mvc/views/<nom>/).`,
      `par exemple « fw make:public-page ${pages.PAGE_NAME.test(suggestion) ? suggestion : 'a-propos'} ».`,
    );
  }
  const owner = frameworkPathOwner(name, true);
  if (owner !== undefined) {
    throw new CliError(`« ${name} » est réservé : ${owner}, la page ne serait jamais atteinte.`, 'choisissez un autre nom.');
  }
  const title = typeof options.title === 'string' ? options.title : undefined;
  const problem = title === undefined ? null : pages.titleProblem(title);
  if (problem) {
    throw new CliError(
      `titre refusé pour « fw make:public-page ${name} » : ${problem}.`,
      `donnez un titre d'une ligne, par exemple --title "À propos de nous" ; la mise en forme se fait ensuite dans ${`mvc/views/${name}/index.html`}.`,
    );
  }
  const root = projectRoot();
  const page = pages.pagePlan(name, title);
  return generatePublic(
    root,
    {
      command: `fw make:public-page ${name}`,
      controller: {
        path: pages.PAGES_CONTROLLER_FILE,
        className: pages.PAGES_CONTROLLER,
        skeleton: pages.pagesControllerSkeleton(),
        part: pages.pagePart(page),
      },
      templates: [{ path: page.template, content: pages.emitPageView(page), kind: 'manual' }],
      import: { name: pages.PAGES_CONTROLLER, from: './controllers/pages_controller.js' },
      routes: [{ method: 'GET', path: page.path, handler: `${pages.PAGES_CONTROLLER}.${page.method}`, options: publicOptions(page.routeName) }],
      // The landing page is the site's home, reached by its name: no menu entry.
      menu: name === 'landing' ? [] : [{ path: page.path, label: page.title }],
      notes: [
        `Page : ${page.path} « ${page.title} » (gabarit ${page.template}, à vous de l'écrire)`,
        // The landing page is also the one `fw sync:landing` copies as a static site (docs/frontend.md).
        ...(name === 'landing' ? ['Copie statique : « fw sync:landing » la rend dans docs/index.html (avec static/), pour un hébergement statique.'] : []),
      ],
    },
    options.dryRun === true,
  );
}
