/** `fw auth:user:disable` (selector `--id` or `--email`): disables a user and closes its sessions; the module it shares with `auth:user:enable` is cli/auth/user-state.ts. */
import { userState } from '../../auth/user-state.js';

export const { configure, run } = userState(false);
