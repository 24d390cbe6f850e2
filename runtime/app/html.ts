/** `html()`: a Response whose body is a template rendered by the application's template manager. */
import fs from 'node:fs';
import path from 'node:path';
import { get, getPath } from '../config.js';
import { Response } from '../http/response.js';
import { templateManager } from '../templates/manager.js';

/** A rendered template; with `raw`, the file is read from views_dir as is. */
export function html(template: string, status = 200, context: Record<string, unknown> = {}, raw = false): Response {
  if (raw) {
    const root = getPath('views_dir');
    const file = path.resolve(root, template);
    if (!file.startsWith(root + path.sep)) throw new Error(`Template hors du dossier des vues : ${template}`);
    return new Response(status, fs.readFileSync(file));
  }
  return new Response(status, templateManager.render(template, { app_name: get('app_name'), ...context }));
}
