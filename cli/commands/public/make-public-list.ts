/** `fw make:public-list <Entity> [--dry-run]`: an entity's public list page; what the three entity generators share is cli/public/public-entity.ts. */
import { publicEntityCommand } from '../../public/public-entity.js';

export const { configure, run } = publicEntityCommand('list');
