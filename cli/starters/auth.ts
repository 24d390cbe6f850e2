/** Starter 2, `auth` / `utilisateurs-auth` (docs/decisions.md#starters): login, a dashboard and a profile page. */
import type { Starter } from './starter.js';

export const authStarter: Starter = {
  id: '2',
  aliases: ['auth', 'utilisateurs-auth'],
  description: 'Connexion : utilisateurs, tableau de bord, profil et changement de mot de passe.',
  acceptsPublic: false,
  entryPath: '/dashboard',
  pieces: () => [{ kind: 'auth' }, { kind: 'account' }],
};
