/** `fw auth:user:role:add` (selector and `--role <rôle>`): gives a user an existing role; the module it shares with `auth:user:role:remove` is cli/auth/user-role.ts. */
import { userRole } from '../../auth/user-role.js';

export const { configure, run } = userRole('add');
