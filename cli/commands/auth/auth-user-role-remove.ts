/** `fw auth:user:role:remove` (selector and `--role <rôle>`): takes a role from a user; the module it shares with `auth:user:role:add` is cli/auth/user-role.ts. */
import { userRole } from '../../auth/user-role.js';

export const { configure, run } = userRole('remove');
