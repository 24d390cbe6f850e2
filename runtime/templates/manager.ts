/** The template manager (docs/runtime.md "Templates and i18n"): one registered renderer. */

export interface TemplateRenderer {
  render(template: string, context: Record<string, unknown>): string;
}

/** Rendering without a renderer (a `RuntimeError` under the old Python name; docs/api-mapping.md). */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

export class TemplateManager {
  private renderer: TemplateRenderer | undefined;

  register(renderer: TemplateRenderer): void {
    this.renderer = renderer;
  }

  get hasRenderer(): boolean {
    return this.renderer !== undefined;
  }

  render(template: string, context: Record<string, unknown> = {}): string {
    if (!this.renderer) {
      throw new TemplateError(`Aucun moteur de templates enregistré pour rendre « ${template} » : appelez templateManager.register(new NunjucksRenderer()).`);
    }
    return this.renderer.render(template, context);
  }
}

export const templateManager = new TemplateManager();
