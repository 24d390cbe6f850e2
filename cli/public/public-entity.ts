/**
 * `fw make:public-list <Entity>`, `fw make:public-show <Entity>`, `fw make:public-form <Entity>` (each with
 * `--dry-run`): an entity's public pages (docs/generators.md, docs/decisions.md#public-pages) on one controller,
 * `mvc/controllers/<snake>_public_controller.ts`, created by the first of them; the others add their methods and
 * constants to it. Views in `mvc/views/<snake>_public/`, routes named `public.<plural>.<list|show|new|create>`.
 */
import type { Command } from 'commander';
import type { CommandInput, CommandModule } from '../command-module.js';
import { CliError } from '../errors.js';
import { compileOrFail, entityOrFail, projectRoot } from '../current-project.js';
import { generatePublic, publicOptions } from './generate.js';

export type PublicEntityKind = 'list' | 'show' | 'form';

/** The module of one of the three entity generators. */
export function publicEntityCommand(kind: PublicEntityKind): CommandModule {
  const commandName = `make:public-${kind}`;
  return {
    configure(command: Command): void {
      command.argument('<Entité>', "nom de l'entité (PascalCase)").option('--dry-run', 'affiche ce qui changerait sans rien écrire');
    },
    async run({ args, options }: CommandInput): Promise<number> {
      const root = projectRoot();
      const model = await compileOrFail(root);
      const entity = await entityOrFail(model, String(args[0]), commandName);
      const { publicPlan } = await import('../../emitters/public/plan.js');
      const controllers = await import('../../emitters/public/entity-controller.js');
      const views = await import('../../emitters/public/entity-views.js');
      const plan = publicPlan(model, entity.name);
      const view = (name: string, content: string) => ({ path: `mvc/views/${plan.viewDir}/${name}`, content, kind: 'manual' as const });
      const route = (action: 'list' | 'show' | 'new' | 'create') => {
        const r = plan.routes[action];
        return { method: r.method, path: r.path, handler: `${plan.controllerClass}.${r.action}`, options: publicOptions(r.name) };
      };
      const notes: string[] = [];
      const documents = plan.media.filter((m) => m.kind === 'file').map((m) => m.name);
      const mediaNote = (shown: boolean): void => {
        if (!shown) return;
        notes.push(
          'Médias : la table media doit exister (« fw upload:init », « fw media:init », puis « fw db:apply ») ; « fw make:crud --media » sert à les envoyer.',
        );
        if (kind === 'show' && documents.length > 0) {
          notes.push(
            `Documents (${documents.join(', ')}) : /media/documents/… ne les sert qu'aux sessions connectées ; pour un site public, ajoutez 'documents' à media_public_categories (config.ts).`,
          );
        }
      };
      let part;
      let templates;
      let routes;
      if (kind === 'list') {
        part = controllers.publicListPart(plan);
        templates = [view('list.html', views.emitPublicListView(plan))];
        routes = [route('list')];
        mediaNote(plan.listImage !== null);
      } else if (kind === 'show') {
        part = controllers.publicShowPart(plan);
        templates = [view('show.html', views.emitPublicShowView(plan))];
        routes = [route('show')];
        mediaNote(plan.media.length > 0);
      } else {
        if (plan.formFields.length === 0) {
          throw new CliError(
            `${entity.name} n'a aucun champ qu'un formulaire public puisse saisir (clé, clés étrangères, horodatages et secrets sont exclus).`,
            `ajoutez un champ à ${entity.file}, puis relancez « fw ${commandName} ${entity.name} ».`,
          );
        }
        part = controllers.publicFormPart(plan);
        templates = [view('form.html', views.emitPublicFormView(plan))];
        routes = [route('new'), route('create')];
        if (plan.missingRequired.length > 0) {
          notes.push(
            `Attention : ${plan.missingRequired.map((f) => f.name).join(', ')} (NOT NULL) n'${plan.missingRequired.length > 1 ? 'ont' : 'a'} pas de valeur dans INSERT_PUBLIC_FORM : ajoutez-la dans ${plan.controllerFile} (create()), sinon l'enregistrement échouera.`,
          );
        }
      }
      const pageOf = { list: plan.routes.list.path, show: `${plan.prefix}/{id}`, form: plan.routes.new.path }[kind];
      notes.unshift(`Page : ${pageOf}`);
      // The entity's base class and SQL, as make:crud writes them: the controller imports the class.
      const { entityFiles } = await import('../../emitters/index.js');
      return generatePublic(
        root,
        {
          command: `fw ${commandName} ${entity.name}`,
          controller: { path: plan.controllerFile, className: plan.controllerClass, skeleton: controllers.publicControllerSkeleton(plan), part },
          templates,
          support: entityFiles(model, entity),
          warnKept: true,
          import: { name: plan.controllerClass, from: `./controllers/${entity.snake}_public_controller.js` },
          routes,
          // The list is the page a visitor browses to: the menu names it (docs/generators.md).
          menu: kind === 'list' ? [{ path: plan.routes.list.path, label: plan.title }] : [],
          notes,
        },
        options.dryRun === true,
      );
    },
  };
}
