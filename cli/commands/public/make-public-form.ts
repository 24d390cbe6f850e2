/** `fw make:public-form <Entity> [--dry-run]`: an entity's public form page; what the three entity generators share is cli/public/public-entity.ts. */
import { publicEntityCommand } from '../../public/public-entity.js';

export const { configure, run } = publicEntityCommand('form');
