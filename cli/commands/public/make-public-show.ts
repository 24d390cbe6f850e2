/** `fw make:public-show <Entity> [--dry-run]`: an entity's public show page; what the three entity generators share is cli/public/public-entity.ts. */
import { publicEntityCommand } from '../../public/public-entity.js';

export const { configure, run } = publicEntityCommand('show');
