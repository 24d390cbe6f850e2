/** Where the framework's own files are, from the compiled location (dist/runtime/paths.js -> package root). */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const PACKAGE_ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
export const FRAMEWORK_VIEWS = path.join(PACKAGE_ROOT, 'runtime', 'views');
export const FRAMEWORK_I18N = path.join(PACKAGE_ROOT, 'runtime', 'i18n');
export const FRAMEWORK_STATIC = path.join(PACKAGE_ROOT, 'runtime', 'static');
