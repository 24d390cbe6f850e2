/** `fw auth:user:enable` (selector `--id` or `--email`): reactivates a user; the module it shares with `auth:user:disable` is cli/auth/user-state.ts. */
import { userState } from '../../auth/user-state.js';

export const { configure, run } = userState(true);
