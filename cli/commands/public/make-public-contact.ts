/**
 * `fw make:public-contact [--dry-run]`: the static contact page (docs/generators.md "Static pages"): title, introduction,
 * contact and address blocks with placeholder values, no processing. Template `mvc/views/pages/contact.html`, method
 * `PagesController.contact`, route `GET /contact` named `public.contact`. docs/generators.md
 */
import type { Command } from 'commander';
import type { CommandInput } from '../../command-module.js';
import { projectRoot } from '../../current-project.js';
import { generatePublic, publicOptions } from '../../public/generate.js';

export function configure(command: Command): void {
  command.option('--dry-run', 'affiche ce qui changerait sans rien écrire');
}

export async function run({ options }: CommandInput): Promise<number> {
  const root = projectRoot();
  const pages = await import('../../../emitters/public/pages.js');
  const page = pages.CONTACT_PAGE;
  return generatePublic(
    root,
    {
      command: 'fw make:public-contact',
      controller: {
        path: pages.PAGES_CONTROLLER_FILE,
        className: pages.PAGES_CONTROLLER,
        skeleton: pages.pagesControllerSkeleton(),
        part: pages.contactPart(),
      },
      templates: [{ path: page.template, content: pages.emitContactView(), kind: 'manual' }],
      import: { name: pages.PAGES_CONTROLLER, from: './controllers/pages_controller.js' },
      routes: [{ method: 'GET', path: page.path, handler: `${pages.PAGES_CONTROLLER}.${page.method}`, options: publicOptions(page.routeName) }],
      menu: [{ path: page.path, label: 'Contact' }],
      notes: [`Contact : ${page.path} ; remplacez l'adresse e-mail, le téléphone et l'adresse d'exemple dans ${page.template}.`],
    },
    options.dryRun === true,
  );
}
